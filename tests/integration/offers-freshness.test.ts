// Freshness and the products' offer summary in the database (REQ-OFF-2, REQ-OFF-3; docs/decisions/
// 0230), over HTTP with supabase-js: a stale price is never the lowest price nor in price order,
// past the hidden limit it is no number at all, the refresh job moves a product whose cheapest
// price turned stale with time, the card's Buy Now avoids a broken primary link, and no client
// can write the summary. Also: Buy Now counted per offer.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { click, visitor } from './click-support';
import { deleteUsers } from './db-test-helpers.ts';
import {
  DAY,
  confirmedAgo,
  OfferFixtures,
  primaryOf,
  service,
  summaryOf,
} from './offers-support.ts';
import {
  anonClient,
  createAdmin,
  signedInClient,
  sql,
  stackEnv,
  type TestUser,
} from '../support/stack.ts';

const f = new OfferFixtures();
const users: TestUser[] = [];
let admin: SupabaseClient;
const anon = anonClient();
let staleDays: number;
let hiddenDays: number;

beforeAll(async () => {
  await f.setUp();
  const a = await createAdmin();
  users.push(a);
  admin = await signedInClient(a);
  const { data } = await anon
    .from('store_settings')
    .select('price_stale_after_days, price_hidden_after_days')
    .single();
  staleDays = data!.price_stale_after_days as number;
  hiddenDays = data!.price_hidden_after_days as number;
});

afterAll(async () => {
  await f.tearDown();
  await deleteUsers(service, users);
});

/** The category's titles in the storefront's order, as the visitor's storefront_page gives them. */
async function storeOrder(): Promise<string[]> {
  const { data, error } = await anon
    .rpc('storefront_page', { p_cat: f.cat, p_limit: 100 })
    .select('title');
  expect(error).toBeNull();
  return (data as { title: string }[]).map((r) => r.title);
}

describe('a stale price is not the lowest price (REQ-OFF-3)', () => {
  it('leaves price_value, the seller count and the price order as soon as it is stale', async () => {
    const a = await f.product({ title: `A ${f.cat}`, price: '£30' });
    const b = await f.product({ title: `B ${f.cat}`, price: '£40' });
    const cheap = await f.offer(b.id, { price_gbp: 10 });
    expect(await summaryOf(b.id)).toMatchObject({ price_value: 10, offer_count: 2 });
    expect(await storeOrder()).toEqual([`B ${f.cat}`, `A ${f.cat}`]);

    await confirmedAgo(cheap.id, staleDays * DAY + 60_000);
    expect(await summaryOf(b.id)).toMatchObject({ price_value: 40, offer_count: 1 });
    expect(await storeOrder()).toEqual([`A ${f.cat}`, `B ${f.cat}`]);

    // Its price confirmed again: current again.
    await admin
      .from('offers')
      .update({ price_confirmed_at: new Date().toISOString() })
      .eq('id', cheap.id);
    expect(await summaryOf(b.id)).toMatchObject({ price_value: 10, offer_count: 2 });
    expect(await storeOrder()).toEqual([`B ${f.cat}`, `A ${f.cat}`]);
    await f.offer(a.id, { price_gbp: 5 });
    expect(await storeOrder()).toEqual([`A ${f.cat}`, `B ${f.cat}`]);
  });

  it('product_offers: current cheapest first, then stale, hidden (no number), none; the affiliate tag on the links', async () => {
    const p = await f.product({ price: '£25' });
    const tagged = await f.seller({ affiliate_param: 'aff', affiliate_value: 'mar-21' });
    const cheapest = await f.offer(p.id, {
      price_gbp: 19.99,
      seller_id: tagged.id,
      link: `https://${tagged.host}/ball?size=5#reviews`,
    });
    const stale = await f.offer(p.id, { price_gbp: 9 });
    await confirmedAgo(stale.id, staleDays * DAY + 60_000);
    const hidden = await f.offer(p.id, { price_gbp: 5 });
    await confirmedAgo(hidden.id, hiddenDays * DAY + 60_000);
    const none = await f.offer(p.id, { price_gbp: null });
    const primary = await primaryOf(p.id);

    const { data, error } = await anon.rpc('product_offers', { p_product_id: p.id });
    expect(error).toBeNull();
    expect(
      data!.map((o: Record<string, unknown>) => [o.offer_id, o.price_gbp, o.freshness]),
    ).toEqual([
      [cheapest.id, 19.99, 'current'],
      [primary.id, 25, 'current'],
      [stale.id, 9, 'stale'],
      [hidden.id, null, 'hidden'],
      [none.id, null, 'none'],
    ]);
    expect(data![0]).toMatchObject({
      seller_name: tagged.name,
      seller_site: `https://${tagged.host}`,
      link: `https://${tagged.host}/ball?size=5&aff=mar-21#reviews`,
      is_primary: false,
    });
    // "from £19.99 · 2 sellers" on the card: the stale, hidden and unpriced ones do not count.
    expect(await summaryOf(p.id)).toMatchObject({ price_value: 19.99, offer_count: 2 });
    // A link that already carries the parameter keeps the seller's own value.
    await service
      .from('offers')
      .update({ link: `https://${tagged.host}/ball?aff=theirs` })
      .eq('id', cheapest.id);
    const again = await anon.rpc('product_offers', { p_product_id: p.id });
    expect(again.data![0].link).toBe(`https://${tagged.host}/ball?aff=theirs`);
  });

  it('the refresh job moves a product whose cheapest price turned stale with time, without a new version or a log entry', async () => {
    const p = await f.product({ price: '£80' });
    const offer = await f.offer(p.id, { price_gbp: 70 });
    // Confirmed so long ago that it turns stale 3 seconds from now.
    await confirmedAgo(offer.id, staleDays * DAY - 3_000);
    const before = await summaryOf(p.id);
    expect(before).toMatchObject({ price_value: 70, offer_count: 2 });
    expect(Date.parse(before.price_fresh_until!)).toBeLessThan(Date.now() + 4_000);

    const logged = async () =>
      // In id order: without one, Postgres may return the same rows in another order.
      (await admin.from('activity_log').select('id, kind').eq('product_id', p.id).order('id')).data;
    const logBefore = await logged();
    await new Promise((r) => setTimeout(r, 4_000));
    // Nothing wrote the offer: the summary still says 70 until the job runs.
    expect((await summaryOf(p.id)).price_value).toBe(70);
    const [{ changed }] = await sql<{ changed: number }>(
      'select private.refresh_offer_summaries() as changed',
    );
    expect(changed).toBeGreaterThanOrEqual(1);
    const after = await summaryOf(p.id);
    expect(after).toMatchObject({ price_value: 80, offer_count: 1, updated_at: before.updated_at });
    expect(await logged()).toEqual(logBefore);
  });
});

