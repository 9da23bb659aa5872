// The affiliate disclosure (docs/decisions/0210), in a real browser at a phone and a desktop
// width: every Buy Now is marked "Ad" with the seller's site, the line that explains it is on the
// first screen above the first Buy Now (home and product page), every seller link is
// rel="sponsored noopener noreferrer" with JavaScript and without (home, a category, a search, a
// product page), the page that explains it passes axe, and a Buy Now on the product page is
// counted like a card's (the page counted as /p/<slug>).
import { expectAxeClean } from './support/axe.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { texts as adminTexts } from '../src/adminTexts.ts';
import { texts } from '../src/texts.ts';
import { texts as pageTexts } from '../src/pageTexts.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';
import { keepScreenshot } from './support/screenshot.ts';

const WIDTHS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
const LINE = `${texts.disclosure.label}: ${texts.disclosure.line} ${texts.disclosure.more}`;

let seller: http.Server;
let sellerUrl = '';
const category = uniqueName('Ad Cat');
const title = uniqueName('Ad Racket');
let slug = '';

test.beforeAll(async ({ serviceDb }) => {
  seller = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Seller page</title><h1>Seller page</h1>');
  });
  await new Promise<void>((resolve) => seller.listen(0, '127.0.0.1', resolve));
  sellerUrl = `http://127.0.0.1:${(seller.address() as AddressInfo).port}/racket`;
  await createCategory(serviceDb, category);
  await insertProducts(serviceDb, [
    {
      title,
      cat: category,
      price: '£42.00',
      com: 'A light racket for club players.',
      image: '/products/tennis-racket.svg',
      link: sellerUrl,
    },
  ]);
  const { data } = await serviceDb.from('products').select('slug').eq('title', title).single();
  slug = (data as { slug: string }).slug;
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
  await new Promise((resolve) => seller.close(resolve));
});

