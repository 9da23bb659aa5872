// Feeds in the database (REQ-FEED-1..5; docs/decisions/0240), over HTTP with supabase-js: the
// sync RPCs as the service role stage rows and apply them in one transaction; what a run
// changes, holds, refuses and reports; the admin RPCs for unmatched rows and held changes.
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers } from './db-test-helpers.ts';
import { newHost, OfferFixtures, offersOf, service } from './offers-support.ts';
import { createAdmin, signedInClient, stackEnv, type TestUser } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const f = new OfferFixtures();
const users: TestUser[] = [];
let admin: SupabaseClient;

beforeAll(async () => {
  await f.setUp();
  const a = await createAdmin();
  users.push(a);
  admin = await signedInClient(a);
});

afterAll(async () => {
  await service.from('feed_sources').delete().like('name', 'Feed %');
  await f.tearDown();
  await deleteUsers(service, users);
});

type Row = Record<string, string | number>;

async function source(sellerId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { data, error } = await admin
    .from('feed_sources')
    .insert({
      name: uniqueId('Feed'),
      seller_id: sellerId,
      url: 'https://feeds.example/feed.csv',
      mapping: { link: 'link', price: 'price' },
      ...extra,
    })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

/** Queues, takes, stages and marks staged one run of the source; returns its id. */
async function stage(sourceId: string, rows: Row[]): Promise<string> {
  const { data: runId, error } = await admin.rpc('feed_run_request', { p_source_id: sourceId });
  if (error) throw new Error(error.message);
  const took = await service.rpc('feed_sync_take', { p_run_id: runId });
  if (took.error) throw new Error(took.error.message);
  const st = await service.rpc('feed_stage_rows', { p_run_id: runId, p_rows: rows });
  if (st.error) throw new Error(st.error.message);
  const done = await service.rpc('feed_run_staged', {
    p_run_id: runId,
    p_etag: '"e1"',
    p_last_modified: null,
  });
  if (done.error) throw new Error(done.error.message);
  return runId as string;
}

async function apply(runId: string): Promise<Record<string, unknown>> {
  const { data, error } = await service.rpc('feed_run_apply', { p_run_id: runId });
  if (error) throw new Error(error.message);
  return data as Record<string, unknown>;
}

describe('apply (REQ-FEED-3, REQ-FEED-4)', () => {
  it('REQ-FEED-3 matches by GTIN, seller id and link; adds offers; keeps the admin texts; one feed_run entry and no per-offer entries', async () => {
    const seller = await f.seller();
    const byGtin = await f.product({ price: '£10.00' });
    await service.from('products').update({ gtin: '4006381333931' }).eq('id', byGtin.id);
    const byLink = await f.product({ price: '£20.00' });
    const linked = await f.offer(byLink.id, {
      seller_id: seller.id,
      price_gbp: 20,
      link: `https://${seller.host}/b`,
    });
    const src = await source(seller.id);
    const before = await service
      .from('activity_log')
      .select('id')
      .order('id', { ascending: false })
      .limit(1);
    const lastId = (before.data?.[0]?.id as number | undefined) ?? 0;
    const run = await stage(src, [
      { line: 1, gtin: '4006381333931', link: `https://${seller.host}/a`, price: '£11.00' },
      {
        line: 2,
        id: 'SKU-2',
        link: `https://${seller.host}/b`,
        price: '21.00 GBP',
        availability: 'out of stock',
      },
      {
        line: 3,
        id: 'SKU-3',
        link: `https://${seller.host}/c`,
        price: '5',
        title: 'Unknown thing',
      },
    ]);
    const report = await apply(run);
    expect(report).toMatchObject({
      rowsRead: 3,
      added: 1,
      changed: 1,
      unmatched: 1,
      refused: 0,
      held: 0,
    });
    const offers = await offersOf(byGtin.id);
    const added = offers.find((o) => o.seller_id === seller.id)!;
    expect(added).toMatchObject({
      price_gbp: 11,
      price_source: 'feed',
      link: `https://${seller.host}/a`,
    });
    const { data: changed } = await service.from('offers').select('*').eq('id', linked.id).single();
    expect(changed).toMatchObject({
      price_gbp: 21,
      availability: 'out_of_stock',
      seller_product_id: 'SKU-2',
      feed_source_id: src,
    });
    const { data: prod } = await service
      .from('products')
      .select('price, title')
      .eq('id', byLink.id)
      .single();
    expect(prod!.price).toBe('£20.00');
    const log = await service.from('activity_log').select('kind, after').gt('id', lastId);
    const kinds = (log.data ?? []).map((e) => e.kind as string);
    expect(kinds).toContain('feed_run');
    expect(kinds.filter((k) => k.startsWith('offer_'))).toEqual([]);
    const { data: unmatched } = await service
      .from('feed_unmatched')
      .select('*')
      .eq('source_id', src);
    expect(unmatched).toHaveLength(1);
    expect(unmatched![0]).toMatchObject({ match_key: 'SKU-3', status: 'open' });
  });

  it('REQ-FEED-4 holds a price jump over the limit; feed_held_decide applies it; a full feed makes a missing offer unavailable', async () => {
    const seller = await f.seller();
    const p1 = await f.product();
    const p2 = await f.product();
    const o1 = await f.offer(p1.id, {
      seller_id: seller.id,
      price_gbp: 10,
      link: `https://${seller.host}/1`,
    });
    const o2 = await f.offer(p2.id, {
      seller_id: seller.id,
      price_gbp: 10,
      link: `https://${seller.host}/2`,
      availability: 'in_stock',
    });
    const src = await source(seller.id, { max_change_pct: 50 });
    await apply(
      await stage(src, [
        { line: 1, link: o1.link, price: '10' },
        { line: 2, link: o2.link, price: '10' },
      ]),
    );
    const report = await apply(await stage(src, [{ line: 1, link: o1.link, price: '30' }]));
    expect(report).toMatchObject({ held: 1, madeUnavailable: 1 });
    const { data: still } = await service
      .from('offers')
      .select('price_gbp')
      .eq('id', o1.id)
      .single();
    expect(still!.price_gbp).toBe(10);
    const { data: gone } = await service
      .from('offers')
      .select('availability')
      .eq('id', o2.id)
      .single();
    expect(gone!.availability).toBe('out_of_stock');
    const { data: held } = await admin
      .from('feed_held_changes')
      .select('id')
      .eq('offer_id', o1.id)
      .eq('status', 'held');
    const n = await admin.rpc('feed_held_decide', { p_ids: [held![0]!.id], p_apply: true });
    expect(n.error).toBeNull();
    expect(n.data).toBe(1);
    const { data: applied } = await service
      .from('offers')
      .select('price_gbp')
      .eq('id', o1.id)
      .single();
    expect(applied!.price_gbp).toBe(30);
  });

  it('REQ-FEED-3 more than half the rows refused: nothing applied, the run failed with the reason', async () => {
    const seller = await f.seller();
    const p = await f.product();
    const o = await f.offer(p.id, {
      seller_id: seller.id,
      price_gbp: 10,
      link: `https://${seller.host}/x`,
    });
    const src = await source(seller.id);
    const report = await apply(
      await stage(src, [
        { line: 1, link: o.link, price: '11' },
        { line: 2, link: `https://${seller.host}/y`, price: 'free' },
        { line: 3, link: 'not a link', price: '3' },
        { line: 4, gtin: '123', link: `https://${seller.host}/z`, price: '4 USD' },
      ]),
    );
    expect(report).toMatchObject({ refused: 3 });
    expect(report.error).toMatch(/^Most rows were refused \(3 of 4\)/);
    const { data } = await service.from('offers').select('price_gbp').eq('id', o.id).single();
    expect(data!.price_gbp).toBe(10);
  });

  it('REQ-FEED-5 admins ignore unmatched rows and create a product from one', async () => {
    const seller = await f.seller();
    const src = await source(seller.id);
    await apply(
      await stage(src, [
        {
          line: 1,
          id: 'NEW-1',
          title: uniqueId('Feed Product'),
          link: `https://${seller.host}/n1`,
          price: '£9.99',
          image: 'https://img.example/a.jpg',
        },
        {
          line: 2,
          id: 'NEW-2',
          title: uniqueId('Feed Product'),
          link: `https://${seller.host}/n2`,
          price: '£9.99',
        },
      ]),
    );
    const { data: rows } = await admin
      .from('feed_unmatched')
      .select('id, seller_product_id')
      .eq('source_id', src)
      .order('seller_product_id');
    expect(rows).toHaveLength(2);
    const ign = await admin.rpc('feed_unmatched_ignore', { p_ids: [rows![1]!.id] });
    expect(ign.data).toBe(1);
    const noImage = await admin.rpc('feed_unmatched_create_product', {
      p_id: rows![1]!.id,
      p_cat: f.cat,
      p_com: 'x',
    });
    expect(noImage.error?.hint).toBe('image');
    const made = await admin.rpc('feed_unmatched_create_product', {
      p_id: rows![0]!.id,
      p_cat: f.cat,
      p_com: 'From a feed',
    });
    expect(made.error).toBeNull();
    const offers = await offersOf(made.data as string);
    expect(offers.find((o) => o.seller_id === seller.id)).toMatchObject({ price_gbp: 9.99 });
  });

  it('REQ-FEED-2 feed_run_fail drops the staged rows and applies nothing; a second Run now while active is refused', async () => {
    const seller = await f.seller();
    const src = await source(seller.id);
    const { data: runId } = await admin.rpc('feed_run_request', { p_source_id: src });
    const again = await admin.rpc('feed_run_request', { p_source_id: src });
    expect(again.error?.code).toBe('55000');
    await service.rpc('feed_sync_take', { p_run_id: runId });
    await service.rpc('feed_stage_rows', {
      p_run_id: runId,
      p_rows: [{ line: 1, link: `https://${newHost()}/q`, price: '1' }],
    });
    const failed = await service.rpc('feed_run_fail', {
      p_run_id: runId,
      p_error: 'Line 5,001: a quoted field is not closed. Nothing was applied.',
    });
    expect(failed.error).toBeNull();
    const { data: run } = await admin
      .from('feed_runs')
      .select('status, error')
      .eq('id', runId)
      .single();
    expect(run).toMatchObject({ status: 'failed' });
    const { data: srcRow } = await admin
      .from('feed_sources')
      .select('failing_since, last_status')
      .eq('id', src)
      .single();
    expect(srcRow!.last_status).toBe('failed');
    expect(srcRow!.failing_since).not.toBeNull();
  });

  it('REQ-FEED-4 a delta feed changes only the rows it lists; title matching only when chosen; over-long, duplicate and SQL-ish values refused', async () => {
    const seller = await f.seller();
    const title = uniqueId('Feed Title');
    const p = await f.product({ title });
    const kept = await f.product();
    const o = await f.offer(kept.id, {
      seller_id: seller.id,
      price_gbp: 10,
      link: `https://${seller.host}/k`,
    });
    const delta = await source(seller.id, { kind: 'delta' });
    const rows: Row[] = [
      { line: 1, link: o.link, price: '10' },
      { line: 2, id: 'T-1', title, link: `https://${seller.host}/t`, price: '7' },
      {
        line: 3,
        id: "x'); drop table public.offers; --",
        link: `https://${seller.host}/s`,
        price: '1',
      },
      { line: 4, link: o.link, price: '11' },
      { line: 5, id: 'L'.repeat(5000), link: `https://${seller.host}/l`, price: '1' },
    ];
    const first = await apply(await stage(delta, rows));
    expect(first).toMatchObject({ unmatched: 2, refused: 2, madeUnavailable: 0 });
    expect(first.refusedByCode).toMatchObject({ duplicate_in_feed: 1, field_too_long: 1 });
    const byTitle = await source(seller.id, { kind: 'delta', match_by_title: true });
    const second = await apply(await stage(byTitle, [rows[1]!]));
    expect(second).toMatchObject({ added: 1 });
    expect((await offersOf(p.id)).some((x) => x.seller_id === seller.id)).toBe(true);
    const { data: still } = await service
      .from('offers')
      .select('availability')
      .eq('id', o.id)
      .single();
    expect(still!.availability).not.toBe('out_of_stock');
  });

  it('REQ-FEED-2 feed_run_unchanged confirms only confirmations older than a day', async () => {
    const seller = await f.seller();
    const p = await f.product();
    const o = await f.offer(p.id, {
      seller_id: seller.id,
      price_gbp: 10,
      link: `https://${seller.host}/u`,
    });
    const src = await source(seller.id);
    await apply(await stage(src, [{ line: 1, link: o.link, price: '10' }]));
    const old = new Date(Date.now() - 3 * 86400000).toISOString();
    await service.from('offers').update({ price_confirmed_at: old }).eq('id', o.id);
    const { data: runId } = await admin.rpc('feed_run_request', { p_source_id: src });
    await service.rpc('feed_sync_take', { p_run_id: runId });
    const r = await service.rpc('feed_run_unchanged', { p_run_id: runId, p_http_status: 304 });
    expect(r.error).toBeNull();
    const { data } = await service
      .from('offers')
      .select('price_confirmed_at')
      .eq('id', o.id)
      .single();
    expect(new Date(data!.price_confirmed_at as string).getTime()).toBeGreaterThan(
      Date.now() - 60000,
    );
  });

  it('REQ-FEED-3 an unchanged line confirms its offer again only when the confirmation is a day old', async () => {
    const seller = await f.seller();
    const p = await f.product();
    const o = await f.offer(p.id, {
      seller_id: seller.id,
      price_gbp: 10,
      link: `https://${seller.host}/d`,
    });
    const src = await source(seller.id);
    await apply(await stage(src, [{ line: 1, link: o.link, price: '10' }]));
    const confirmed = async () => {
      const { data } = await service
        .from('offers')
        .select('price_confirmed_at, updated_at')
        .eq('id', o.id)
        .single();
      return data as { price_confirmed_at: string; updated_at: string };
    };
    const first = await confirmed();
    const again = await apply(await stage(src, [{ line: 1, link: o.link, price: '10' }]));
    expect(again).toMatchObject({ unchanged: 1, changed: 0 });
    // Not written at all: neither the confirmation nor the row moved.
    expect(await confirmed()).toEqual(first);
    const old = new Date(Date.now() - 2 * 86400000).toISOString();
    await service.from('offers').update({ price_confirmed_at: old }).eq('id', o.id);
    await apply(await stage(src, [{ line: 1, link: o.link, price: '10' }]));
    expect(new Date((await confirmed()).price_confirmed_at).getTime()).toBeGreaterThan(
      Date.now() - 60000,
    );
  });
  it('REQ-FEED-3 a run of over 10,000 lines queues the summaries it only confirmed again; feed_apply_staged recomputes them (decision 0244)', async () => {
    const seller = await f.seller();
    const days = (n: number) => new Date(Date.now() - n * 86400000).toISOString();
    const make = async (name: string, price: number, confirmed: string) => {
      const p = await f.product();
      const o = await f.offer(p.id, {
        seller_id: seller.id,
        price_gbp: price,
        availability: 'in_stock',
        link: `https://${seller.host}/${name}`,
      });
      await service.from('offers').update({ price_confirmed_at: confirmed }).eq('id', o.id);
      return { p, o };
    };
    const current = await make('current', 10, days(2)); // still current: only "price checked"
    const stale = await make('stale', 11, days(9)); // stale (7 days): the summary changes
    const changed = await make('changed', 12, days(2));
    const src = await source(seller.id);
    const rows: Row[] = [
      { line: 1, link: current.o.link, price: '10' },
      { line: 2, link: stale.o.link, price: '11' },
      { line: 3, link: changed.o.link, price: '13' },
    ];
    for (let i = 0; i < 10_000; i++) {
      rows.push({ line: 4 + i, link: `https://unmatched-${i}.example.com/p`, price: '5' });
    }
    const { data: runId } = await admin.rpc('feed_run_request', { p_source_id: src });
    expect((await service.rpc('feed_sync_take', { p_run_id: runId })).error).toBeNull();
    for (let k = 0; k < rows.length; k += 5000) {
      const st = await service.rpc('feed_stage_rows', {
        p_run_id: runId,
        p_rows: rows.slice(k, k + 5000),
      });
      expect(st.error).toBeNull();
    }
    const staged = await service.rpc('feed_run_staged', {
      p_run_id: runId,
      p_etag: '"big"',
      p_last_modified: null,
    });
    expect(staged.error).toBeNull();

    // Inside the apply's own transaction, so that no other test's job call drains the queue.
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    const summary = async (id: string) =>
      (
        await db.query<{ checked: Date; count: number; price: string; queued: boolean }>(
          `select p.price_checked_at as checked, p.offer_count as count, p.price_value as price,
                  exists (select 1 from private.offer_summary_queue q
                           where q.product_id = p.id) as queued
             from public.products p where p.id = $1`,
          [id],
        )
      ).rows[0]!;
    const recent = (d: Date) => d.getTime() > Date.now() - 60_000;
    try {
      await db.query('begin');
      const report = (await db.query('select private.feed_run_apply($1) as r', [runId])).rows[0]!
        .r as Record<string, unknown>;
      expect(report).toMatchObject({ changed: 1, unchanged: 2, unmatched: 10_000 });
      const c = await summary(current.p.id);
      expect(c.queued).toBe(true);
      expect(recent(c.checked)).toBe(false); // the older confirmation, never a fresher one
      const s = await summary(stale.p.id);
      expect([s.queued, Number(s.price), s.count]).toEqual([false, 11, 2]); // + primary offer
      const ch = await summary(changed.p.id);
      expect([ch.queued, Number(ch.price), recent(ch.checked)]).toEqual([false, 13, true]);
      await db.query('commit');

      for (let k = 0; k < 10 && (await summary(current.p.id)).queued; k++) {
        await db.query('select private.feed_apply_staged()');
      }
      const after = await summary(current.p.id);
      expect([after.queued, recent(after.checked), after.count]).toEqual([false, true, 2]);
    } finally {
      await db.query('rollback').catch(() => undefined);
      await db.end();
    }
  });
});
