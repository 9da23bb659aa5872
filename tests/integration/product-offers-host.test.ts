// REQ-OFF-2, REQ-OFF-3: the host function's product page (netlify/functions/product-pages.ts,
// against the real local stack) lists the product's offers as public.product_offers orders them,
// for search engines and visitors without JavaScript: seller, price, the stale text, the hidden
// text, delivery, "price checked …", and every Buy Now with "Ad" and the seller's name and
// rel="sponsored noopener noreferrer" (decision 0210), as the app's ProductOffers says them.
// Several current offers give an AggregateOffer in the JSON-LD; one keeps the product's Offer.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import productPagesFunction from '../../netlify/functions/product-pages';
import { texts } from '../../src/offerTexts';
import { PRODUCT_DATA_ID } from '../../src/lib/domain/productPageData';
import { productFields } from './db-test-helpers.ts';
import { serviceClient, sql, stackEnv } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';
import { countingProxy } from '../../bench/cdn-parts.ts';

const service = serviceClient();
const CAT = uniqueId('Offers Host Cat');
const TAG = uniqueId('offers-host').toLowerCase();
const SHELL =
  '<!doctype html><html lang="en-GB"><head><meta name="description" content="x" />' +
  '<title>Shell</title></head><body><div id="root"></div></body></html>';
const savedEnv = { ...process.env };
let site: http.Server;
let origin: string;
const several = { id: '', slug: '' };
const single = { id: '', slug: '' };
const sellerIds: string[] = [];

interface OfferRow {
  offer_id: string;
  seller_name: string;
  link: string;
  freshness: string;
}

async function addSeller(name: string, host: string): Promise<string> {
  const { data, error } = await service
    .from('sellers')
    .insert({ name, site: `https://www.${host}` })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  sellerIds.push(data.id as string);
  return data.id as string;
}

async function addOffer(productId: string, sellerId: string, host: string, price: number) {
  const { data, error } = await service
    .from('offers')
    .insert({
      product_id: productId,
      seller_id: sellerId,
      link: `https://www.${host}/item`,
      price_gbp: price,
      delivery_gbp: 0,
    })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

async function page(slug: string) {
  const response = await productPagesFunction(new Request(`${origin}/p/${slug}`));
  expect(response.status).toBe(200);
  const html = await response.text();
  const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!;
  const document = new JSDOM(html).window.document;
  const data = JSON.parse(document.getElementById(PRODUCT_DATA_ID)!.textContent!) as {
    offers?: OfferRow[] | null;
    history?: Array<{ day: string; lowest_gbp: number }> | null;
  };
  return { document, jsonLd: JSON.parse(ld) as JsonLd, data };
}

interface JsonLd {
  offers?: {
    '@type': string;
    lowPrice?: string;
    highPrice?: string;
    offerCount?: number;
    price?: string;
    url?: string;
    seller?: { name: string };
    offers?: Array<{ price: string; seller: { name: string } }>;
  };
}

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url !== '/spa.html') return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(SHELL);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  process.env.VITE_SUPABASE_URL = stackEnv().API_URL;
  process.env.VITE_SUPABASE_ANON_KEY = stackEnv().ANON_KEY;
  delete process.env.VITE_SITE_URL;
  const { error } = await service.from('catagories').insert({ title: CAT });
  if (error) throw new Error(error.message);
  const inserted = await service
    .from('products')
    .insert([
      productFields(CAT, uniqueId('Offers Several'), '£50.00'),
      productFields(CAT, uniqueId('Offers Single'), '£30.00'),
    ])
    .select('id, slug');
  if (inserted.error) throw new Error(inserted.error.message);
  [several.id, several.slug] = [inserted.data[0]!.id as string, inserted.data[0]!.slug as string];
  [single.id, single.slug] = [inserted.data[1]!.id as string, inserted.data[1]!.slug as string];
  // Several: the primary (£50, current), a cheaper current one with a name to escape, one stale
  // (checked 10 days ago; the stale limit is 7) and one hidden (40 days; the limit is 30).
  const cheap = await addSeller(`${TAG} Cheap & <Co> "UK"`, `${TAG}-cheap.example.com`);
  const stale = await addSeller(`${TAG} Stale`, `${TAG}-stale.example.com`);
  const old = await addSeller(`${TAG} Old`, `${TAG}-old.example.com`);
  await addOffer(several.id, cheap, `${TAG}-cheap.example.com`, 41);
  const staleOffer = await addOffer(several.id, stale, `${TAG}-stale.example.com`, 39);
  const oldOffer = await addOffer(several.id, old, `${TAG}-old.example.com`, 35);
  await sql(
    `update public.offers set price_confirmed_at = now() - make_interval(days => $2)
      where id = $1`,
    [staleOffer, 10],
  );
  await sql(
    `update public.offers set price_confirmed_at = now() - make_interval(days => $2)
      where id = $1`,
    [oldOffer, 40],
  );
});

afterAll(async () => {
  process.env = savedEnv;
  await service.from('products').delete().eq('cat', CAT);
  await service.from('sellers').delete().in('id', sellerIds);
  await service.from('catagories').delete().eq('title', CAT);
  await new Promise((resolve) => site.close(resolve));
});

