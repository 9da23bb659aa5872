// Part `home` of bench/run.ts: the home page in Chromium: the first product card, the next page
// after Load more, and the DOM's size after five pages.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { PAGE } from './catalogue-api.ts';
import { WATCH_FIRST_CARD } from './first-card.ts';
import { median, ms, row } from './results.ts';
import { CHROMIUM } from './run-setup.ts';

/** At least three loads of the page (`runs` if more). */
export async function homePart(appUrl: string, products: string, runs: number) {
  const browser = await chromium.launch({
    executablePath: existsSync(CHROMIUM) ? CHROMIUM : undefined,
  });
  try {
    const first: number[] = [];
    const next: number[] = [];
    let nodes = 0;
    let pages = 1;
    let clicks = 0;
    let lost = 0;
    for (let i = 0; i < Math.max(runs, 3); i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript({ content: WATCH_FIRST_CARD });
      await page.goto(appUrl, { waitUntil: 'commit' });
      await page.getByTestId('product-card').first().waitFor();
      // Milliseconds since navigation start, by the page's own clock (bench/first-card.ts).
      first.push(
        await page.evaluate(() => (window as unknown as { __firstCardAt: number }).__firstCardAt),
      );
      const loadMore = page.getByRole('button', { name: 'Load more' });
      // The first cards are drawn by the HTML before the app runs; Load more comes with the app.
      await loadMore.waitFor({ timeout: 15_000 }).catch(() => undefined);
      // A small catalogue (the seed's 30) has two pages: only the first card is measured.
      for (let p = 1; p < 5 && (await loadMore.count()) > 0; p++) {
        const cards = await page.getByTestId('product-card').count();
        const t0 = await page.evaluate(() => performance.now());
        await loadMore.click();
        clicks++;
        // A click that shows nothing is counted, not fatal: once in ~190 tries (at 10,000
        // products, stop 15) a click left the page at 24 cards; it was not seen again.
        const shown = await page
          .waitForFunction(
            (n) => document.querySelectorAll('[data-testid="product-card"]').length > n,
            cards,
            { timeout: 10_000 },
          )
          .then(() => true)
          .catch(() => false);
        if (!shown) {
          lost++;
          break;
        }
        if (p === 1) next.push((await page.evaluate(() => performance.now())) - t0);
      }
      nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
      pages = Math.ceil((await page.getByTestId('product-card').count()) / PAGE);
      await context.close();
    }
    row('home', `${products}: first product card`, ms(median(first)));
    if (next.length) {
      row('home', `${products}: next page shown after Load more`, ms(median(next)));
      row('home', `${products}: DOM elements after ${pages} pages`, String(nodes));
    }
    if (lost)
      row(
        'home',
        `${products}: Load more clicks with no new cards in 10 s`,
        `${lost} of ${clicks}`,
      );
  } finally {
    await browser.close();
  }
}