describe('the card’s summary is the database’s (REQ-OFF-2)', () => {
  it('Buy Now goes to the primary offer, or to the cheapest current offer while the primary link is broken', async () => {
    const p = await f.product({ price: '£15' });
    const primary = await primaryOf(p.id);
    const tagged = await f.seller({ affiliate_param: 'tag', affiliate_value: 'mar' });
    const other = await f.offer(p.id, {
      price_gbp: 16,
      seller_id: tagged.id,
      link: `https://${tagged.host}/p`,
    });
    expect(await summaryOf(p.id)).toMatchObject({ buy_offer_id: primary.id, buy_link: p.link });

    const broken = await service
      .from('link_checks')
      .insert({ product_id: p.id, kind: 'link', url: p.link, status: 'broken' });
    expect(broken.error).toBeNull();
    expect(await summaryOf(p.id)).toMatchObject({
      buy_offer_id: other.id,
      buy_link: `https://${tagged.host}/p?tag=mar`,
      buy_seller: tagged.name,
    });
    await service.from('link_checks').update({ status: 'ok' }).eq('product_id', p.id);
    expect(await summaryOf(p.id)).toMatchObject({ buy_offer_id: primary.id });
  });

  it('no client writes the summary: an admin’s values are ignored, the rest of the write happens', async () => {
    const p = await f.product({ price: '£33' });
    const before = await summaryOf(p.id);
    const { error } = await admin
      .from('products')
      .update({
        com: 'Changed by the admin',
        price_value: 0.01,
        offer_count: 99,
        buy_link: 'https://evil.example/',
        price_fresh_until: '2099-01-01T00:00:00Z',
      })
      .eq('id', p.id);
    expect(error).toBeNull();
    const after = await summaryOf(p.id);
    expect({ ...after, updated_at: null }).toEqual({ ...before, updated_at: null });
    expect((await service.from('products').select('com').eq('id', p.id).single()).data).toEqual({
      com: 'Changed by the admin',
    });

    const forged = await admin
      .from('products')
      .insert({
        title: `Forged summary ${f.cat}`,
        cat: f.cat,
        price: 'POA',
        com: 'x',
        image: '/products/match-football.svg',
        link: 'https://forged.example/',
        price_value: 1,
        offer_count: 7,
      })
      .select('price_value, offer_count')
      .single();
    expect(forged.data).toEqual({ price_value: null, offer_count: 0 });
  });
});

