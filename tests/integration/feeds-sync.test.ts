// Feed sync end to end (REQ-FEED-2, REQ-FEED-3, REQ-FEED-4, REQ-FEED-6; docs/decisions/0240-0242):
// real feed files served by a real HTTP server on loopback (tests/support/feed-servers.ts; the
// test stack sets FEED_SYNC_ALLOW_LOOPBACK), read by the real `feed-sync` edge function through
// the gateway, staged and applied by the database. Nothing is mocked: runs are queued by an admin
// (feed_run_request) and driven as Cron drives them (feeds-support.ts). Broken feeds, the fetch guard
// and who may run feeds: feeds-sync-guard.test.ts; large feeds and budgets: feeds-sync-scale.test.ts.
import { describe, expect, it } from 'vitest';
import { AWIN_MAPPING, awinCsv, awinRow, googleXml, gzip } from '../support/feed-servers.ts';
import { sql } from '../support/stack.ts';
import { feedRunEntries, feedTestContext, stagedCount } from './feeds-support.ts';

const ctx = feedTestContext();

describe('an Awin gzip CSV updates the seller’s offers (REQ-FEED-2, REQ-FEED-3)', () => {
  it('prices, delivery, availability and confirmation change; the ctx.admin’s texts do not; one report and one activity entry', async () => {
    const seller = await ctx.fx.seller();
    const [p1, p2, p3, p4] = await ctx.fx.products(4, { gtin: true });
    const link = (n: number) => `https://www.awin1.com/pclick.php?p=${n}&a=1&m=2`;
    await ctx.fx.offers(seller.id, [
      { productId: p1!.id, sellerProductId: 'M1', link: link(1), price: 10, delivery: 2 },
      { productId: p2!.id, sellerProductId: 'M2', link: link(2), price: 20 },
      { productId: p3!.id, sellerProductId: 'M3', link: link(3), price: 30 },
    ]);
    const csv = awinCsv([
      // Line 2: matched by GTIN (the offer of this seller for that product).
      awinRow({
        merchant_product_id: 'M1',
        ean: p1!.gtin!,
        aw_deep_link: link(1),
        search_price: '11.00',
        delivery_cost: '3.49',
        product_name: 'Feed title, not the ctx.admin’s',
      }),
      awinRow({
        merchant_product_id: 'M2',
        aw_deep_link: link(2),
        search_price: '20.00',
        in_stock: '0',
      }),
      awinRow({ merchant_product_id: 'M3', aw_deep_link: link(3), search_price: '30.00' }),
      // A product of the catalogue this seller had no offer for: a new offer.
      awinRow({
        merchant_product_id: 'M4',
        ean: p4!.gtin!,
        aw_deep_link: link(4),
        search_price: '40.00',
        delivery_cost: '0',
      }),
      awinRow({
        merchant_product_id: 'M5',
        aw_deep_link: link(5),
        search_price: '5.00',
        product_name: 'Not in the catalogue',
      }),
      // Line 7: refused, the others still apply.
      awinRow({ merchant_product_id: 'M6', aw_deep_link: link(6), search_price: 'call us' }),
    ]);
    ctx.server.serve('/awin/datafeed.csv.gz', {
      headers: { 'content-type': 'application/x-gzip' },
      body: gzip(csv),
    });
    const source = await ctx.fx.source({
      seller_id: seller.id,
      url: `${ctx.server.origin}/awin/datafeed.csv.gz`,
      format: 'awin_csv',
      mapping: AWIN_MAPPING,
    });
    const textsBefore = await ctx.fx.productTexts();
    const since = new Date(Date.now() - 1000);

    const { run, answer } = await ctx.fx.run(source.id);

    expect(run.error).toBeNull();
    expect(run.status).toBe('done');
    expect((answer as { run: { id: string } }).run.id).toBe(run.id);
    expect(run).toMatchObject({
      rows_read: 6,
      added: 1,
      unmatched: 1,
      refused: 1,
      held: 0,
      made_unavailable: 0,
    });
    expect(run.changed + run.unchanged).toBe(3);
    expect(run.changed).toBeGreaterThanOrEqual(2);
    expect(run.refused_by_code).toEqual({ price_invalid: 1 });
    expect(run.refused_sample).toEqual([{ line: 7, codes: ['price_invalid'] }]);
    expect(await stagedCount(run.id)).toBe(0);

    const offers = await ctx.fx.offersOf(seller.id);
    expect(offers.get('M1')).toMatchObject({
      price_gbp: '11.00',
      delivery_gbp: '3.49',
      availability: 'in_stock',
    });
    expect(offers.get('M2')).toMatchObject({ price_gbp: '20.00', availability: 'out_of_stock' });
    expect(offers.get('M3')).toMatchObject({ price_gbp: '30.00', availability: 'in_stock' });
    expect(offers.get('M4')).toMatchObject({
      product_id: p4!.id,
      price_gbp: '40.00',
      delivery_gbp: '0.00',
      link: link(4),
    });
    for (const id of ['M1', 'M2', 'M3', 'M4']) {
      const o = offers.get(id)!;
      expect(o.price_confirmed_at!.getTime(), id).toBeGreaterThan(since.getTime());
      expect(o.price_source, id).toBe('feed');
      expect(o.feed_source_id, id).toBe(source.id);
    }
    expect(offers.has('M5')).toBe(false);
    expect(await ctx.fx.productTexts()).toEqual(textsBefore);

    const unmatched = await sql(
      'select match_key, status from public.feed_unmatched where source_id = $1',
      [source.id],
    );
    expect(unmatched).toEqual([{ match_key: 'M5', status: 'open' }]);
    const entries = await feedRunEntries(source.name, since);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.after).toMatchObject({ rowsRead: 6, added: 1, unmatched: 1, refused: 1 });
    const [src] = await sql(
      'select last_status, last_run_id, failing_since from public.feed_sources where id = $1',
      [source.id],
    );
    expect(src).toMatchObject({ last_status: 'done', last_run_id: run.id, failing_since: null });
  });
});

