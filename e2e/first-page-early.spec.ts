// Issue 17, point 5: the home page's first page of products is requested by the HTML itself
// (scripts/vite-first-page.ts), before the app's JavaScript is fetched, and the app uses that
// answer instead of asking again.
import type { Page, Request } from '@playwright/test';
import { PAGE_SIZE } from '../src/features/storefront/paging.ts';
import { texts } from '../src/texts.ts';
import { cards } from './support/catalogue.ts';
import { expect, test } from './support/fixtures.ts';

const isProductPage = (r: Request) =>
  new URL(r.url()).pathname.endsWith('/rest/v1/rpc/storefront_page') && r.method() !== 'OPTIONS';

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
  // The early answer for All is not reused when All is chosen again: fresh data.
  expect(requests.filter(isProductPage)).toHaveLength(3);
});
