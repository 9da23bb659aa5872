// Playwright global set-up: one throwaway stack + the built SPA for the whole run. The returned
// function is Playwright's global teardown. Workers inherit the environment set here.
import { E2E_BASE_URL, E2E_STACK_ENV } from './support/env.ts';
import { startHarness } from '../tests/support/harness.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const harness = await startHarness();
  process.env[E2E_BASE_URL] = harness.baseUrl;
  process.env[E2E_STACK_ENV] = JSON.stringify(harness.stackEnv);
  return async () => {
    await harness.stop();
  };
}
