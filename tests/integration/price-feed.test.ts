// REQ-OFF-5: the price-drop feed /p/<slug>/prices.atom, served by the host's function
// (netlify/functions/product-pages.ts) over HTTP against the real local stack, read with a real
// feed parser and checked for well-formed XML by a strict XML parser. A product gets offers and
// price changes through the service role (and one through an admin, whose identity must not
// reach the feed); the feed lists each offer's drops newest first, escapes titles with & < ",
// caches (ETag, 304), tells nothing about any person, and answers 404 for a hidden product, an
// unknown slug and a malformed address. Decision record: docs/decisions/0232.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { parseFeed } from '@rowanmanning/feed-parser';
import productPagesFunction from '../../netlify/functions/product-pages';
import { texts } from '../../src/offerTexts';
import { texts as adminTexts } from '../../src/adminTexts';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import { createAdmin, serviceClient, signedInClient, sql, stackEnv } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
const CAT = uniqueId('Feed Cat');
const TAG = uniqueId('feed').toLowerCase();
/** Text with every XML markup character, in the product's and the seller's names. */
const MARKUP = `& <b> "quoted" 'single'`;
const SHELL =
  '<!doctype html><html lang="en-GB"><head><meta name="description" content="x" />' +
  '<title>Shell</title></head><body><div id="root"></div></body></html>';
const savedEnv = { ...process.env };
let server: http.Server;
let origin: string;
let admin: Awaited<ReturnType<typeof createAdmin>>;
const product = { id: '', slug: '', title: `${uniqueId('Feed Ball')} ${MARKUP}` };
const hidden = { id: '', slug: '' };
const sellerName = `${TAG} Sports ${MARKUP}`;
let sellerId = '';
let offerId = '';
let historyIds: number[] = [];

