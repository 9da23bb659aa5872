// What global-setup hands to the test workers (through the environment they inherit); the
// stack's env is read by stackEnv() in tests/support/stack.ts.

export const E2E_BASE_URL = 'E2E_BASE_URL';
export const E2E_STACK_ENV = 'E2E_STACK_ENV';

export function baseUrl(): string {
  const url = process.env[E2E_BASE_URL];
  if (!url)
    throw new Error(`${E2E_BASE_URL} is not set: run the browser tests with \`npm run test:e2e\``);
  return url;
}
