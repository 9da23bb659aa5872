// Screenshots the browser tests keep with their output, to be looked at (375 and 1280 px, light
// and dark). CI keeps only its log: there they are not taken (about 140 PNGs a run, for no one).
import { test, type Page, type PageScreenshotOptions } from '@playwright/test';

/** Saves a screenshot as `name` in the test's output folder, except on CI. */
export async function keepScreenshot(
  page: Page,
  name: string,
  options: Omit<PageScreenshotOptions, 'path'> = {},
): Promise<void> {
  if (process.env.CI) return;
  await page.screenshot({ ...options, path: test.info().outputPath(name) });
}