/** The element's box, asserted to lie wholly on the first screen (no scrolling). */
async function onFirstScreen(locator: Locator, page: Page, what: string) {
  await expect(locator, what).toBeVisible();
  const box = (await locator.boundingBox())!;
  const { height } = page.viewportSize()!;
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled, 'the page has not scrolled').toBe(0);
  expect(box.y, `${what} starts on the first screen`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${what} ends on the first screen`).toBeLessThanOrEqual(height);
  return box;
}

/**
 * The disclosure line, with its "Ad" label, is on the first screen, above the first Buy Now; the
 * first Buy Now's own Ad label comes right before it, on screen whenever the Buy Now is (on the
 * first screen too with `buyOnFirstScreen`).
 */
async function disclosedBeforeFirstBuyNow(page: Page, buyOnFirstScreen: boolean) {
  const line = page.getByTestId('ad-disclosure').first();
  await expect(line).toHaveText(LINE);
  await expect(line.getByRole('link', { name: texts.disclosure.more })).toHaveAttribute(
    'href',
    '/how-we-earn',
  );
  const buy = page.getByRole('link', { name: new RegExp(texts.home.buyNow) }).first();
  await expect(buy).toBeVisible();
  const label = page.getByTestId('ad-label').first();
  const lineBox = await onFirstScreen(line, page, 'the disclosure line');
  await onFirstScreen(
    line.getByText(`${texts.disclosure.label}:`, { exact: true }),
    page,
    "the line's Ad label",
  );
  if (buyOnFirstScreen) {
    await onFirstScreen(label, page, "the first Buy Now's Ad label");
    await onFirstScreen(buy, page, 'the first Buy Now');
  } else {
    // As a shopper scrolls to it: the Buy Now and its label come into view together.
    await buy.scrollIntoViewIfNeeded();
    await expect(label).toBeInViewport({ ratio: 1 });
  }
  const buyBox = (await buy.boundingBox())!;
  const labelBox = (await label.boundingBox())!;
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(lineBox.y + lineBox.height, 'the line is above the first Buy Now').toBeLessThanOrEqual(
    buyBox.y + scrolled,
  );
  expect(labelBox.y + labelBox.height, 'the label is right above its Buy Now').toBeLessThanOrEqual(
    buyBox.y + 1,
  );
  expect(buyBox.y - labelBox.y, 'the label is right above its Buy Now').toBeLessThan(40);
  await page.evaluate(() => window.scrollTo(0, 0));
  // The label names where the link goes: its site without "www.".
  const href = (await buy.getAttribute('href'))!;
  const site = new URL(href).hostname.replace(/^www\./, '');
  await expect(label).toHaveText(`${texts.disclosure.label}${site}`);
  await expect(buy).toHaveAccessibleName(
    `${texts.home.buyNow} ${texts.storefront.buyNowHint(site)}`,
  );
}

/** axe on part of the page, light and dark. */
function axe(page: Page, include: string) {
  return expectAxeClean(page, 'disclosure', { include, reducedMotion: true });
}

/** The first screen, and the first row of cards where there are some, light and dark. */
async function screenshot(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    await page.evaluate(() => window.scrollTo(0, 0));
    await keepScreenshot(page, `${name}-${colorScheme}.png`);
    const card = page.getByTestId('product-card').first();
    if (await card.count()) {
      await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await keepScreenshot(page, `${name}-cards-${colorScheme}.png`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

for (const { name, width, height } of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('home: the Ad line and label are on the first screen, before the first Buy Now', async ({
      page,
    }) => {
      await page.goto('/');
      await expect(page.getByTestId('product-card').first()).toBeVisible({ timeout: 30_000 });
      // The banner comes first (spec): the first card starts near the fold.
      await disclosedBeforeFirstBuyNow(page, false);
      await axe(page, '[data-testid="ad-disclosure"], [data-testid="product-card"]');
      await screenshot(page, `home-${name}`);
    });

    test('product page: the Ad line and label are on the first screen, before Buy Now', async ({
      page,
    }) => {
      await page.goto(`/p/${slug}`);
      // The app's page (the host's HTML is shown until it starts).
      await expect(page.getByTestId('product-page')).toBeVisible({ timeout: 20_000 });
      // And its offer read: the product's own Buy Now is then the offer's (REQ-OFF-2).
      await expect(page.getByTestId('offer-facts')).toBeVisible({ timeout: 20_000 });
      await disclosedBeforeFirstBuyNow(page, true);
      await axe(page, '[data-testid="product-page"]');
      await expect(page.getByTestId('ad-label')).toHaveText(`${texts.disclosure.label}127.0.0.1`);
      await screenshot(page, `product-${name}`);
    });

    test('the page that explains it: how the store earns and sorts, axe clean', async ({
      page,
    }) => {
      await page.goto('/');
      await page.getByTestId('ad-disclosure').getByRole('link').click();
      await expect(page).toHaveURL(/\/how-we-earn$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.howWeEarn.heading);
      await expect(
        page.getByRole('heading', { level: 2, name: pageTexts.howWeEarn.sortHeading }),
      ).toBeVisible();
      await expect(page.getByText(pageTexts.howWeEarn.sort[1])).toBeVisible();
      await expectAxeClean(page, `how-we-earn-${name}`, {
        reducedMotion: true,
        screenshot: 'viewport',
      });
    });
  });
}

/** Every product's seller link, as the database holds it. */
async function sellerLinks(db: SupabaseClient): Promise<Set<string>> {
  const links = new Set<string>();
  for (let from = 0; ; from += 1000) {
    const { data, error } = await db
      .from('products')
      .select('link')
      .range(from, from + 999);
    if (error) throw new Error(error.message);
    for (const { link } of data as { link: string }[]) links.add(new URL(link).href);
    if (data.length < 1000) return links;
  }
}

/** Every link on the page that leaves the store: its address, rel, target and name. */
async function outboundLinks(page: Page) {
  return page.locator('a[href]').evaluateAll((anchors) =>
    anchors
      .map((a) => a as HTMLAnchorElement)
      .filter((a) => a.origin !== location.origin)
      .map((a) => ({ href: a.href, rel: a.rel, target: a.target, text: a.textContent ?? '' })),
  );
}

async function walk(
  browser: Browser,
  baseURL: string,
  javaScriptEnabled: boolean,
  db: SupabaseClient,
) {
  const sellers = await sellerLinks(db);
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const page = await context.newPage();
  const pages = [
    { path: '/', ready: 'product-card' },
    { path: `/?cat=${encodeURIComponent(category)}`, ready: 'product-card' },
    { path: `/?q=${encodeURIComponent('racket')}`, ready: 'product-card' },
    { path: `/p/${slug}`, ready: 'ad-label' },
  ];
  let checked = 0;
  for (const { path, ready } of pages) {
    await page.goto(path);
    // Without JavaScript only the product page's HTML (the host function's) has seller links:
    // the listings' cards are drawn by scripts. The disclosure line is in every page's HTML.
    if (javaScriptEnabled || path.startsWith('/p/'))
      await expect(page.getByTestId(ready).first(), path).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('ad-disclosure').first(), path).toBeVisible();
    const links = await outboundLinks(page);
    const toSellers = links.filter(
      (l) => sellers.has(l.href) || l.text.includes(texts.home.buyNow),
    );
    if (javaScriptEnabled || path.startsWith('/p/'))
      expect(toSellers.length, `${path}: seller links`).toBeGreaterThan(0);
    for (const link of toSellers) {
      expect(link.rel.split(/\s+/).sort(), `${path}: ${link.href}`).toEqual(
        expect.arrayContaining(['noopener', 'noreferrer', 'sponsored']),
      );
      expect(link.target, `${path}: ${link.href}`).toBe('_blank');
    }
    checked += toSellers.length;
  }
  await context.close();
  return checked;
}

test('every seller link is rel="sponsored noopener noreferrer", with JavaScript and without', async ({
  browser,
  baseURL,
  serviceDb,
}) => {
  test.setTimeout(120_000);
  expect(await walk(browser, baseURL!, true, serviceDb)).toBeGreaterThan(3);
  expect(await walk(browser, baseURL!, false, serviceDb)).toBeGreaterThan(0);
});

test('a Buy Now click on the product page is counted, as the page /p/<slug>, and shows in Insights', async ({
  page,
  stack,
  serviceDb,
}) => {
  await page.goto(`/p/${slug}?utm_source=mail&email=ann%40example.com`);
  await expect(page.getByTestId('product-page')).toBeVisible({ timeout: 20_000 });
  const buy = page.getByRole('link', { name: new RegExp(texts.home.buyNow) });
  const counted = page.waitForResponse((r) => r.url().includes('/rpc/count_buy_now_click'));
  const [tab] = await Promise.all([page.context().waitForEvent('page'), buy.click()]);
  await expect(tab).toHaveURL(sellerUrl);
  const answer = await counted;
  // Only the store's own page shape is sent: no query (decision 0200).
  expect((answer.request().postDataJSON() as { p_page: string }).p_page).toBe(`/p/${slug}`);
  expect(await answer.json()).toBe('counted');
  const { data: product } = await serviceDb
    .from('products')
    .select('id')
    .eq('title', title)
    .single();
  const byProduct = await serviceDb
    .from('buy_now_clicks_by_product')
    .select('clicks')
    .eq('product_id', (product as { id: string }).id);
  expect(byProduct.data).toEqual([{ clicks: 1 }]);
  const byPage = await serviceDb
    .from('buy_now_clicks_by_page')
    .select('page, clicks')
    .eq('category', category);
  expect(byPage.data).toEqual([{ page: `/p/${slug}`, clicks: 1 }]);

  // And the owner sees it where they look: the admin's Insights tab.
  await tab.close();
  await useSession(
    page,
    stack,
    await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password),
  );
  await page.goto('/admin');
  await page.getByRole('tab', { name: adminTexts.insights.tab }).click();
  const panel = page.getByRole('tabpanel', { name: adminTexts.insights.tab });
  await panel.getByText(adminTexts.insights.periods[7], { exact: true }).click();
  const row = panel
    .getByRole('table', { name: adminTexts.insights.topProducts })
    .getByRole('row', { name: new RegExp(title) });
  await expect(row).toContainText(category);
  await expect(row.getByRole('cell').last()).toHaveText('1');
});
