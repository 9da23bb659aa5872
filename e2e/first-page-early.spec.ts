// REQ-FIND-7: the home page's first page of products is requested by the HTML itself
// (scripts/vite-plugins/first-page.ts), before the app's JavaScript is fetched, and the app uses that
// answer instead of asking again.
import type { Page, Request } from '@playwright/test';
import { PAGE_SIZE } from '../src/features/storefront/paging.ts';
import { texts } from '../src/texts.ts';
import { cards } from './support/catalogue.ts';
import { expect, test } from './support/fixtures.ts';

// The store's own cacheable read (REQ-CDN-1, src/host/catalogueApi.ts), never the Data API.
const isProductPage = (r: Request) =>
  new URL(r.url()).pathname.endsWith('/api/catalogue/rpc/storefront_page');

/** Every request of the page load, in the order the browser issued them. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (r) => requests.push(r));
  return requests;
}

/** The app's own code: the chunk main.tsx imports after the first paint (app/start.tsx). */
async function startChunk(page: Page): Promise<string> {
  const manifest = (await (await page.request.get('/.vite/manifest.json')).json()) as Record<
    string,
    { file: string }
  >;
  const start = manifest['src/app/start.tsx'];
  expect(start, 'start.tsx is a chunk of its own').toBeTruthy();
  return `/${start!.file}`;
}

for (const { path, category } of [
  { path: '/', category: null },
  { path: '/?cat=Football', category: 'Football' },
]) {
  test(`${path}: the first page is asked for once, by the HTML before the app's code`, async ({
    page,
  }) => {
    const start = await startChunk(page);
    const requests = recordRequests(page);
    await page.goto(path);
    // Generous: the first loads after the build, on a shared machine, can take a while.
    await expect(cards(page).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('catalogue-heading')).toHaveText(category ?? texts.home.all);
    await page.waitForLoadState('networkidle');

    const pages = requests.filter(isProductPage);
    expect(pages, 'requests for the first page').toHaveLength(1);
    const url = new URL(pages[0]!.url());
    // REQ-CDN-1: on the site's own origin, no key in the URL, and an answer a CDN may share.
    expect(url.origin).toBe(new URL(page.url()).origin);
    expect(url.searchParams.has('apikey')).toBe(false);
    const headers = await (await pages[0]!.response())!.allHeaders();
    expect(headers['cache-control']).toBe('public, max-age=0, s-maxage=60');
    expect(headers['etag']).toMatch(/^"[0-9a-f]{32}"$/);
    expect(url.searchParams.get('p_limit')).toBe(String(PAGE_SIZE + 1));
    expect(url.searchParams.get('p_cat')).toBe(category);
    // Issued before the browser even asked for the app's code.
    const order = requests.map((r) => new URL(r.url()).pathname);
    expect(order).toContain(start);
    expect(requests.indexOf(pages[0]!)).toBeLessThan(order.indexOf(start));
    // The cards are that answer.
    const rows = (await (await pages[0]!.response())!.json()) as { title: string }[];
    await expect(cards(page).getByTestId('product-title').first()).toHaveText(rows[0]!.title);
  });
}

test('other categories, Load more and a retry still ask the database', async ({ page }) => {
  const requests = recordRequests(page);
  await page.goto('/');
  await expect(cards(page).first()).toBeVisible({ timeout: 30_000 });
  await page
    .getByTestId('category-buttons')
    .getByRole('button', { name: 'Tennis', exact: true })
    .click();
  await expect(page.getByTestId('catalogue-heading')).toHaveText('Tennis');
  await expect(cards(page).first()).toBeVisible();
  await page
    .getByTestId('category-buttons')
    .getByRole('button', { name: texts.home.all, exact: true })
    .click();
  await expect(page.getByTestId('catalogue-heading')).toHaveText(texts.home.all);
  await expect(cards(page)).toHaveCount(PAGE_SIZE);
  await page.waitForLoadState('networkidle');
  // The early answer for All is not reused when All is chosen again: fresh data. Answered reads
  // only, in order: a read the app aborts at once (its view changed) now leaves the browser (same
  // origin, no CORS preflight to hold it back, REQ-CDN-1) and may or may not be answered first.
  const asked = requests
    .filter((r) => isProductPage(r) && r.failure() === null)
    .map((r) => new URL(r.url()).searchParams.get('p_cat'));
  const tennis = asked.indexOf('Tennis');
  expect(tennis, asked.join(', ')).toBeGreaterThan(0);
  expect(asked.slice(0, tennis), 'the early read of All').toContain(null);
  expect(asked.slice(tennis + 1), 'All asked again').toContain(null);
});

/** Holds back the app's own code (app/start.tsx's chunk) until `release` is called. */
async function holdAppCode(page: Page) {
  const start = await startChunk(page);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${start}`, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('on /, the HTML draws the first cards before the app has loaded, and the app takes them over', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  const release = await holdAppCode(page);
  await page.goto('/');
  // Drawn while the app's code is still held back: by the HTML's own script.
  await expect(cards(page)).toHaveCount(PAGE_SIZE, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: texts.storefront.loadMore })).toHaveCount(0);
  const title = await cards(page).getByTestId('product-title').first().textContent();
  await page.evaluate(() => {
    (window as unknown as { drawnCard: Element | null }).drawnCard = document.querySelector(
      '[data-testid="product-card"]',
    );
  });
  release();
  // The app runs (Load more appears only then) and hydrates the drawn cards as they are.
  await expect(page.getByRole('button', { name: texts.storefront.loadMore })).toBeVisible();
  const same = await page.evaluate(() =>
    document.contains((window as unknown as { drawnCard: Element }).drawnCard),
  );
  expect(same, 'the drawn card is still the one on the page').toBe(true);
  await expect(cards(page).getByTestId('product-title').first()).toHaveText(title!);
  await expect(cards(page)).toHaveCount(PAGE_SIZE);
  expect(problems, 'no hydration mismatch or other error').toEqual([]);
});

test('a Buy Now click on a drawn card before the app has started is counted once it starts', async ({
  page,
}) => {
  const release = await holdAppCode(page);
  const counts: Request[] = [];
  page.on('request', (r) => r.url().includes('/rpc/count_buy_now_click') && counts.push(r));
  const firstPage = page.waitForResponse((r) => isProductPage(r.request()));
  await page.goto('/');
  const rows = (await (await firstPage).json()) as { id: string }[];
  const card = cards(page).first();
  await expect(card).toBeVisible({ timeout: 30_000 });
  const popup = page.waitForEvent('popup');
  await card.getByRole('link', { name: new RegExp(texts.home.buyNow) }).click();
  // The seller opens at once, as always; the count waits for the app.
  await (await popup).close();
  expect(counts).toHaveLength(0);
  release();
  await expect.poll(() => counts.length).toBe(1);
  const sent = counts[0]!.postDataJSON() as { p_product_id: string };
  expect(sent.p_product_id).toBe(rows[0]!.id);
  // Once: the app does not count it again.
  await page.waitForLoadState('networkidle');
  expect(counts).toHaveLength(1);
});
