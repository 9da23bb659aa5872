// A product sold by three sellers, one of whose prices is stale (REQ-OFF-2, REQ-OFF-3, REQ-OFF-4),
// in a real browser on the real local stack, at a phone and a desktop width, light and dark: the
// card shows the lowest CURRENT price as "from £X" and the number of current sellers; the product
// page lists every offer cheapest current first with the stale one last and noted, each with its
// own Buy Now (marked as an ad, rel="sponsored") that opens that seller's link in a new tab and
// names that offer to the click count; the price history and the price-drop feed link come once
// the page is idle; axe finds nothing. Seeded through the service role.
import { expectAxeClean } from './support/axe.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { texts } from '../src/offerTexts.ts';
import { randomLoopbackIp } from '../tests/support/loopback.ts';
import { uniqueName } from '../tests/support/names.ts';
import { cards, createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { expect, test } from './support/fixtures.ts';

const WIDTHS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
const DAY = 86_400_000;

const category = uniqueName('Offers Cat');
const title = uniqueName('Offers Racket');
/** The three sellers, each a small web server on a loopback address of its own. */
const sellers = {
  primary: { name: uniqueName('Court Supplies'), url: '', id: '', offer: '' },
  cheaper: { name: uniqueName('Racket World'), url: '', id: '', offer: '' },
  stale: { name: uniqueName('Old Prices'), url: '', id: '', offer: '' },
};
const servers: http.Server[] = [];
let productId = '';
let slug = '';

async function sellerSite(): Promise<string> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Seller</title><h1>Seller page ${req.url}</h1>`);
  });
  const ip = randomLoopbackIp();
  await new Promise<void>((resolve) => server.listen(0, ip, resolve));
  servers.push(server);
  return `http://${ip}:${(server.address() as AddressInfo).port}`;
}

