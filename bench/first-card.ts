// First product card with and without the HTML's early first page (REQ-FIND-7, decisions 0160 and
// 0190: the HTML asks for the first page and draws its cards before the app has loaded), part
// `first-card` of `npm run bench`. The same app is built twice, once as shipped and once with
// MAR_FIRST_PAGE_PREFETCH=off (scripts/vite-plugins/first-page.ts leaves the inline script out: the app
// asks for the products and draws the cards itself, as before 17C), and both are loaded in
// turn against the same stack and catalogue, so the machine's load affects both alike. Reported:
// medians of the first card (ms since navigation start, by the page's own clock: a
// MutationObserver) and of when the first-page request started.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { build, preview } from 'vite';
import { freePort } from '../tests/support/harness.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
type Row = (section: string, measure: string, value: string) => void;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const ms = (n: number) => `${Math.round(n)} ms`;

async function serve(outDir: string) {
  const port = await freePort();
  const server = await preview({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.httpServer.close(() => resolve())),
  };
}

/**
 * Marks, by the page's own clock, when the first card is in the page (a MutationObserver sees the
 * DOM change itself; Playwright's waitFor polls, which would add its own delay to the figure).
 * Plain script text: tsx compiles functions with helpers (`__name`) that the page does not have.
 */
export const WATCH_FIRST_CARD = `new MutationObserver((_, observer) => {
  if (document.querySelector('[data-testid="product-card"]')) {
    window.__firstCardAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true });`;

/** One page load: first card, and when the first-page request started (ms since navigation). */
async function loadOnce(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: WATCH_FIRST_CARD });
    await page.goto(url, { waitUntil: 'commit' });
    await page.getByTestId('product-card').first().waitFor();
    return await page.evaluate(() => {
      const request = performance
        .getEntriesByType('resource')
        .find((e) => e.name.includes('/rpc/storefront_page'));
      const card = (window as unknown as { __firstCardAt: number }).__firstCardAt;
      return { card, requestStart: request?.startTime ?? NaN };
    });
  } finally {
    await context.close();
  }
}

/**
 * `shippedUrl`: the app as built by the bench (with the early request). Builds the variant
 * without it into `tmp`, then alternates loads of both.
 */
export async function firstCardPart(
  shippedUrl: string,
  tmp: string,
  row: Row,
  runs: number,
  chromiumPath: string,
): Promise<void> {
  const outDir = path.join(tmp, 'dist-without-early-request');
  process.env.MAR_FIRST_PAGE_PREFETCH = 'off';
  try {
    await build({
      root: ROOT,
      configFile: path.join(ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    delete process.env.MAR_FIRST_PAGE_PREFETCH;
  }
  const without = await serve(outDir);
  const browser = await chromium.launch({
    executablePath: existsSync(chromiumPath) ? chromiumPath : undefined,
  });
  try {
    type Load = Awaited<ReturnType<typeof loadOnce>>;
    const results: { with: Load[]; without: Load[] } = { with: [], without: [] };
    // A warm-up load of each (the preview servers' first responses, the disk cache).
    await loadOnce(browser, shippedUrl);
    await loadOnce(browser, without.url);
    for (let i = 0; i < Math.max(runs, 5); i++) {
      results.with.push(await loadOnce(browser, shippedUrl));
      results.without.push(await loadOnce(browser, without.url));
    }
    for (const [name, list] of [
      ['cards drawn by the HTML (shipped)', results.with],
      ['app asks itself (before 17C)', results.without],
    ] as const) {
      row('first-card', `${name}: first product card`, ms(median(list.map((r) => r.card))));
      row(
        'first-card',
        `${name}: first-page request started`,
        ms(median(list.map((r) => r.requestStart))),
      );
    }
  } finally {
    await browser.close();
    await without.close();
  }
}