describe('a Google Merchant XML feed (REQ-FEED-2, REQ-FEED-3)', () => {
  it('reads g:id, g:gtin, g:price with its currency, g:sale_price, g:availability and g:shipping/g:price', async () => {
    const seller = await ctx.fx.seller();
    const [q1, q2] = await ctx.fx.products(2, { gtin: true });
    await ctx.fx.offers(seller.id, [
      {
        productId: q2!.id,
        sellerProductId: 'G2',
        link: `${seller.site}/g2`,
        price: 24,
        delivery: 4,
      },
    ]);
    ctx.server.serve('/google/feed.xml', {
      headers: { 'content-type': 'application/rss+xml' },
      body: googleXml([
        {
          id: 'G1',
          gtin: q1!.gtin!,
          title: 'Ball & pump',
          link: `${seller.site}/g1`,
          price: '12.99 GBP',
          sale_price: '10.49 GBP',
          availability: 'in stock',
          shipping: '3.95 GBP',
          image_link: 'https://images.example.com/g1.jpg',
          brand: 'Acme',
        },
        {
          id: 'G2',
          title: 'Boots',
          link: `${seller.site}/g2`,
          price: '25.00 GBP',
          availability: 'out of stock',
          shipping: '0.00 GBP',
        },
        {
          id: 'G3',
          title: 'Dollar item',
          link: `${seller.site}/g3`,
          price: '9.99 USD',
          availability: 'in stock',
        },
      ]),
    });
    const source = await ctx.fx.source({
      seller_id: seller.id,
      url: `${ctx.server.origin}/google/feed.xml`,
      format: 'google_xml',
    });

    const { run } = await ctx.fx.run(source.id);

    expect(run.error).toBeNull();
    expect(run).toMatchObject({ status: 'done', rows_read: 3, added: 1, refused: 1 });
    expect(run.refused_by_code).toEqual({ currency_not_gbp: 1 });
    const offers = await ctx.fx.offersOf(seller.id);
    expect(offers.get('G1')).toMatchObject({
      product_id: q1!.id,
      price_gbp: '10.49',
      delivery_gbp: '3.95',
      availability: 'in_stock',
      link: `${seller.site}/g1`,
    });
    expect(offers.get('G2')).toMatchObject({
      price_gbp: '25.00',
      delivery_gbp: '0.00',
      availability: 'out_of_stock',
    });
  });
});

