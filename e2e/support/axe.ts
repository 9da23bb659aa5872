// axe-core as every browser test runs it: WCAG 2.0/2.1 A and AA, in the light and the dark colour
// scheme (Mantine follows the system's), at the widths a view is looked at, with a screenshot of
// each state into the test's output folder to be looked at.
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { expect, type Page } from '@playwright/test';
import { keepScreenshot } from './screenshot.ts';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
export type ColorScheme = 'light' | 'dark';
export const BOTH_SCHEMES: readonly ColorScheme[] = ['light', 'dark'];
export const PHONE = { width: 375, height: 812 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

export interface AxeScope {
  /** Scan only this part of the page (a CSS selector). */
  include?: string;
}

/** The page's violations, one readable line each: the rule and the first few elements. */
export async function axeViolations(page: Page, scope: AxeScope = {}): Promise<string[]> {
  // A page with frames: the builder, which runs axe in each frame and merges the results.
  if (page.frames().length > 1) return builderViolations(page, scope);
  // One frame: axe-core run in the page itself, loaded once per document. The builder evaluates
  // its 560 kB source twice per scan (once more per frame), which took most of a scan's time
  // (about 1 s of a scan of the 404 page, of which axe's rules took 0.1-0.2 s).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    async ({ tags, include }) => {
      const inPage = (window as unknown as { axe: typeof axe }).axe;
      const { violations: found } = await inPage.run(include ? { include: [include] } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return found.map((v) => ({
        id: v.id,
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      }));
    },
    { tags: WCAG_TAGS, include: scope.include },
  );
  return violations.map(line);
}

/** A violation as one line: the rule, its help and the first few elements. */
function line(v: { id: string; help: string; targets: string[] }): string {
  return `${v.id} (${v.help}): ${v.targets.join(', ')}`;
}

async function builderViolations(page: Page, scope: AxeScope): Promise<string[]> {
  let builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(WCAG_TAGS);
  if (scope.include) builder = builder.include(scope.include);
  const { violations } = await builder.analyze();
  return violations.map((v) =>
    line({ ...v, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }),
  );
}

export interface AxeCleanOptions extends AxeScope {
  /** Default: light and dark. */
  schemes?: readonly ColorScheme[];
  /** Each width is scanned, then the page's own size is restored; default: the current one. */
  viewports?: ReadonlyArray<{ width: number; height: number }>;
  /** Runs once the width and scheme are set, before the scan (bring a panel into view, say). */
  beforeScan?: () => Promise<void>;
  /** Scan with reduced motion (and leave it on): no banner slide or transition mid-scan. */
  reducedMotion?: boolean;
  /** Close open toasts first: one fading in or out has no settled contrast. */
  closeToasts?: boolean;
  /** Save `<label>-<width>-<scheme>.png` in the test's output folder (default: full page). */
  screenshot?: boolean | 'viewport';
  /** Record violations and go on (the test still fails): one test scanning several views. */
  soft?: boolean;
}

/** No axe violation in each scheme (and at each width) given; the light scheme is left on. */
export async function expectAxeClean(
  page: Page,
  label: string,
  options: AxeCleanOptions = {},
): Promise<void> {
  const own = page.viewportSize();
  for (const viewport of options.viewports ?? [null]) {
    if (viewport) await page.setViewportSize(viewport);
    const width = page.viewportSize()?.width ?? 0;
    for (const colorScheme of options.schemes ?? BOTH_SCHEMES) {
      await page.emulateMedia(
        options.reducedMotion ? { colorScheme, reducedMotion: 'reduce' } : { colorScheme },
      );
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      // Let colour transitions finish before contrast is measured.
      await page.waitForTimeout(250);
      await options.beforeScan?.();
      // After beforeScan, which may raise one (loading a product says so in a toast).
      if (options.closeToasts) await closeToasts(page);
      const where = `${label}, ${width} px, ${colorScheme}`;
      const found = await axeViolations(page, options);
      if (options.soft) expect.soft(found, where).toEqual([]);
      else expect(found, where).toEqual([]);
      if (options.screenshot) {
        await keepScreenshot(page, `${fileName(label)}-${width}-${colorScheme}.png`, {
          fullPage: options.screenshot !== 'viewport',
        });
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (options.viewports && own) await page.setViewportSize(own);
}

async function closeToasts(page: Page): Promise<void> {
  await page.evaluate(() =>
    document
      .querySelectorAll<HTMLButtonElement>(
        '.mantine-Notifications-root .mantine-Notification-closeButton',
      )
      .forEach((b) => b.click()),
  );
  await expect(page.locator('.mantine-Notifications-root').getByRole('alert')).toHaveCount(0);
}

/** A label as a file name: "/admin Products tab" -> "admin-Products-tab". */
function fileName(label: string): string {
  return label.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '');
}
