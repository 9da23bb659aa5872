import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from './tests/support/browser.ts';

// Browser tests against a throwaway local stack and the built SPA (see e2e/global-setup.ts).
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // Several checkouts' runs may share a machine; PW_OUTPUT_DIR keeps their artefacts apart.
  outputDir: process.env.PW_OUTPUT_DIR ?? 'test-results',
  globalSetup: './e2e/global-setup.ts',
  // Two workers: the CI runners are 2-core machines like the development ones, and two workers
  // keep both cores busy (0-1 % idle while the browser suite runs): a third adds only contention.
  workers: 2,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // A test's own limit catches a hang, not slowness: on a busy 2-core runner a default-limit test
  // took 41 s here and over 45 s on CI, while its expectations still wait 10 s each at most.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    headless: true,
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    // A failed test keeps its trace: every action with the page's DOM before and after it. The
    // trace's film of the screen is left out: capturing and encoding its frames took over a
    // third of the browser suite's CPU time on a 2-core machine (decision 0265); the failure's
    // screenshot is still taken. CI records none: only its log is kept there (no traces and
    // no kept screenshots took the suite from 1,925 to 1,775 s of test time).
    trace: process.env.CI
      ? 'off'
      : { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumExecutable(), args: chromiumArgs },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
});
