import { existsSync } from 'node:fs';

/** Debian's packages chromium-headless-shell (for automation, decision 0265) and chromium. */
const SYSTEM_CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/**
 * The browser the tests drive. Playwright's own browser download cannot run everywhere, so a
 * system one is used when there is one: env CHROMIUM_PATH, else Debian's headless shell, which
 * ran the browser suite in two thirds of the full browser's time on a 2-core machine, else
 * Debian's full Chromium; otherwise Playwright's own.
 */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return SYSTEM_CHROMIUMS.find((path) => existsSync(path));
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
