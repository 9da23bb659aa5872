// Offers in the database (REQ-OFF-1, REQ-OFF-2, REQ-OFF-4; docs/decisions/0230), over HTTP with
// supabase-js as anon, a signed-in shopper, an admin and the service role: who reads and writes
// sellers and offers, the rules the database keeps whatever the client, the primary offer that
// follows its product (admin form, CSV import, a plain insert), the price history, the Activity
// log. Freshness, the summary and Buy Now per offer: offers-freshness.test.ts.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers } from './db-test-helpers.ts';
import {
  DAY,
  confirmedAgo,
  historyOf,
  newHost,
  OfferFixtures,
  offersOf,
  primaryOf,
  service,
  summaryOf,
} from './offers-support.ts';
import {
  anonClient,
  createAdmin,
  createConfirmedUser,
  signedInClient,
  sql,
  stackEnv,
  type TestUser,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const f = new OfferFixtures();
const users: TestUser[] = [];
let admin: SupabaseClient;
let adminId: string;
let shopper: SupabaseClient;
const anon = anonClient();

beforeAll(async () => {
  await f.setUp();
  const a = await createAdmin();
  const s = await createConfirmedUser();
  users.push(a, s);
  adminId = a.id;
  admin = await signedInClient(a);
  shopper = await signedInClient(s);
});

afterAll(async () => {
  await f.tearDown();
  await deleteUsers(service, users);
});

describe('the primary offer follows its product (REQ-OFF-1)', () => {
  it('a new product gets its primary offer: seller by host (www. ignored, else created), price from the price text', async () => {
    const host = newHost();
    const { data, error } = await admin.rpc('admin_add_product', {
      p_title: uniqueId('Offers Added'),
      p_cat: f.cat,
      p_price: 'from £1,299.50',
      p_com: 'Added by the admin form',
      p_image: '/products/match-football.svg',
      p_link: `https://www.${host}/first`,
    });
    expect(error).toBeNull();
    const id = (data as { id: string }).id;
    const primary = await primaryOf(id);
    expect(primary).toMatchObject({
      link: `https://www.${host}/first`,
      price_gbp: 1299.5,
      price_source: 'admin',
    });
    expect(Math.abs(Date.parse(primary.price_confirmed_at!) - Date.now())).toBeLessThan(60_000);
    const { data: seller } = await service
      .from('sellers')
      .select('id, name, host, site')
      .eq('id', primary.seller_id)
      .single();
    expect(seller).toMatchObject({ name: host, host, site: `https://www.${host}` });

    // The same shop without www. is the same seller.
    const second = await f.product({ link: `http://${host.toUpperCase()}:8080/second` });
    expect((await primaryOf(second.id)).seller_id).toBe(primary.seller_id);
    expect(await summaryOf(id)).toMatchObject({ price_value: 1299.5, offer_count: 1 });
  });

  it('a product inserted the old way (straight into the table) has its primary offer too, like every product', async () => {
    const p = await f.product({ price: 'POA' });
    // The primary offer has the product's id; the row the insert returned was the row stored.
    expect(await primaryOf(p.id)).toMatchObject({ id: p.id, link: p.link, price_gbp: null });

    // A link with user info and a port: the seller's site keeps the port, drops the user info.
    const host = newHost();
    const odd = await f.product({
      link: `HTTPS://user:secret@WWW.${host.toUpperCase()}:8443/x?y=1`,
    });
    const { data: seller } = await service
      .from('sellers')
      .select('name, host, site')
      .eq('id', (await primaryOf(odd.id)).seller_id)
      .single();
    expect(seller).toEqual({ name: host, host, site: `https://www.${host}:8443` });
    expect(await summaryOf(p.id)).toMatchObject({ price_value: null, offer_count: 0 });
    // Every product of the database (the seed, the migration's products): exactly one primary
    // offer, with the product's link.
    const wrong = await sql(
      `select p.id from public.products p
        where (select count(*) from public.offers o where o.product_id = p.id and o.is_primary) <> 1
           or not exists (select 1 from public.offers o
                           where o.product_id = p.id and o.is_primary and o.link = p.link)`,
    );
    expect(wrong).toEqual([]);
  });

  it('a changed link or price text moves the primary offer; other edits leave it alone', async () => {
    const p = await f.product({ price: '£10' });
    const before = await primaryOf(p.id);
    await service
      .from('products')
      .update({ title: uniqueId('Offers Renamed') })
      .eq('id', p.id);
    expect(await primaryOf(p.id)).toEqual(before);

    // Same number written differently: confirmed again, no new price in the history.
    await service.from('products').update({ price: '10.00 GBP' }).eq('id', p.id);
    const confirmed = await primaryOf(p.id);
    expect(confirmed.price_gbp).toBe(10);
    expect(Date.parse(confirmed.price_confirmed_at!)).toBeGreaterThan(
      Date.parse(before.price_confirmed_at!),
    );
    expect(await historyOf(before.id)).toEqual([expect.objectContaining({ price_gbp: 10 })]);

    const host = newHost();
    await service
      .from('products')
      .update({ price: '£8.99', link: `https://${host}/moved` })
      .eq('id', p.id);
    const moved = await primaryOf(p.id);
    expect(moved).toMatchObject({ id: before.id, link: `https://${host}/moved`, price_gbp: 8.99 });
    expect(moved.seller_id).not.toBe(before.seller_id);
    expect((await historyOf(before.id)).map((h) => h.price_gbp)).toEqual([10, 8.99]);
  });

  it('the CSV import records its prices as imported; the admin form as the admin’s', async () => {
    const title = uniqueId('Offers Imported');
    const row = {
      title,
      cat: f.cat,
      price: '£7',
      com: 'Imported',
      image: '/products/match-football.svg',
      link: `https://${newHost()}/imported`,
    };
    const importOnce = async (price: string, mode: string) => {
      const importId = randomUUID();
      const stage = await admin.rpc('catalogue_import_stage', {
        p_import_id: importId,
        p_rows: [{ line: 2, ...row, price }],
      });
      expect(stage.error).toBeNull();
      const apply = await admin.rpc('catalogue_import_apply', {
        p_import_id: importId,
        p_mode: mode,
        p_create_categories: false,
        p_dry_run: false,
      });
      expect(apply.error).toBeNull();
    };
    await importOnce('£7', 'add');
    const { data: p } = await service
      .from('products')
      .select('id, updated_at')
      .eq('title', title)
      .single();
    expect(await primaryOf(p!.id as string)).toMatchObject({
      price_gbp: 7,
      price_source: 'import',
    });
    await importOnce('£6.50', 'upsert');
    expect(await primaryOf(p!.id as string)).toMatchObject({
      price_gbp: 6.5,
      price_source: 'import',
    });

    const { data: current } = await service
      .from('products')
      .select('updated_at')
      .eq('id', p!.id)
      .single();
    const { data } = await admin.rpc('admin_update_product', {
      p_id: p!.id,
      p_loaded_updated_at: current!.updated_at,
      p_title: title,
      p_cat: f.cat,
      p_price: '£6',
      p_com: row.com,
      p_image: row.image,
      p_link: row.link,
    });
    expect(data).toMatchObject({ result: 'changed' });
    expect(await primaryOf(p!.id as string)).toMatchObject({ price_gbp: 6, price_source: 'admin' });
  });
});

describe('who reads and writes offers and sellers (REQ-OFF-1)', () => {
  it('anon and shoppers read only the current offers of products the storefront shows; admins read all', async () => {
    const p = await f.product({ price: '£30' });
    const fresh = await f.offer(p.id, { price_gbp: 25 });
    const stale = await f.offer(p.id, { price_gbp: 20 });
    await confirmedAgo(stale.id, 8 * DAY);
    const unpriced = await f.offer(p.id, { price_gbp: null });
    const primary = await primaryOf(p.id);
    const ids = async (client: SupabaseClient) => {
      const { data, error } = await client.from('offers').select('id').eq('product_id', p.id);
      expect(error).toBeNull();
      return data!.map((r) => r.id as string).sort();
    };
    const current = [primary.id, fresh.id].sort();
    expect(await ids(anon)).toEqual(current);
    expect(await ids(shopper)).toEqual(current);
    expect(await ids(admin)).toEqual([primary.id, fresh.id, stale.id, unpriced.id].sort());

    // A product the storefront hides (broken link while the admins hide those): none of its
    // offers for anon, and no offers or history from the RPCs. In a transaction rolled back
    // afterwards: the setting is store-wide.
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    try {
      await db.query('begin');
      await db.query('update public.link_health_settings set hide_broken_links = true where true');
      await db.query(
        `insert into public.link_checks (product_id, kind, url, status)
         values ($1, 'link', $2, 'broken')`,
        [p.id, p.link],
      );
      await db.query('set local role anon');
      const { rows } = await db.query(
        `select (select count(*)::int from public.offers where product_id = $1) as offers,
                (select count(*)::int from public.product_offers($1)) as listed,
                (select count(*)::int from public.product_price_history($1, 7)) as days`,
        [p.id],
      );
      expect(rows[0]).toEqual({ offers: 0, listed: 0, days: 0 });
    } finally {
      await db.query('rollback');
      await db.end();
    }
    const { data: listed } = await anon.rpc('product_offers', { p_product_id: p.id });
    expect(listed).toHaveLength(4);
  });

  it('anon and shoppers cannot write offers or sellers; admins can', async () => {
    const p = await f.product();
    const other = await f.offer(p.id, { price_gbp: 15 });
    const seller = await f.seller();
    const row = {
      product_id: p.id,
      seller_id: seller.id,
      link: 'https://x.example/',
      price_gbp: 1,
    };
    for (const client of [anon, shopper]) {
      expect((await client.from('offers').insert(row)).error).not.toBeNull();
      await client.from('offers').update({ price_gbp: 0 }).eq('id', other.id);
      await client.from('offers').delete().eq('id', other.id);
      expect(
        (await client.from('sellers').insert({ name: 'Forged', site: 'https://f.example' })).error,
      ).not.toBeNull();
      await client.from('sellers').update({ name: 'Forged' }).eq('id', seller.id);
      await client.from('sellers').delete().eq('id', seller.id);
    }
    expect((await offersOf(p.id)).find((o) => o.id === other.id)).toEqual(other);
    expect(
      (await service.from('sellers').select('name').eq('id', seller.id).single()).data,
    ).toEqual({
      name: seller.name,
    });

    // Admins: add, change with the version loaded (optimistic concurrency), delete.
    const added = await admin.from('offers').insert(row).select('id, updated_at').single();
    expect(added.error).toBeNull();
    const changed = await admin
      .from('offers')
      .update({ delivery_gbp: 3.95, availability: 'in_stock' })
      .eq('id', added.data!.id)
      .eq('updated_at', added.data!.updated_at)
      .select('id');
    expect(changed.data).toHaveLength(1);
    const lost = await admin
      .from('offers')
      .update({ delivery_gbp: 0 })
      .eq('id', added.data!.id)
      .eq('updated_at', added.data!.updated_at)
      .select('id');
    expect(lost.data, 'a stale version writes nothing').toHaveLength(0);
    expect(
      (await admin.from('offers').delete().eq('id', added.data!.id).select('id')).data,
    ).toHaveLength(1);
    const renamed = await admin
      .from('sellers')
      .update({ network: 'Awin' })
      .eq('id', seller.id)
      .select('network');
    expect(renamed.data).toEqual([{ network: 'Awin' }]);
  });
});

describe('rules the database keeps (REQ-OFF-1)', () => {
  it('http(s) links only, one offer per seller and product, GBP at least 0, known availability, tag both or neither', async () => {
    const p = await f.product();
    const seller = await f.seller();
    const base = {
      product_id: p.id,
      seller_id: seller.id,
      link: 'https://ok.example/',
      price_gbp: 5,
    };
    for (const [patch, code] of [
      [{ link: 'javascript:alert(1)' }, '23514'],
      [{ link: 'ftp://files.example/x' }, '23514'],
      [{ link: 'https://shop.example/a b' }, '23514'],
      [{ price_gbp: -0.01 }, '23514'],
      [{ delivery_gbp: -1 }, '23514'],
      [{ availability: 'maybe' }, '23514'],
    ] as const) {
      const { error } = await admin.from('offers').insert({ ...base, ...patch });
      expect(error?.code, JSON.stringify(patch)).toBe(code);
    }
    expect((await admin.from('offers').insert(base)).error).toBeNull();
    expect((await admin.from('offers').insert(base)).error?.code).toBe('23505');
    const tag = await admin
      .from('sellers')
      .insert({ name: uniqueId('Half tag'), site: `https://${newHost()}`, affiliate_param: 'aff' });
    expect(tag.error?.code).toBe('23514');
  });

  it('the primary offer’s link and price are the product’s: refused through the offers table', async () => {
    const p = await f.product({ price: '£12' });
    const primary = await primaryOf(p.id);
    for (const change of [
      { link: 'https://elsewhere.example/' },
      { price_gbp: 1 },
      { is_primary: false },
    ]) {
      const { error } = await admin.from('offers').update(change).eq('id', primary.id);
      expect(error?.code, JSON.stringify(change)).toBe('42501');
    }
    const seller = await f.seller();
    const forged = await admin.from('offers').insert({
      product_id: p.id,
      seller_id: seller.id,
      link: 'https://a.example/',
      is_primary: true,
    });
    expect(forged.error).not.toBeNull();
    expect((await admin.from('offers').delete().eq('id', primary.id)).error?.code).toBe('42501');
    // Delivery and availability are the offer's own.
    const own = await admin
      .from('offers')
      .update({ delivery_gbp: 2.5, availability: 'preorder' })
      .eq('id', primary.id)
      .select('delivery_gbp, availability, price_gbp, link');
    expect(own.data).toEqual([
      { delivery_gbp: 2.5, availability: 'preorder', price_gbp: 12, link: p.link },
    ]);
    // A price feed (service role, source 'feed') may set the primary's price.
    const feed = await service
      .from('offers')
      .update({ price_gbp: 11.5, price_source: 'feed' })
      .eq('id', primary.id);
    expect(feed.error).toBeNull();
    expect((await service.from('products').select('price').eq('id', p.id).single()).data).toEqual({
      price: '£12',
    });
  });
});

describe('price history (REQ-OFF-4)', () => {
  it('one row when an offer gets a price and one per change; a confirmation writes nothing; nobody else writes it', async () => {
    const p = await f.product({ price: '£40' });
    const offer = await f.offer(p.id, { price_gbp: 30 });
    expect((await historyOf(offer.id)).map((h) => h.price_gbp)).toEqual([30]);
    await admin
      .from('offers')
      .update({ price_confirmed_at: new Date().toISOString() })
      .eq('id', offer.id);
    await admin.from('offers').update({ price_gbp: 30 }).eq('id', offer.id);
    expect((await historyOf(offer.id)).map((h) => h.price_gbp)).toEqual([30]);
    await admin.from('offers').update({ price_gbp: 27.5 }).eq('id', offer.id);
    expect((await historyOf(offer.id)).map((h) => h.price_gbp)).toEqual([30, 27.5]);

    for (const client of [admin, service, anon]) {
      const { error } = await client.from('offer_price_history').insert({
        offer_id: offer.id,
        product_id: p.id,
        seller_id: offer.seller_id,
        price_gbp: 1,
      });
      expect(error).not.toBeNull();
    }
    // The storefront's view: today's lowest price any offer had.
    const { data } = await anon.rpc('product_price_history', { p_product_id: p.id, p_days: 2 });
    expect(data!.at(-1)).toMatchObject({ lowest_gbp: 27.5 });
  });
});

describe('the Activity log (REQ-OFF-1)', () => {
  it('offers and sellers added, changed and removed by an admin are logged; the summary and the product trigger are not', async () => {
    const p = await f.product({ price: '£60' });
    const { data: p0 } = await service
      .from('products')
      .select('updated_at')
      .eq('id', p.id)
      .single();
    const sellerName = uniqueId('Logged Seller');
    const s = await admin
      .from('sellers')
      .insert({ name: sellerName, site: `https://${newHost()}` })
      .select('id')
      .single();
    const o = await admin
      .from('offers')
      .insert({
        product_id: p.id,
        seller_id: s.data!.id,
        link: 'https://logged.example/',
        price_gbp: 55,
      })
      .select('id')
      .single();
    await admin.from('offers').update({ price_gbp: 52 }).eq('id', o.data!.id);
    await admin.from('sellers').update({ network: 'Direct' }).eq('id', s.data!.id);
    await admin.from('offers').delete().eq('id', o.data!.id);
    await admin.from('sellers').delete().eq('id', s.data!.id);

    const { data: entries } = await admin
      .from('activity_log')
      .select('kind, actor, product_id, subject, before, after')
      .or(`product_id.eq.${p.id},subject.eq.${sellerName}`)
      .order('id');
    expect(entries!.map((e) => e.kind)).toEqual([
      'product_added',
      'seller_added',
      'offer_added',
      'offer_changed',
      'seller_changed',
      'offer_removed',
      'seller_removed',
    ]);
    const changed = entries!.find((e) => e.kind === 'offer_changed')!;
    expect(changed).toMatchObject({
      actor: adminId,
      product_id: p.id,
      before: { price_gbp: 55 },
      after: { price_gbp: 52 },
    });
    expect(changed.subject).toContain(sellerName);
    // The product's summary moved (55, then 52, then back to 60) without a new version.
    const { data: p1 } = await service
      .from('products')
      .select('updated_at')
      .eq('id', p.id)
      .single();
    expect(p1).toEqual(p0);
  });
});
