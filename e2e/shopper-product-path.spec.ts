// The shopper's path through a product page (REQ-PATH-1), one money format and dark mode's tones
// (REQ-PATH-6), and HTTP 404 for unknown paths (REQ-PATH-8), in a real browser against the built
// app and the throwaway stack, at a phone and a desktop width, axe clean in light and dark.
import { expectAxeClean } from './support/axe.ts';
import type { Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { texts } from '../src/texts.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { expect, test } from './support/fixtures.ts';
import { uniqueName } from '../tests/support/names.ts';

const CAT = uniqueName('Path');
/** A word every listed product's title has, so the listing can be a search too. */
const WORD = `Trek${Date.now().toString(36)}`;
const SELLER = 'https://seller.example.co.uk/boot';
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };
/** Twelve products with numbered titles and prices: a listing long enough to scroll. */
const TITLES = Array.from(
  { length: 12 },
  (_, i) => `${WORD} Boot ${String(i + 1).padStart(2, '0')}`,
);
const MAIN = TITLES[0]!;
/** Typed without pence or a thousands comma; shown as £1,249.00 (REQ-PATH-6). */
const TYPED_PRICE = '1249';

test.beforeAll(async ({ serviceDb }) => {
  await createCategory(serviceDb, CAT);
  await insertProducts(
    serviceDb,
    TITLES.map((title, i) => ({
      title,
      cat: CAT,
      price: i === 0 ? TYPED_PRICE : `£${5 + i}`,
      com: `A walking boot, size ${i + 3}.`,
      image: '/products/football-boots.svg',
      link: SELLER,
    })),
  );
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, CAT);
});

async function slugOf(db: SupabaseClient, title: string): Promise<string> {
  const { data, error } = await db.from('products').select('slug').eq('title', title);
  if (error || data.length !== 1) throw new Error(`slug of ${title}: ${error?.message}`);
  return (data[0] as { slug: string }).slug;
}