describe('delta and full feeds (REQ-FEED-4)', () => {
  it('a delta changes only its rows; a full feed makes a missing offer out of stock, never deletes it', async () => {
    const seller = await ctx.fx.seller();
    const products = await ctx.fx.products(3);
    const link = (i: number) => `${seller.site}/d/${i}`;
    await ctx.fx.offers(
      seller.id,
      products.map((p, i) => ({
        productId: p.id,
        sellerProductId: `D${i}`,
        link: link(i),
        price: 10 * (i + 1),
      })),
    );
    const rows = (prices: Record<number, string>) =>
      awinCsv(
        Object.entries(prices).map(([i, price]) =>
          awinRow({
            merchant_product_id: `D${i}`,
            aw_deep_link: link(Number(i)),
            search_price: price,
          }),
        ),
      );
    let body = rows({ 0: '11.00', 1: '21.00', 2: '31.00' });
    ctx.server.serve('/delta.csv', () => ({ body }));
    const source = await ctx.fx.source({
      seller_id: seller.id,
      url: `${ctx.server.origin}/delta.csv`,
      format: 'csv',
      mapping: AWIN_MAPPING,
    });

    const first = await ctx.fx.run(source.id);
    expect(first.run).toMatchObject({ status: 'done', changed: 3 });
    const afterFull = await ctx.fx.offersOf(seller.id);

    const { error } = await ctx.admin
      .from('feed_sources')
      .update({ kind: 'delta' })
      .eq('id', source.id);
    expect(error).toBeNull();
    body = rows({ 1: '22.00' });
    const delta = await ctx.fx.run(source.id);
    expect(delta.run).toMatchObject({
      status: 'done',
      rows_read: 1,
      changed: 1,
      made_unavailable: 0,
    });
    const afterDelta = await ctx.fx.offersOf(seller.id);
    expect(afterDelta.get('D1')!.price_gbp).toBe('22.00');
    for (const id of ['D0', 'D2']) {
      expect(afterDelta.get(id)!.price_gbp, id).toBe(afterFull.get(id)!.price_gbp);
      expect(afterDelta.get(id)!.price_confirmed_at, id).toEqual(
        afterFull.get(id)!.price_confirmed_at,
      );
      expect(afterDelta.get(id)!.availability, id).toBe('in_stock');
    }

    await ctx.admin.from('feed_sources').update({ kind: 'full' }).eq('id', source.id);
    body = rows({ 0: '11.00', 1: '22.00' });
    const full = await ctx.fx.run(source.id);
    expect(full.run).toMatchObject({ status: 'done', rows_read: 2, made_unavailable: 1 });
    const afterMissing = await ctx.fx.offersOf(seller.id);
    expect(afterMissing.size).toBe(3);
    expect(afterMissing.get('D2')).toMatchObject({
      availability: 'out_of_stock',
      price_gbp: '31.00',
    });
    expect(afterMissing.get('D0')!.availability).toBe('in_stock');
  });
});

describe('conditional download (REQ-FEED-2)', () => {
  it('a feed that answers 304 to If-None-Match leaves the run unchanged after one conditional request', async () => {
    const seller = await ctx.fx.seller();
    const [p] = await ctx.fx.products(1);
    await ctx.fx.offers(seller.id, [
      { productId: p!.id, sellerProductId: 'E1', link: `${seller.site}/e1`, price: 15 },
    ]);
    ctx.server.serve('/etag.csv', {
      etag: '"feed-v1"',
      lastModified: 'Wed, 25 Nov 2026 10:00:00 GMT',
      body: awinCsv([
        awinRow({
          merchant_product_id: 'E1',
          aw_deep_link: `${seller.site}/e1`,
          search_price: '16.00',
        }),
      ]),
    });
    const source = await ctx.fx.source({
      seller_id: seller.id,
      url: `${ctx.server.origin}/etag.csv`,
      format: 'csv',
      mapping: AWIN_MAPPING,
    });
    const first = await ctx.fx.run(source.id);
    expect(first.run).toMatchObject({ status: 'done', changed: 1 });
    const before = await ctx.fx.offersOf(seller.id);

    const second = await ctx.fx.run(source.id);

    expect(second.run.status).toBe('unchanged');
    expect(second.run.http_status).toBe(304);
    const seen = ctx.server.seen('/etag.csv');
    expect(seen).toHaveLength(2);
    expect(seen.filter((r) => r.ifNoneMatch === '"feed-v1"')).toHaveLength(1);
    expect(seen[1]!.ifNoneMatch).toBe('"feed-v1"');
    expect((await ctx.fx.offersOf(seller.id)).get('E1')!.price_gbp).toBe(
      before.get('E1')!.price_gbp,
    );
    const [src] = await sql('select last_status, etag from public.feed_sources where id = $1', [
      source.id,
    ]);
    expect(src).toMatchObject({ last_status: 'unchanged', etag: '"feed-v1"' });
  });
});