/** The host's function behind a plain HTTP server, as Netlify runs it; it also serves the shell. */
function serve(): Promise<void> {
  server = http.createServer((req, res) => {
    if (req.url === '/spa.html') return res.writeHead(200).end(SHELL);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
    productPagesFunction(new Request(`${origin}${req.url}`, { headers }))
      .then(async (answer) => {
        res.statusCode = answer.status;
        answer.headers.forEach((value, name) => res.setHeader(name, value));
        res.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

const get = (pathname: string, headers: Record<string, string> = {}) =>
  fetch(`${origin}${pathname}`, { headers, redirect: 'manual' });

/** A strict XML 1.0 parser: throws on anything not well-formed (a lenient feed parser would not). */
function strictXml(text: string): Document {
  const doc = new new JSDOM().window.DOMParser().parseFromString(text, 'application/xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`not well-formed XML: ${error.textContent}`);
  return doc;
}

async function setPrice(price: number, client = service) {
  const { error } = await client.from('offers').update({ price_gbp: price }).eq('id', offerId);
  if (error) throw new Error(error.message);
}

beforeAll(async () => {
  await serve();
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  process.env.VITE_SUPABASE_URL = stackEnv().API_URL;
  process.env.VITE_SUPABASE_ANON_KEY = stackEnv().ANON_KEY;
  delete process.env.VITE_SITE_URL;
  admin = await createAdmin();
  const { error } = await service.from('catagories').insert({ title: CAT });
  if (error) throw new Error(error.message);
  const inserted = await service
    .from('products')
    .insert([
      productFields(CAT, product.title, '£50.00'),
      productFields(CAT, uniqueId('Feed Hidden'), '£20.00'),
    ])
    .select('id, slug, title');
  if (inserted.error) throw new Error(inserted.error.message);
  [product.id, product.slug] = [inserted.data[0]!.id as string, inserted.data[0]!.slug as string];
  [hidden.id, hidden.slug] = [inserted.data[1]!.id as string, inserted.data[1]!.slug as string];
  const seller = await service
    .from('sellers')
    .insert({ name: sellerName, site: `https://www.${TAG}.example.com` })
    .select('id')
    .single();
  if (seller.error) throw new Error(seller.error.message);
  sellerId = seller.data.id as string;
  const offer = await service
    .from('offers')
    .insert({
      product_id: product.id,
      seller_id: sellerId,
      link: `https://www.${TAG}.example.com/ball`,
      price_gbp: 45,
    })
    .select('id')
    .single();
  if (offer.error) throw new Error(offer.error.message);
  offerId = offer.data.id as string;
  // 45 → 41 (a drop) → 43 (a rise: no entry) → 42 (a drop, by an admin).
  await setPrice(41);
  await setPrice(43);
  await setPrice(42, await signedInClient(admin));
  // The primary offer follows the product's price text: 50 → 48 is a drop too.
  const primary = await service.from('products').update({ price: '£48.00' }).eq('id', product.id);
  if (primary.error) throw new Error(primary.error.message);
  const hiddenDrop = await service.from('products').update({ price: '£18.00' }).eq('id', hidden.id);
  if (hiddenDrop.error) throw new Error(hiddenDrop.error.message);
  const rows = await sql<{ id: string }>(
    `select h.id from public.offer_price_history h where h.product_id = $1
      order by h.changed_at, h.id`,
    [product.id],
  );
  historyIds = rows.map((r) => Number(r.id));
});

afterAll(async () => {
  process.env = savedEnv;
  await service.from('products').delete().eq('cat', CAT);
  await service.from('sellers').delete().eq('id', sellerId);
  await service.from('catagories').delete().eq('title', CAT);
  await deleteUsers(service, [admin]);
  await new Promise((resolve) => server.close(resolve));
});

describe('the price-drop feed (REQ-OFF-5)', () => {
  it('lists each offer’s drops, newest first, with escaped titles and stable ids', async () => {
    const response = await get(`/p/${product.slug}/prices.atom`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await response.text();
    strictXml(xml);
    const feed = parseFeed(xml);
    expect(feed.meta.type).toBe('atom');
    const [store] = await sql<{ store_name: string }>(
      'select store_name from public.store_settings',
    );
    expect(feed.title).toBe(texts.priceFeed.title(product.title, store!.store_name));
    expect(feed.url).toMatch(new RegExp(`/p/${product.slug}$`));
    expect(feed.self).toMatch(new RegExp(`/p/${product.slug}/prices\\.atom$`));
    const titles = feed.items.map((item) => item.title);
    expect(titles).toEqual([
      '£48.00 at shop.example.com (was £50.00)',
      `£42.00 at ${sellerName} (was £43.00)`,
      `£41.00 at ${sellerName} (was £45.00)`,
    ]);
    for (const item of feed.items) {
      expect(item.url).toBe(feed.url);
      expect(item.id).toMatch(/^tag:[^,]+,2026:price-drop\/\d+$/);
      expect(item.updated).toBeInstanceOf(Date);
    }
    // Each entry's id is its history row's: stable whatever is added later.
    const ids = feed.items.map((item) => Number(item.id!.split('/').pop()));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids.every((id) => historyIds.includes(id))).toBe(true);
    // The feed changed last with its newest entry, or with the product (its title) if later.
    expect(feed.updated!.getTime()).toBeGreaterThanOrEqual(feed.items[0]!.updated!.getTime());
    // The raw text: & < " escaped, never raw markup.
    expect(xml).toContain('&amp; &lt;b&gt; &quot;quoted&quot; &apos;single&apos;');
    expect(xml).not.toContain('<b>');
  });

  it('caches: public, s-maxage, stale-while-revalidate, ETag and Last-Modified; 304 on a match', async () => {
    const first = await get(`/p/${product.slug}/prices.atom`);
    const cache = first.headers.get('cache-control')!;
    expect(cache).toMatch(/\bpublic\b/);
    expect(cache).toMatch(/\bs-maxage=\d+/);
    expect(cache).toMatch(/\bstale-while-revalidate=\d+/);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Date.parse(first.headers.get('last-modified')!)).not.toBeNaN();
    // The host's security headers, as on every answer of the function.
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('content-security-policy')).toContain("default-src 'self'");
    const again = await get(`/p/${product.slug}/prices.atom`, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(cache);
    // A new drop changes the document and its ETag: the old one no longer matches.
    await setPrice(40);
    const changed = await get(`/p/${product.slug}/prices.atom`, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(parseFeed(await changed.text()).items[0]!.title).toBe(
      `£40.00 at ${sellerName} (was £42.00)`,
    );
  });

  it('holds no personal data: no e-mail, no IP, no user ids', async () => {
    const visitorIp = '203.0.113.77';
    const response = await get(`/p/${product.slug}/prices.atom`, {
      'X-Forwarded-For': visitorIp,
      'CF-Connecting-IP': visitorIp,
    });
    const xml = await response.text();
    expect(xml).not.toMatch(/[^\s<>"]+@[^\s<>"]+\.[a-z]+/i);
    expect(xml).not.toContain(admin.email);
    expect(xml).not.toContain(admin.id);
    expect(xml).not.toContain(visitorIp);
    // Only the product's id is a uuid in it (the feed's id); no offer, seller or person ids.
    const uuids = xml.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g);
    expect(new Set(uuids)).toEqual(new Set([product.id]));
  });

  it('answers 404 with "Product Not Foound" for an unknown slug, a malformed one and a hidden product', async () => {
    const expectNotFound = async (pathname: string) => {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(404);
      expect(response.headers.get('content-type'), pathname).toBe('text/plain; charset=utf-8');
      expect((await response.text()).trim(), pathname).toBe(adminTexts.product.notFound);
    };
    await expectNotFound('/p/no-such-product-ever/prices.atom');
    await expectNotFound('/p/%E0%A4%A/prices.atom');
    const shown = await get(`/p/${hidden.slug}/prices.atom`);
    expect(shown.status).toBe(200);
    expect(parseFeed(await shown.text()).items).toHaveLength(1);
    const [before] = await sql<{ hide: boolean }>(
      'select hide_broken_links as hide from public.link_health_settings',
    );
    try {
      await sql('update public.link_health_settings set hide_broken_links = true where true');
      await sql(
        `insert into public.link_checks (product_id, kind, url, status)
         values ($1, 'link', 'https://shop.example.com/test', 'broken')
         on conflict (product_id, kind, offer_id) do update set status = 'broken'`,
        [hidden.id],
      );
      await expectNotFound(`/p/${hidden.slug}/prices.atom`);
      // The read itself gives nothing for it either (a direct call past the host).
      const { data } = await service.rpc('product_price_drops', { p_product_id: hidden.id });
      expect(data).toEqual([]);
    } finally {
      await sql('update public.link_health_settings set hide_broken_links = $1 where true', [
        before!.hide,
      ]);
      await sql('delete from public.link_checks where product_id = $1', [hidden.id]);
    }
  });

  it('the product page names its feed for readers and browsers', async () => {
    const html = await (await get(`/p/${product.slug}`)).text();
    const link = /<link rel="alternate" type="application\/atom\+xml"[^>]*>/.exec(html)![0];
    expect(link).toContain(`href="/p/${product.slug}/prices.atom"`);
  });

  it('sends an old slug’s feed to the new address', async () => {
    const { data } = await service
      .from('products')
      .update({ title: `${product.title} renamed` })
      .eq('id', product.id)
      .select('slug')
      .single();
    const moved = await get(`/p/${product.slug}/prices.atom`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/p/${data!.slug as string}/prices.atom`);
  });
});
