// Feed sync failures and access (REQ-FEED-2, REQ-FEED-3, REQ-FEED-6; docs/decisions/0241, 0242):
// a feed broken halfway applies nothing and says which line; a redirect to a private address is
// refused before connecting; only admins (Run now) and the service key (Cron) run feeds. Real
// servers on loopback and the real function, as in feeds-sync.test.ts.
import { describe, expect, it } from 'vitest';
import { AWIN_MAPPING, awinCsv, awinRow, gzip } from '../support/feed-servers.ts';
import { anonClient, sql, stackEnv } from '../support/stack.ts';
import {
  callFeedSync,
  feedRunEntries,
  feedTestContext,
  runRow,
  stagedCount,
  waitForRun,
} from './feeds-support.ts';

const ctx = feedTestContext();

describe('a feed broken halfway applies nothing (REQ-FEED-2, REQ-FEED-3)', () => {
  const good = (n: number, link: (i: number) => string) =>
    Array.from({ length: n }, (_, i) =>
      awinRow({
        merchant_product_id: `K${i}`,
        aw_deep_link: link(i),
        search_price: `${i < 3 ? 10 * (i + 1) + 5 : 7}.00`,
        product_name: `Row ${i}`,
      }),
    );

  async function setUpBroken(path: string) {
    const seller = await ctx.fx.seller();
    const products = await ctx.fx.products(3);
    const link = (i: number) => `${seller.site}/k/${i}`;
    await ctx.fx.offers(
      seller.id,
      products.map((p, i) => ({
        productId: p.id,
        sellerProductId: `K${i}`,
        link: link(i),
        price: 10 * (i + 1),
      })),
    );
    const source = await ctx.fx.source({
      seller_id: seller.id,
      url: `${ctx.server.origin}${path}`,
      format: 'csv',
      compression: 'auto',
      mapping: AWIN_MAPPING,
    });
    return { seller, source, link, before: await ctx.fx.offersOf(seller.id) };
  }

  async function expectNothingApplied(t: Awaited<ReturnType<typeof setUpBroken>>, runId: string) {
    expect(await stagedCount(runId)).toBe(0);
    expect(await ctx.fx.offersOf(t.seller.id)).toEqual(t.before);
    const unmatched = await sql('select 1 from public.feed_unmatched where source_id = $1', [
      t.source.id,
    ]);
    expect(unmatched).toHaveLength(0);
    const [src] = await sql<{ last_status: string; failing_since: Date | null }>(
      'select last_status, failing_since from public.feed_sources where id = $1',
      [t.source.id],
    );
    expect(src!.last_status).toBe('failed');
    expect(src!.failing_since).not.toBeNull();
  }

  it('an unclosed quote after 3,000 good rows fails the run with its line', async () => {
    const t = await setUpBroken('/broken-quote.csv');
    // Header line 1, good rows on lines 2..3,001, the broken row on line 3,002.
    const csv =
      awinCsv(good(3000, t.link)) +
      'https://x.example/k,Shop,K9999,"Unclosed title,9.00,,1\n' +
      awinCsv(good(5, t.link)).split('\n').slice(1).join('\n');
    ctx.server.serve('/broken-quote.csv', { body: csv });
    const since = new Date(Date.now() - 1000);

    const { run } = await ctx.fx.run(t.source.id);

    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^Line 3,002: .*quote.*Nothing was applied\.$/i);
    await expectNothingApplied(t, run.id);
    expect(await feedRunEntries(t.source.name, since)).toHaveLength(1);
  });

  it('a truncated gzip file fails the run clearly', async () => {
    const t = await setUpBroken('/truncated.csv.gz');
    const whole = gzip(awinCsv(good(3000, t.link)));
    ctx.server.serve('/truncated.csv.gz', {
      body: whole.subarray(0, Math.floor(whole.length * 0.6)),
    });

    const { run } = await ctx.fx.run(t.source.id);

    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/gzip|compress|truncat|\bend|incomplete|corrupt/i);
    expect(run.error).toMatch(/Nothing was applied\.$/);
    await expectNothingApplied(t, run.id);
  });
});

describe('the fetch guard at every hop (REQ-FEED-6)', () => {
  it.each([
    ['/to-metadata', 'http://169.254.169.254/latest/meta-data/feed.csv', /169\.254\.169\.254/],
    ['/to-private', 'http://10.0.0.1/feed.csv', /10\.0\.0\.1/],
  ])(
    'a feed URL that redirects (%s) to a private address is refused, nothing fetched there',
    async (path, target, address) => {
      const seller = await ctx.fx.seller();
      ctx.server.serve(path, { status: 302, headers: { location: target } });
      const source = await ctx.fx.source({
        seller_id: seller.id,
        url: `${ctx.server.origin}${path}`,
        format: 'csv',
        mapping: AWIN_MAPPING,
      });

      const { run, ms } = await ctx.fx.run(source.id);

      expect(run.status).toBe('failed');
      expect(run.error).toMatch(address);
      expect(run.error).toMatch(/private|link-local|refused|not allowed/i);
      expect(Number(run.bytes_read ?? 0)).toBe(0);
      expect(run.rows_read).toBe(0);
      // Refused before connecting: no connect timeout was waited for.
      expect(ms).toBeLessThan(15_000);
      expect(ctx.server.seen(path)).toHaveLength(1);
    },
  );
});

