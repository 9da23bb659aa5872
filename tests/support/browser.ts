import { existsSync } from 'node:fs';

/**
 * Playwright's own browser download cannot run everywhere, so a system Chromium is used when
 * there is one (env CHROMIUM_PATH, or Debian's /usr/bin/chromium); otherwise Playwright's own.
 */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