describe('the freshness limits are store settings (REQ-OFF-3)', () => {
  it('a lower stale limit takes a price out of the lowest price at once; the job sweeps a big catalogue', async () => {
    const p = await f.product({ price: '£44' });
    const offer = await f.offer(p.id, { price_gbp: 33 });
    await confirmedAgo(offer.id, 2 * DAY);
    expect((await summaryOf(p.id)).price_value).toBe(33);
    try {
      const set = await admin
        .from('store_settings')
        .update({ price_stale_after_days: 1 })
        .eq('id', true);
      expect(set.error).toBeNull();
      expect((await summaryOf(p.id)).price_value).toBe(44);
    } finally {
      await admin
        .from('store_settings')
        .update({ price_stale_after_days: staleDays })
        .eq('id', true);
    }
    expect((await summaryOf(p.id)).price_value).toBe(33);

    // Past 10,000 products the change only starts a sweep; the job then goes through them all.
    // Here: a summary made out of date by hand (as the database's own write), and a sweep.
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    try {
      await db.query('begin');
      await db.query("select set_config('offers.summary_write', 'on', true)");
      await db.query('update public.products set price_value = null where id = $1', [p.id]);
      await db.query(
        'update private.offer_summary_sweep set pending = true, after_id = null where true',
      );
      await db.query('commit');
    } finally {
      await db.end();
    }
    expect((await summaryOf(p.id)).price_value).toBeNull();
    await sql('select private.refresh_offer_summaries()');
    const [sweep] = await sql<{ pending: boolean }>(
      'select pending from private.offer_summary_sweep',
    );
    expect(sweep!.pending).toBe(false);
    expect((await summaryOf(p.id)).price_value).toBe(33);
  });

  it('stale after 1 to 365 days, hidden after at least that and at most 3650, the field named', async () => {
    for (const [patch, column] of [
      [{ price_stale_after_days: 0 }, 'price_stale_after_days'],
      [{ price_stale_after_days: 366 }, 'price_stale_after_days'],
      [{ price_hidden_after_days: staleDays - 1 }, 'price_hidden_after_days'],
      [{ price_hidden_after_days: 3651 }, 'price_hidden_after_days'],
    ] as const) {
      const { error } = await admin.from('store_settings').update(patch).eq('id', true);
      expect(error, JSON.stringify(patch)).toMatchObject({ code: '23514', hint: column });
    }
    const { error } = await anon
      .from('store_settings')
      .update({ price_stale_after_days: 1 })
      .eq('id', true);
    const { data } = await anon.from('store_settings').select('price_stale_after_days').single();
    expect(error !== null || data!.price_stale_after_days === staleDays).toBe(true);
    expect(data!.price_stale_after_days).toBe(staleDays);
  });
});

describe('Buy Now counted per offer (REQ-OFF-2)', () => {
  it('a click on an offer counts for the product and the offer; an offer of another product is refused', async () => {
    const p = await f.product();
    const q = await f.product();
    const offer = await f.offer(p.id, { price_gbp: 9 });
    const args = { p_product_id: p.id, p_page: '/', p_page_view: randomUUID() };
    expect((await click(visitor(), { ...args, p_offer_id: offer.id })).data).toBe('counted');
    const { data: byOffer } = await admin
      .from('buy_now_clicks_by_offer')
      .select('clicks')
      .eq('offer_id', offer.id);
    expect(byOffer).toEqual([{ clicks: 1 }]);
    const { data: byProduct } = await admin
      .from('buy_now_clicks_by_product')
      .select('clicks')
      .eq('product_id', p.id);
    expect(byProduct).toEqual([{ clicks: 1 }]);

    const wrong = await click(visitor(), { ...args, p_product_id: q.id, p_offer_id: offer.id });
    expect(wrong.error?.code).toBe('22023');
    // The card's call without an offer still counts the product.
    const plain = await click(visitor(), {
      p_product_id: q.id,
      p_page: '/',
      p_page_view: randomUUID(),
    });
    expect(plain.data).toBe('counted');
    // Counts are the admins' to read.
    expect((await anon.from('buy_now_clicks_by_offer').select('clicks')).error).not.toBeNull();
  });
});