test.beforeAll(async ({ serviceDb }) => {
  const [primarySite, cheaperSite, staleSite] = await Promise.all([
    sellerSite(),
    sellerSite(),
    sellerSite(),
  ]);
  sellers.primary.url = `${primarySite}/racket`;
  await createCategory(serviceDb, category);
  // The product's own link and price are its primary offer (the database keeps it).
  await insertProducts(serviceDb, [
    {
      title,
      cat: category,
      price: '£45.00',
      com: 'A light racket for club players.',
      image: '/products/tennis-racket.svg',
      link: sellers.primary.url,
    },
  ]);
  const product = await serviceDb.from('products').select('id, slug').eq('title', title).single();
  if (product.error) throw new Error(product.error.message);
  ({ id: productId, slug } = product.data as { id: string; slug: string });
  const primary = await serviceDb
    .from('offers')
    .select('id, seller_id')
    .eq('product_id', productId)
    .single();
  if (primary.error) throw new Error(primary.error.message);
  sellers.primary.offer = primary.data.id as string;
  sellers.primary.id = primary.data.seller_id as string;
  // The seller the link added is named by its address: give it a shop's name.
  const renamed = await serviceDb
    .from('sellers')
    .update({ name: sellers.primary.name })
    .eq('id', sellers.primary.id);
  if (renamed.error) throw new Error(renamed.error.message);

  for (const [key, site, extra] of [
    ['cheaper', cheaperSite, { affiliate_param: 'tag', affiliate_value: 'mar-store' }],
    ['stale', staleSite, {}],
  ] as const) {
    const seller = await serviceDb
      .from('sellers')
      .insert({ name: sellers[key].name, site, ...extra })
      .select('id')
      .single();
    if (seller.error) throw new Error(seller.error.message);
    sellers[key].id = seller.data.id as string;
    sellers[key].url = `${site}/item`;
  }
  // The cheaper seller is current; the cheapest is stale (confirmed 10 days ago, limit 7).
  const offers = await serviceDb
    .from('offers')
    .insert([
      {
        product_id: productId,
        seller_id: sellers.cheaper.id,
        link: sellers.cheaper.url,
        price_gbp: 41,
        delivery_gbp: 0,
        availability: 'in_stock',
      },
      {
        product_id: productId,
        seller_id: sellers.stale.id,
        link: sellers.stale.url,
        price_gbp: 35,
        delivery_gbp: 3.99,
        price_confirmed_at: new Date(Date.now() - 10 * DAY).toISOString(),
      },
    ])
    .select('id, seller_id');
  if (offers.error) throw new Error(offers.error.message);
  for (const row of offers.data as { id: string; seller_id: string }[])
    (row.seller_id === sellers.cheaper.id ? sellers.cheaper : sellers.stale).offer = row.id;
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
  await serviceDb
    .from('sellers')
    .delete()
    .in(
      'id',
      Object.values(sellers).map((s) => s.id),
    );
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The body the page sent to count_buy_now_click for the next click. */
function nextCount(page: Page) {
  return page.waitForRequest((r) => r.url().includes('/rpc/count_buy_now_click'));
}

// First: the database counts a product once per page view and address for 30 minutes
// (docs/buy-now-clicks.md), so this product's first click is this test's.
test("each offer's Buy Now opens that seller's link in a new tab and names its offer to the count", async ({
  page,
  serviceDb,
}) => {
  // Three seller tabs opened and closed in turn: more than the default on a busy machine.
  test.setTimeout(90_000);
  await page.goto(`/p/${slug}`);
  // The app's page: the host's HTML lists the same offers until the app starts, and its links
  // open the seller without counting.
  const offers = page.getByTestId('product-page').getByTestId('offer');
  await expect(offers).toHaveCount(3, { timeout: 20_000 });
  const expected = [
    // The store's affiliate tag is on the cheaper seller's link (REQ-OFF-2).
    { seller: sellers.cheaper, url: `${sellers.cheaper.url}?tag=mar-store` },
    { seller: sellers.primary, url: sellers.primary.url },
    { seller: sellers.stale, url: sellers.stale.url },
  ];
  const answers: string[] = [];
  for (const [i, { seller, url }] of expected.entries()) {
    const buy = offers.nth(i).getByRole('link', { name: /Buy Now/ });
    await expect(buy).toHaveAttribute('href', url);
    const counted = page.waitForResponse((r) => r.url().includes('/rpc/count_buy_now_click'));
    const [tab] = await Promise.all([page.context().waitForEvent('page'), buy.click()]);
    await expect(tab).toHaveURL(url);
    await tab.close();
    const answer = await counted;
    expect(answer.request().postDataJSON()).toMatchObject({
      p_product_id: productId,
      p_page: `/p/${slug}`,
      p_offer_id: seller.offer,
    });
    answers.push((await answer.json()) as string);
  }
  // The first click counts, for its offer; the others name theirs and are repeats.
  expect(answers[0]).toBe('counted');
  const byOffer = await serviceDb
    .from('buy_now_clicks_by_offer')
    .select('offer_id, clicks')
    .in(
      'offer_id',
      Object.values(sellers).map((s) => s.offer),
    );
  expect(byOffer.error).toBeNull();
  expect(byOffer.data).toEqual([{ offer_id: sellers.cheaper.offer, clicks: 1 }]);
});

for (const size of WIDTHS) {
  test.describe(`${size.name} (${size.width} px)`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('the card shows "from £X" and the current sellers; its Buy Now opens the primary offer', async ({
      page,
    }) => {
      await page.goto(`/?cat=${encodeURIComponent(category)}`);
      const card = cards(page).filter({ hasText: title });
      // The stale £35.00 is neither the "from" price nor one of the sellers counted.
      await expect(card.getByTestId('product-price')).toHaveText('from £41.00', {
        timeout: 20_000,
      });
      await expect(card.getByTestId('product-price-note')).toHaveText('2 sellers');
      await expect(card.getByTestId('ad-label')).toHaveText(`Ad${sellers.primary.name}`);
      const buy = card.getByRole('link', { name: /Buy Now/ });
      await expect(buy).toHaveAttribute('rel', 'sponsored noopener noreferrer');
      await expect(buy).toHaveAttribute('href', sellers.primary.url);
      const counted = nextCount(page);
      const [tab] = await Promise.all([page.context().waitForEvent('page'), buy.click()]);
      await expect(tab).toHaveURL(sellers.primary.url);
      expect((await counted).postDataJSON()).toMatchObject({
        p_product_id: productId,
        p_offer_id: sellers.primary.offer,
      });
      await tab.close();
      await expectAxeClean(page, 'home');
    });

    test('the product page lists every offer, cheapest current first, the stale one last and noted', async ({
      page,
    }) => {
      // The offers and the price history come in the page's HTML: the app does not read them
      // again (REQ-CDN-11, REQ-CDN-13).
      const offerReads: string[] = [];
      page.on(
        'request',
        (r) => /rpc\/product_(offers|price_history)/.test(r.url()) && offerReads.push(r.url()),
      );
      await page.goto(`/p/${slug}`);
      const offers = page.getByTestId('offer');
      await expect(offers).toHaveCount(3, { timeout: 20_000 });
      await expect(page.getByTestId('offer-seller')).toHaveText([
        sellers.cheaper.name,
        sellers.primary.name,
        sellers.stale.name,
      ]);
      await expect(page.getByTestId('offer-price')).toHaveText(['£41.00', '£45.00', '£35.00']);
      await expect(page.getByTestId('product-price')).toHaveText('from £41.00');
      await expect(page.getByTestId('product-price-note')).toHaveText('2 sellers');
      await expect(offers.nth(0).getByTestId('offer-facts')).toHaveText(
        /^Free delivery · In stock · price checked (just now|\d+ minutes? ago)$/,
      );
      await expect(offers.nth(1).getByTestId('offer-note')).toHaveCount(0);
      await expect(offers.nth(2).getByTestId('offer-note')).toHaveText(texts.offers.stale);
      await expect(offers.nth(2).getByTestId('offer-facts')).toHaveText(
        '+ £3.99 delivery · price checked 10 days ago',
      );
      for (const [i, seller] of [sellers.cheaper, sellers.primary, sellers.stale].entries()) {
        const buy = offers.nth(i).getByRole('link', { name: /Buy Now/ });
        await expect(buy).toHaveAttribute('rel', 'sponsored noopener noreferrer');
        await expect(buy).toHaveAttribute('target', '_blank');
        await expect(offers.nth(i).getByTestId('ad-label')).toHaveText(`Ad${seller.name}`);
      }

      // The price history and the feed link, once the page is idle (REQ-OFF-4, REQ-OFF-5).
      const chart = page.getByRole('img', { name: /^Lowest price each day over the last 90 days/ });
      await expect(chart).toBeVisible();
      await expect(page.getByTestId('price-history-summary')).toHaveText(
        /^Lowest in 90 days: £\d+\.\d\d on \d{1,2} [A-Z][a-z]{2}$/,
      );
      const feed = page.getByRole('link', { name: new RegExp(texts.priceHistory.follow) });
      await expect(feed).toHaveAttribute('href', `/p/${slug}/prices.atom`);
      expect(offerReads).toEqual([]);

      // Search engines get every current offer (not the stale one) as an AggregateOffer.
      const jsonLd = JSON.parse(
        (await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}',
      ) as { offers: Record<string, unknown> };
      expect(jsonLd.offers).toMatchObject({
        '@type': 'AggregateOffer',
        lowPrice: '41',
        highPrice: '45',
        offerCount: 2,
        priceCurrency: 'GBP',
      });

      await expectAxeClean(page, 'product page');
    });
  });
}