describe('the host product page lists the offers (REQ-OFF-2, REQ-OFF-3)', () => {
  it('each offer in the database’s order, with its texts and an Ad-labelled sponsored Buy Now', async () => {
    const { data, error } = await service.rpc('product_offers', { p_product_id: several.id });
    if (error) throw new Error(error.message);
    const offers = data as OfferRow[];
    expect(offers.map((o) => o.freshness)).toEqual(['current', 'current', 'stale', 'hidden']);
    const { document, data: pageData } = await page(several.slug);
    // The same rows in the page's data block: the app's first render reads no offers (REQ-CDN-11).
    expect(pageData.offers).toEqual(offers);
    const items = [
      ...document.querySelectorAll('[data-testid="offer-list"] [data-testid="offer"]'),
    ];
    expect(
      items.map((li) => li.querySelector('[data-testid="offer-seller"]')!.textContent),
    ).toEqual(offers.map((o) => o.seller_name));
    expect(items.map((li) => li.querySelector('[data-testid="offer-price"]')!.textContent)).toEqual(
      ['£41.00', '£50.00', '£39.00', texts.offers.hidden],
    );
    const note = (li: Element) => li.querySelector('[data-testid="offer-note"]')?.textContent;
    expect(items.map(note)).toEqual([
      undefined,
      undefined,
      texts.offers.stale,
      texts.offers.hidden,
    ]);
    const facts = (li: Element) => li.querySelector('[data-testid="offer-facts"]')!.textContent;
    expect(facts(items[0]!)).toMatch(
      new RegExp(`^${texts.offerList.freeDelivery} · price checked (just now|\\d+ minutes? ago)$`),
    );
    expect(facts(items[2]!)).toBe(
      `${texts.offerList.freeDelivery} · ${texts.offerList.checked('10 days ago')}`,
    );
    // The price under the title, as the cards and the app's page say it.
    expect(document.querySelector('[data-testid="product-price"]')!.textContent).toBe(
      texts.offers.from('£41.00'),
    );
    expect(document.querySelector('[data-testid="product-price-note"]')!.textContent).toBe(
      texts.offers.sellers(2),
    );
    items.forEach((li, n) => {
      const buy = li.querySelector('a')!;
      expect(buy.textContent).toBe(texts.home.buyNow);
      expect(buy.getAttribute('rel')).toBe('sponsored noopener noreferrer');
      expect(buy.getAttribute('target')).toBe('_blank');
      expect(buy.getAttribute('href')).toBe(offers[n]!.link);
      const label = li.querySelector('[data-testid="ad-label"]')!.textContent;
      expect(label).toBe(`${texts.disclosure.label} ${offers[n]!.seller_name}`);
    });
    // The seller's name was escaped, not read as markup.
    expect(document.querySelector('[data-testid="offer-list"] co')).toBeNull();
  });

  it('JSON-LD: an AggregateOffer over the current offers only', async () => {
    const { jsonLd } = await page(several.slug);
    expect(jsonLd.offers).toMatchObject({
      '@type': 'AggregateOffer',
      lowPrice: '41',
      highPrice: '50',
      offerCount: 2,
      priceCurrency: 'GBP',
    });
    expect(jsonLd.offers!.offers!.map((o) => [o.price, o.seller.name])).toEqual([
      ['41', `${TAG} Cheap & <Co> "UK"`],
      ['50', 'shop.example.com'],
    ]);
  });

  it('one offer: the single Buy Now with its seller and when its price was checked; an Offer in the JSON-LD', async () => {
    const { data } = await service.rpc('product_offers', { p_product_id: single.id });
    const [primary] = data as OfferRow[];
    const { jsonLd, document } = await page(single.slug);
    expect(jsonLd.offers).toMatchObject({
      '@type': 'Offer',
      price: '30',
      url: primary!.link,
      seller: { name: primary!.seller_name },
    });
    expect(document.querySelector('[data-testid="offer-list"]')).toBeNull();
    const buy = document.querySelector('a[rel="sponsored noopener noreferrer"]')!;
    expect(buy.getAttribute('href')).toBe(primary!.link);
    expect(document.querySelector('[data-testid="ad-label"]')!.textContent).toBe(
      `${texts.disclosure.label} ${primary!.seller_name}`,
    );
    expect(document.querySelector('[data-testid="offer-facts"]')!.textContent).toMatch(
      /^price checked (just now|\d+ minutes? ago)$/,
    );
    expect(document.querySelector('[data-testid="product-price"]')!.textContent).toBe('£30.00');
  });

  it('one Data API read for the page: the product, its offers, its price history and the store settings together (REQ-CDN-12, REQ-CDN-13)', async () => {
    // A real pass-through in front of the Data API that counts what the function asks it.
    const counter = await countingProxy(stackEnv().API_URL);
    process.env.VITE_SUPABASE_URL = counter.url;
    try {
      const { document, data } = await page(several.slug);
      expect(Object.fromEntries(counter.counts)).toEqual({ 'rpc/product_page_whole': 1 });
      expect(data.offers).toHaveLength(4);
      // The 90 days the page draws, as public.product_price_history answers them (REQ-CDN-13).
      const history = await service.rpc('product_price_history', {
        p_product_id: several.id,
        p_days: 90,
      });
      if (history.error) throw new Error(history.error.message);
      expect(history.data).not.toHaveLength(0);
      expect(data.history).toEqual(history.data);
      expect(document.querySelectorAll('[data-testid="offer"]')).toHaveLength(4);
      const { data: row } = await service.from('store_settings').select('store_name').single();
      expect(document.querySelector('meta[property="og:site_name"]')!.getAttribute('content')).toBe(
        (row as { store_name: string }).store_name,
      );
    } finally {
      process.env.VITE_SUPABASE_URL = stackEnv().API_URL;
      await counter.close();
    }
  });
});
