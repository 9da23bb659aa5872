// A page per product (REQ-FIND-3 to REQ-FIND-6) in a real browser against the built app and the
// stack: card -> product page, its head (JSON-LD, canonical, Open Graph), an old slug's redirect,
// an unknown slug's 404 page, the HTML a crawler gets without JavaScript, and axe at a phone and a
// desktop width in both colour schemes.
import { expectAxeClean } from './support/axe.ts';
import type { Page } from '@playwright/test';
import { texts } from '../src/texts.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { expect, test } from './support/fixtures.ts';
import { uniqueName } from '../tests/support/names.ts';

const CAT = uniqueName('Pages');
const TITLE = uniqueName('Crème Page Racket');
const RENAMED = uniqueName('Renamed Page Racket');
const COMMENT = 'A light racket for club players.\nStrung at 24 kg, with a cover.';
const SELLER = 'https://seller.example.co.uk/racket';

async function slugOf(serviceDb: import('@supabase/supabase-js').SupabaseClient, title: string) {
  const { data, error } = await serviceDb.from('products').select('slug').eq('title', title);
  if (error || data.length !== 1) throw new Error(`slug of ${title}: ${error?.message}`);
  return (data[0] as { slug: string }).slug;
}

async function jsonLd(page: Page): Promise<Record<string, unknown>> {
  const text = await page.locator('head script[type="application/ld+json"]').textContent();
  return JSON.parse(text ?? '') as Record<string, unknown>;
}

test.beforeAll(async ({ serviceDb }) => {
  await createCategory(serviceDb, CAT);
  await insertProducts(serviceDb, [
    {
      title: TITLE,
      cat: CAT,
      price: '£49.99',
      com: COMMENT,
      image: '/products/tennis-racket.svg',
      link: SELLER,
    },
    {
      title: RENAMED.replace('Renamed', 'Before'),
      cat: CAT,
      price: 'Ask the seller',
      com: 'No number in this price.',
      image: '/products/tennis-racket.svg',
      link: SELLER,
    },
  ]);
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, CAT);
});