describe('price jumps are held for review (REQ-FEED-4)', () => {
  it('a jump beyond the limit is held; the ctx.admin applies one and rejects another', async () => {
    const seller = await ctx.fx.seller();
    const products = await ctx.fx.products(3);
    const link = (i: number) => `${seller.site}/h/${i}`;
    await ctx.fx.offers(
      seller.id,
      products.map((p, i) => ({
        productId: p.id,
        sellerProductId: `H${i}`,
        link: link(i),
        price: 10 * (i + 1),
      })),
    );
    ctx.server.serve('/held.csv', {
      body: awinCsv([
        awinRow({ merchant_product_id: 'H0', aw_deep_link: link(0), search_price: '30.00' }), // +200 %
        awinRow({ merchant_product_id: 'H1', aw_deep_link: link(1), search_price: '100.00' }), // +400 %
        awinRow({ merchant_product_id: 'H2', aw_deep_link: link(2), search_price: '33.00' }), // +10 %
      ]),
    });
    const source = await ctx.fx.source({
      seller_id: seller.id,
      url: `${ctx.server.origin}/held.csv`,
      format: 'csv',
      mapping: AWIN_MAPPING,
      max_change_pct: 50,
    });

    const { run } = await ctx.fx.run(source.id);

    expect(run).toMatchObject({ status: 'done', held: 2, changed: 1 });
    let offers = await ctx.fx.offersOf(seller.id);
    expect([
      offers.get('H0')!.price_gbp,
      offers.get('H1')!.price_gbp,
      offers.get('H2')!.price_gbp,
    ]).toEqual(['10.00', '20.00', '33.00']);
    const { data: held, error } = await ctx.admin
      .from('feed_held_changes')
      .select('id, offer_id, old_price, new_price, status')
      .eq('run_id', run.id);
    expect(error).toBeNull();
    expect(held).toHaveLength(2);
    const byOffer = new Map(held!.map((h) => [h.offer_id as string, h]));
    const h0 = byOffer.get(offers.get('H0')!.id)!;
    const h1 = byOffer.get(offers.get('H1')!.id)!;
    expect(h0).toMatchObject({ old_price: 10, new_price: 30, status: 'held' });

    const refused = await ctx.shopper.rpc('feed_held_decide', { p_ids: [h0.id], p_apply: true });
    expect(refused.error?.code).toBe('42501');
    const applied = await ctx.admin.rpc('feed_held_decide', { p_ids: [h0.id], p_apply: true });
    expect(applied).toMatchObject({ error: null, data: 1 });
    const rejected = await ctx.admin.rpc('feed_held_decide', { p_ids: [h1.id], p_apply: false });
    expect(rejected).toMatchObject({ error: null, data: 1 });

    offers = await ctx.fx.offersOf(seller.id);
    expect(offers.get('H0')).toMatchObject({ price_gbp: '30.00', price_source: 'feed' });
    expect(offers.get('H1')).toMatchObject({ price_gbp: '20.00', price_source: 'admin' });
    const { data: after } = await ctx.admin
      .from('feed_held_changes')
      .select('id, status')
      .eq('run_id', run.id);
    expect(new Map(after!.map((h) => [h.id, h.status]))).toEqual(
      new Map([
        [h0.id, 'applied'],
        [h1.id, 'rejected'],
      ]),
    );
  });
});

describe('who may run feeds (REQ-FEED-2)', () => {
  it('Run now with an ctx.admin token works; anon and non-admins are refused', async () => {
    const seller = await ctx.fx.seller();
    ctx.server.serve('/run-now.csv', {
      body: awinCsv([
        awinRow({
          merchant_product_id: 'R1',
          aw_deep_link: `${seller.site}/r1`,
          search_price: '1.00',
        }),
      ]),
    });
    const source = await ctx.fx.source({
      seller_id: seller.id,
      url: `${ctx.server.origin}/run-now.csv`,
      format: 'csv',
      mapping: AWIN_MAPPING,
    });

    const notAdmin = await ctx.shopper.rpc('feed_run_request', { p_source_id: source.id });
    expect(notAdmin.error?.code).toBe('42501');
    const anon = await anonClient().rpc('feed_run_request', { p_source_id: source.id });
    expect(anon.error).not.toBeNull();

    const runId = await ctx.fx.request(source.id);
    const { ANON_KEY } = stackEnv();
    for (const [who, token] of [
      ['anon', ANON_KEY],
      ['non-ctx.admin', ctx.shopperToken],
    ] as const) {
      for (const body of [{ mode: 'run', runId }, { mode: 'due' }]) {
        const res = await callFeedSync(body, token);
        expect([401, 403], `${who} ${body.mode}`).toContain(res.status);
      }
    }
    // "due" works on every source: the service's job, not an ctx.admin's.
    expect([401, 403]).toContain((await callFeedSync({ mode: 'due' }, ctx.adminToken)).status);
    expect((await runRow(runId)).status).toBe('queued');
    expect(ctx.server.seen('/run-now.csv')).toHaveLength(0);

    const res = await callFeedSync({ mode: 'run', runId }, ctx.adminToken);
    expect(res.status).toBe(200);
    const run = await waitForRun(runId);
    expect(run).toMatchObject({ status: 'done', trigger: 'manual', rows_read: 1, unmatched: 1 });
  });
});