async function openProduct(page: Page, db: SupabaseClient, title = MAIN) {
  await page.goto(`/p/${await slugOf(db, title)}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

const trail = (page: Page) => page.getByRole('navigation', { name: texts.productPage.breadcrumb });

test('REQ-PATH-1: the breadcrumb is Home › Catagory › Product, the catagory a link to its listing', async ({
  page,
  serviceDb,
}) => {
  await page.setViewportSize(DESKTOP);
  await openProduct(page, serviceDb);
  const items = trail(page).getByRole('listitem');
  await expect(items).toHaveText([texts.nav.home, CAT, MAIN]);
  await expect(trail(page).getByRole('link', { name: texts.nav.home })).toHaveAttribute(
    'href',
    '/',
  );
  await expect(items.last()).toHaveAttribute('aria-current', 'page');
  await trail(page).getByRole('link', { name: CAT }).click();
  await expect(page).toHaveURL(`/?cat=${encodeURIComponent(CAT).replace(/%20/g, '+')}`);
  await expect(page.getByTestId('catalogue-heading')).toHaveText(CAT);

  // A crawler reads the same trail without JavaScript.
  const html = await (await page.request.get(`/p/${await slugOf(serviceDb, MAIN)}`)).text();
  expect(html).toContain(`aria-label="${texts.productPage.breadcrumb}"`);
  expect(html).toContain(`<li aria-current="page">${MAIN}</li>`);
});

test('REQ-PATH-1: Back returns to the listing the shopper came from, its search, sort and scroll position', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const listing = `/?q=${WORD}&cat=${encodeURIComponent(CAT)}&sort=price-desc`;
  await page.goto(listing);
  await expect(page.getByTestId('product-card')).toHaveCount(TITLES.length);
  // Far down the list: the cheapest products come last in price-desc order.
  const far = page.getByTestId('product-card').nth(9);
  const farTitle = (await far.getByTestId('product-title').textContent())!;
  await far.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 40));
  const scrolled = await page.evaluate(() => Math.round(window.scrollY));
  expect(scrolled).toBeGreaterThan(800);
  await far.getByTestId('product-title').getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: farTitle })).toBeVisible();
  // The product page opens at its top, not at the listing's scroll position.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await page.getByTestId('back-to-listing').click();
  await expect(page).toHaveURL(listing.replace(/ /g, '+'));
  await expect(page.getByTestId('catalogue-heading')).toHaveText(CAT);
  await expect(page.getByRole('searchbox')).toHaveValue(WORD);
  await expect
    .poll(() => page.evaluate(() => Math.round(window.scrollY)))
    .toBeGreaterThan(scrolled - 10);
  expect(await page.evaluate(() => Math.round(window.scrollY))).toBeLessThan(scrolled + 10);
  await expect(page.getByRole('heading', { name: farTitle })).toBeInViewport();
});

test('REQ-PATH-1: a product page reached from elsewhere goes Back to its catagory', async ({
  page,
  serviceDb,
}) => {
  await page.setViewportSize(PHONE);
  await openProduct(page, serviceDb, TITLES[3]);
  await expect(page.getByTestId('back-to-listing')).toHaveAttribute(
    'href',
    `/?cat=${encodeURIComponent(CAT).replace(/%20/g, '+')}`,
  );
  await expect(page.getByTestId('back-to-listing')).toHaveText(texts.productPage.back);
});

test('REQ-PATH-1: a few related products from the same catagory, each opening its page', async ({
  page,
  serviceDb,
}) => {
  await page.setViewportSize(DESKTOP);
  await openProduct(page, serviceDb);
  const related = page.getByRole('region', { name: texts.productPage.related(CAT) });
  await expect(related.getByTestId('related-product')).toHaveCount(4);
  // Never the product itself; all of its catagory (the other titles are this test's).
  const titles = await related.getByRole('link').allTextContents();
  expect(titles).not.toContain(MAIN);
  for (const title of titles) expect(TITLES).toContain(title);
  await related.getByRole('link', { name: titles[0]! }).click();
  await expect(page.getByRole('heading', { level: 1, name: titles[0]! })).toBeVisible();
  await expect(trail(page).getByRole('listitem').last()).toHaveText(titles[0]!);
});

test("REQ-PATH-1: Buy Now shows by an icon and in words that it opens the seller's site in a new tab", async ({
  page,
  serviceDb,
}) => {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await openProduct(page, serviceDb);
    const buy = page.getByRole('link', { name: new RegExp(`^${texts.home.buyNow}`) }).first();
    await expect(buy).toHaveAttribute('target', '_blank');
    await expect(buy).toHaveAccessibleName(new RegExp(texts.storefront.opensInNewTab.slice(1, -1)));
    // The spec's text stays what the button says.
    await expect(buy).toContainText(texts.home.buyNow);
    const icon = buy.getByTestId('new-tab-icon');
    await expect(icon).toBeVisible();
    await expect(icon).toHaveAttribute('aria-hidden', 'true');
  }
});

test('REQ-PATH-6: prices are shown in one money format; the stored text stays as typed', async ({
  page,
  serviceDb,
}) => {
  await page.setViewportSize(DESKTOP);
  await openProduct(page, serviceDb);
  await expect(page.getByTestId('product-price')).toHaveText('£1,249.00');
  await page.goto(`/?cat=${encodeURIComponent(CAT)}&sort=price-desc`);
  const cards = page.getByTestId('product-card');
  await expect(cards.first().getByTestId('product-price')).toHaveText('£1,249.00');
  // "£5"-style prices get their pence too.
  await expect(cards.last().getByTestId('product-price')).toHaveText('£6.00');
  const { data } = await serviceDb.from('products').select('price').eq('title', MAIN).single();
  expect((data as { price: string }).price).toBe(TYPED_PRICE);
});

test('REQ-PATH-6: in dark mode headings are white and product pictures are toned down', async ({
  page,
  serviceDb,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: 'dark' });
  await openProduct(page, serviceDb);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('color', 'rgb(255, 255, 255)');
  await expect(page.getByRole('img', { name: MAIN })).toHaveCSS('filter', /brightness/);
  await page.goto(`/?cat=${encodeURIComponent(CAT)}`);
  await expect(page.getByTestId('catalogue-heading')).toHaveCSS('color', 'rgb(255, 255, 255)');
  await expect(page.getByTestId('product-image').first()).toHaveCSS('filter', /brightness/);

  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.getByTestId('product-image').first()).toHaveCSS('filter', 'none');
});

test('REQ-PATH-6: in dark mode the banner’s illustrations are toned down, in light mode not', async ({
  page,
}) => {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    const pictures = page.getByTestId('banner-slide').locator('img');
    await expect(pictures.first()).toHaveCSS('filter', /brightness/);
    for (const picture of await pictures.all())
      await expect(picture).toHaveCSS('filter', /brightness\(0\.8/);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await expect(pictures.first()).toHaveCSS('filter', 'none');
  }
});

for (const size of [PHONE, DESKTOP]) {
  test(`REQ-PATH-1, REQ-PATH-6: axe on the product page at ${size.width} px, light and dark`, async ({
    page,
    serviceDb,
  }) => {
    await page.setViewportSize(size);
    await openProduct(page, serviceDb);
    await expect(page.getByTestId('related-product')).toHaveCount(4);
    await expectAxeClean(page, 'product-path', { screenshot: true });
  });
}

test('REQ-PATH-8: unknown paths answer 404; the app’s own routes answer 200', async ({
  page,
  request,
  serviceDb,
}) => {
  const slug = await slugOf(serviceDb, MAIN);
  for (const [path, status] of [
    ['/', 200],
    ['/about', 200],
    ['/contact', 200],
    ['/policy', 200],
    ['/how-we-earn', 200],
    ['/login', 200],
    ['/login/', 200],
    ['/admin', 200],
    ['/forgot-password', 200],
    ['/reset-password', 200],
    [`/p/${slug}`, 200],
    ['/no-such-page', 404],
    ['/about/more', 404],
    ['/p', 404],
    ['/p/no-such-product-anywhere', 404],
  ] as const) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(status);
    expect(response.headers()['content-type'], path).toMatch(/^text\/html/);
  }
  const html = await (await request.get('/no-such-page')).text();
  expect(html).toContain(`<title>${texts.notFound.title} | ${texts.brand.title}</title>`);
  expect(html).toContain('<meta name="robots" content="noindex" />');

  // The visitor sees the app's not-found page, which leads home.
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: texts.notFound.title })).toBeVisible();
  await page.getByRole('link', { name: texts.notFound.goBack }).click();
  await expect(page).toHaveURL('/');
  // The app's routes still start in the browser from their shell.
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: texts.login.heading })).toBeVisible();
});