test('a card leads to the product page: content, JSON-LD, canonical and Open Graph', async ({
  page,
  serviceDb,
}) => {
  const slug = await slugOf(serviceDb, TITLE);
  expect(slug).toMatch(/^creme-page-racket-[a-z0-9]+$/);
  await page.goto(`/?cat=${encodeURIComponent(CAT)}`);
  const card = page.getByTestId('product-card').filter({ hasText: TITLE });
  // Buy Now on the card still goes straight to the seller.
  await expect(card.getByRole('link', { name: new RegExp(texts.home.buyNow) })).toHaveAttribute(
    'href',
    SELLER,
  );
  await card.getByRole('heading', { name: TITLE }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}$`));

  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByTestId('product-price')).toHaveText('£49.99');
  await expect(page.getByTestId('product-category')).toContainText(CAT);
  await expect(page.getByTestId('product-comment')).toHaveText(COMMENT);
  const buy = page.getByRole('link', { name: new RegExp(texts.home.buyNow) });
  await expect(buy).toHaveAttribute('href', SELLER);
  await expect(buy).toHaveAttribute('target', '_blank');
  await expect(buy).toHaveAttribute('rel', 'sponsored noopener noreferrer');

  const url = new URL(`/p/${slug}`, page.url()).href;
  await expect(page).toHaveTitle(`${TITLE} | ${texts.brand.title}`);
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', url);
  await expect(page.locator('head meta[property="og:type"]')).toHaveAttribute('content', 'product');
  await expect(page.locator('head meta[property="og:url"]')).toHaveAttribute('content', url);
  await expect(page.locator('head meta[property="og:image"]')).toHaveAttribute(
    'content',
    new URL('/products/tennis-racket.svg', page.url()).href,
  );
  await expect(page.locator('head meta[name="description"]')).toHaveAttribute(
    'content',
    /^£49\.99 · A light racket/,
  );
  expect(await jsonLd(page)).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: TITLE,
    category: CAT,
    offers: { '@type': 'Offer', price: '49.99', priceCurrency: 'GBP', url: SELLER },
  });

  // Leaving the page takes its canonical link and JSON-LD along.
  await page.getByRole('link', { name: texts.productPage.back }).click();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('head link[rel="canonical"]')).toHaveCount(0);
  await expect(page.locator('head script[type="application/ld+json"]')).toHaveCount(0);
  await expect(page.locator('head meta[property="og:type"]')).toHaveAttribute('content', 'website');
});

test('a price without a number has no Offer; an old slug goes on to the new one', async ({
  page,
  request,
  serviceDb,
}) => {
  const before = RENAMED.replace('Renamed', 'Before');
  const oldSlug = await slugOf(serviceDb, before);
  await page.goto(`/p/${oldSlug}`);
  await expect(page.getByRole('heading', { level: 1, name: before })).toBeVisible();
  expect(await jsonLd(page)).not.toHaveProperty('offers');

  // A list loaded before the rename still links the old slug: following it in the app replaces
  // the address with the new slug (client-side, so Back does not return to the old one).
  await page.goto(`/?cat=${encodeURIComponent(CAT)}`);
  const oldLink = page.getByRole('heading', { name: before }).getByRole('link');
  await expect(oldLink).toHaveAttribute('href', `/p/${oldSlug}`);
  const { error } = await serviceDb.from('products').update({ title: RENAMED }).eq('title', before);
  expect(error).toBeNull();
  const newSlug = await slugOf(serviceDb, RENAMED);
  expect(newSlug).not.toBe(oldSlug);
  await oldLink.click();
  await expect(page).toHaveURL(new RegExp(`/p/${newSlug}$`));
  await expect(page.getByRole('heading', { level: 1, name: RENAMED })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/\?cat=/);

  // A full load of the old address: the server answers 301 to the new one.
  const moved = await request.get(`/p/${oldSlug}`, { maxRedirects: 0 });
  expect(moved.status()).toBe(301);
  expect(moved.headers().location).toBe(`/p/${newSlug}`);
  await page.goto(`/p/${oldSlug}`);
  await expect(page).toHaveURL(new RegExp(`/p/${newSlug}$`));
  await expect(page.getByRole('heading', { level: 1, name: RENAMED })).toBeVisible();
});

test('an unknown slug shows the 404 page', async ({ page, request }) => {
  const response = await request.get('/p/no-such-product-anywhere');
  expect(response.status()).toBe(404);
  await page.goto('/p/no-such-product-anywhere');
  await expect(page.getByRole('heading', { level: 1, name: texts.notFound.title })).toBeVisible();
  await expect(page.getByRole('link', { name: texts.notFound.goBack })).toBeVisible();
  await expect(page).toHaveTitle(`${texts.notFound.title} | ${texts.brand.title}`);
});

test('without JavaScript the page has the content, canonical and JSON-LD', async ({
  browser,
  request,
  serviceDb,
  baseURL,
}) => {
  const slug = await slugOf(serviceDb, TITLE);
  const response = await request.get(`/p/${slug}`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain(`<title>${TITLE} | ${texts.brand.title}</title>`);
  expect(html).toContain('£49.99');
  expect(html).toContain('A light racket for club players.');
  expect(html).toContain(`<link rel="canonical" href="${baseURL}/p/${slug}" />`);
  expect(html).toContain('"@type":"Product"');

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${baseURL}/p/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByText('£49.99')).toBeVisible();
  await expect(page.getByRole('link', { name: texts.home.buyNow })).toHaveAttribute('href', SELLER);
  await context.close();
});

test('sitemap.xml lists the product page; robots.txt points at it', async ({
  request,
  serviceDb,
  baseURL,
}) => {
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  const index = await (await request.get('/sitemap.xml')).text();
  const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  const locs: string[] = [];
  for (const file of files) {
    const xml = await (await request.get(new URL(file).pathname)).text();
    locs.push(...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
  }
  expect(locs).toContain(`${baseURL}/p/${await slugOf(serviceDb, TITLE)}`);
  expect(locs).toContain(`${baseURL}/contact`);
});

for (const size of [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
]) {
  test(`axe: the product page at ${size.width} px, light and dark`, async ({ page, serviceDb }) => {
    await page.setViewportSize(size);
    await page.goto(`/p/${await slugOf(serviceDb, TITLE)}`);
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
    await expectAxeClean(page, 'product-page', { screenshot: true });
  });
}

// The host's function sends the security headers itself (hosts apply `_headers` to static files
// only); `vite preview` serves the function's paths as the function does, without its own
// header middleware, so these are the function's headers.
test('the pages the function serves carry the full security header set', async ({
  page,
  request,
  serviceDb,
}) => {
  const slug = await slugOf(serviceDb, TITLE);
  for (const [path, status] of [
    [`/p/${slug}`, 200],
    ['/p/no-such-product-anywhere', 404],
    ['/p/%E0%A4%A', 404],
    ['/sitemap.xml', 200],
    ['/sitemap-pages.xml', 200],
    ['/robots.txt', 200],
  ] as const) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(status);
    const h = response.headers();
    expect(h['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(h['content-security-policy'], path).not.toContain('__');
    expect(h['x-frame-options'], path).toBe('DENY');
    expect(h['x-content-type-options'], path).toBe('nosniff');
    expect(h['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(h['permissions-policy'], path).toContain('camera=()');
  }
  // The page runs under that policy: its inline script is allowed, nothing is refused.
  const refused: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
  });
  await page.goto(`/p/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', /light|dark/);
  expect(refused).toEqual([]);
});
