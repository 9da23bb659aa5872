// Shared set-up for the feed-sync tests (REQ-FEED-2..6, docs/decisions/0240-0242): a category,
// a feed seller and products/offers of the file's own, feed sources written by an admin, and a
// driver that runs a feed as Cron does: the admin queues the run (feed_run_request), the service
// key POSTs the real `feed-sync` function {"mode":"run","runId"}, the function chains itself,
// runs above the inline-apply threshold are applied by private.feed_apply_staged() (the
// 'feed-apply' Cron job, called here as the job would), and the final status is read back.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startFeedServer, type FeedServer } from '../support/feed-servers.ts';
import {
  createAdmin,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  sql,
  stackEnv,
  type TestUser,
} from '../support/stack.ts';
import { deleteUsers } from './db-test-helpers.ts';
import { uniqueId, uniqueName } from '../support/names.ts';

export const service = serviceClient();

export const FINAL = ['done', 'unchanged', 'failed'];

export interface FeedRun {
  id: string;
  source_id: string;
  status: string;
  trigger: string;
  http_status: number | null;
  etag: string | null;
  bytes_read: string | null;
  resume_bytes: string | null;
  invocations: number;
  peak_rss_mb: number | null;
  peak_heap_mb: number | null;
  rows_read: number;
  matched: number;
  added: number;
  changed: number;
  unchanged: number;
  unmatched: number;
  refused: number;
  held: number;
  made_unavailable: number;
  refused_by_code: Record<string, number>;
  refused_sample: { line: number; codes: string[] }[];
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface FeedOffer {
  id: string;
  product_id: string;
  seller_id: string;
  link: string;
  price_gbp: string | null;
  delivery_gbp: string | null;
  availability: string | null;
  price_confirmed_at: Date | null;
  price_source: string;
  seller_product_id: string | null;
  feed_source_id: string | null;
}

/** A valid GTIN-13 (EAN) nobody else uses: 12 random digits and the check digit. */
export function newGtin(): string {
  const body = `20${String(randomInt(0, 1e10)).padStart(10, '0')}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + String((10 - (sum % 10)) % 10);
}

/** POSTs the feed-sync function with `token` as bearer (default: the service role key). */
export async function callFeedSync(
  body: object,
  token = stackEnv().SERVICE_ROLE_KEY,
): Promise<{ status: number; json: Record<string, unknown> | null }> {
  const env = stackEnv();
  const res = await fetch(`${env.API_URL}/functions/v1/feed-sync`, {
    method: 'POST',
    headers: {
      apikey: env.ANON_KEY,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { raw: text };
  }
  return { status: res.status, json };
}

export async function runRow(runId: string): Promise<FeedRun> {
  const rows = await sql<FeedRun>('select * from public.feed_runs where id = $1', [runId]);
  if (!rows[0]) throw new Error(`no feed run ${runId}`);
  return rows[0];
}

export async function stagedCount(runId: string): Promise<number> {
  const rows = await sql<{ n: string }>(
    'select count(*) as n from private.feed_staged_rows where run_id = $1',
    [runId],
  );
  return Number(rows[0]!.n);
}

/**
 * Waits for the run's final status, applying staged runs as the 'feed-apply' Cron job does.
 * `onPoll` sees each state (e.g. to record how many rows were staged at once).
 */
export async function waitForRun(
  runId: string,
  {
    timeoutMs = 90_000,
    onPoll,
  }: { timeoutMs?: number; onPoll?: (run: FeedRun) => Promise<void> } = {},
): Promise<FeedRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await runRow(runId);
    if (onPoll) await onPoll(run);
    if (FINAL.includes(run.status)) return run;
    if (run.status === 'staged') await sql('select private.feed_apply_staged()');
    if (Date.now() > deadline)
      throw new Error(`feed run ${runId} still ${run.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export class FeedFixtures {
  readonly cat = uniqueId('Feeds Cat');
  /** The makers' site all products link to (one seller for all of them). */
  readonly makerHost = `${randomUUID().slice(0, 8)}.maker.feeds.example`;
  private sellerIds: string[] = [];
  private sourceIds: string[] = [];

  constructor(readonly admin: () => SupabaseClient) {}

  async setUp(): Promise<void> {
    const { error } = await service.from('catagories').insert({ title: this.cat });
    if (error) throw new Error(error.message);
  }

  async tearDown(): Promise<void> {
    if (this.sourceIds.length)
      await sql('delete from public.feed_sources where id = any($1::uuid[])', [this.sourceIds]);
    await service.from('products').delete().eq('cat', this.cat);
    await service.from('catagories').delete().eq('title', this.cat);
    if (this.sellerIds.length) await service.from('sellers').delete().in('id', this.sellerIds);
    await service.from('sellers').delete().eq('host', this.makerHost);
  }

  /** A seller of its own (the feed's shop). */
  async seller(): Promise<{ id: string; site: string }> {
    const site = `https://${randomUUID().slice(0, 8)}.shop.feeds.example`;
    const { data, error } = await service
      .from('sellers')
      .insert({ name: uniqueName('Feed Seller'), site })
      .select('id, site')
      .single();
    if (error) throw new Error(error.message);
    this.sellerIds.push(data.id as string);
    return data as { id: string; site: string };
  }

  /** `count` products (admin texts fixed here), with a GTIN when asked. */
  async products(
    count: number,
    { gtin = false }: { gtin?: boolean } = {},
  ): Promise<{ id: string; title: string; gtin: string | null }[]> {
    const rows = Array.from({ length: count }, (_, i) => ({
      title: uniqueName(`Feed Product ${i}`),
      cat: this.cat,
      price: '£50.00',
      com: 'Admin text the feed must not touch',
      image: '/products/match-football.svg',
      link: `https://${this.makerHost}/p/${randomUUID().slice(0, 8)}`,
    }));
    const out: { id: string; title: string; gtin: string | null }[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const { data, error } = await service
        .from('products')
        .insert(rows.slice(i, i + 500))
        .select('id, title');
      if (error) throw new Error(error.message);
      for (const p of data) out.push({ id: p.id as string, title: p.title as string, gtin: null });
    }
    if (gtin) {
      for (const p of out) p.gtin = newGtin();
      await sql(
        `update public.products p set gtin = x.gtin
           from unnest($1::uuid[], $2::text[]) as x(id, gtin) where p.id = x.id`,
        [out.map((p) => p.id), out.map((p) => p.gtin)],
      );
    }
    return out;
  }

  /** Offers of `sellerId` for the products, with seller product ids and prices. */
  async offers(
    sellerId: string,
    rows: {
      productId: string;
      sellerProductId?: string;
      link: string;
      price: number | null;
      delivery?: number | null;
      availability?: string;
      confirmedDaysAgo?: number;
    }[],
  ): Promise<void> {
    await sql(
      `insert into public.offers (product_id, seller_id, link, price_gbp, delivery_gbp,
                                  availability, price_confirmed_at, price_source, seller_product_id)
       select x.product_id, $1, x.link, x.price, x.delivery, x.availability,
              now() - make_interval(days => x.days), 'admin', x.spid
         from unnest($2::uuid[], $3::text[], $4::numeric[], $5::numeric[], $6::text[],
                     $7::int[], $8::text[])
           as x(product_id, link, price, delivery, availability, days, spid)`,
      [
        sellerId,
        rows.map((r) => r.productId),
        rows.map((r) => r.link),
        rows.map((r) => r.price),
        rows.map((r) => r.delivery ?? null),
        rows.map((r) => r.availability ?? 'in_stock'),
        rows.map((r) => r.confirmedDaysAgo ?? 3),
        rows.map((r) => r.sellerProductId ?? null),
      ],
    );
  }

  /** A feed source written by the admin (REQ-FEED-1), reading `url`. */
  async source(fields: Record<string, unknown> & { seller_id: string; url: string }) {
    const { data, error } = await this.admin()
      .from('feed_sources')
      .insert({ name: uniqueName('Feed'), origin: 'url', format: 'awin_csv', ...fields })
      .select('id, name')
      .single();
    if (error) throw new Error(`feed source: ${error.message}`);
    this.sourceIds.push(data.id as string);
    return data as { id: string; name: string };
  }

  /** Queues a manual run as the admin ("Run now"); returns the run id. */
  async request(sourceId: string): Promise<string> {
    const { data, error } = await this.admin().rpc('feed_run_request', { p_source_id: sourceId });
    if (error) throw new Error(`feed_run_request: ${error.message}`);
    return data as string;
  }

  /** Run now, driven as Cron would: the service key starts the run; waits for its end. */
  async run(sourceId: string, wait: Parameters<typeof waitForRun>[1] = {}) {
    const runId = await this.request(sourceId);
    const started = Date.now();
    const answer = await callFeedSync({ mode: 'run', runId });
    if (answer.status !== 200)
      throw new Error(`feed-sync answered ${answer.status}: ${JSON.stringify(answer.json)}`);
    const run = await waitForRun(runId, wait);
    return { run, answer: answer.json, ms: Date.now() - started };
  }

  /** The feed seller's offers, by seller product id (or product id when it has none). */
  async offersOf(sellerId: string): Promise<Map<string, FeedOffer>> {
    const rows = await sql<FeedOffer>(
      `select id, product_id, seller_id, link, price_gbp::text, delivery_gbp::text, availability,
              price_confirmed_at, price_source, seller_product_id, feed_source_id
         from public.offers where seller_id = $1`,
      [sellerId],
    );
    return new Map(rows.map((o) => [o.seller_product_id ?? o.product_id, o]));
  }

  /** The admin's texts of the products, for "untouched" checks. */
  async productTexts(): Promise<unknown[]> {
    return sql(
      `select id, title, com, price, cat, image, link from public.products
        where cat = $1 order by id`,
      [this.cat],
    );
  }
}

/** Activity entries of kind 'feed_run' for a source name since `since`. */
export async function feedRunEntries(name: string, since: Date) {
  return sql<{ subject: string; after: Record<string, unknown> }>(
    `select subject, after from public.activity_log
      where kind = 'feed_run' and subject = $1 and created_at >= $2`,
    [name, since],
  );
}

export interface FeedTestContext {
  fx: FeedFixtures;
  server: FeedServer;
  admin: SupabaseClient;
  adminToken: string;
  /** A signed-in account that is not an admin. */
  shopper: SupabaseClient;
  shopperToken: string;
}

/**
 * Registers the file's set-up and clean-up (a feed server, an admin, a non-admin account and
 * the fixtures); the returned object is filled in before the first test.
 */
export function feedTestContext(): FeedTestContext {
  const users: TestUser[] = [];
  const ctx = {} as FeedTestContext;
  const tokenOf = async (c: SupabaseClient) =>
    (await c.auth.getSession()).data.session!.access_token;
  beforeAll(async () => {
    ctx.server = await startFeedServer();
    const a = await createAdmin();
    const s = await createConfirmedUser();
    users.push(a, s);
    ctx.admin = await signedInClient(a);
    ctx.shopper = await signedInClient(s);
    ctx.adminToken = await tokenOf(ctx.admin);
    ctx.shopperToken = await tokenOf(ctx.shopper);
    ctx.fx = new FeedFixtures(() => ctx.admin);
    await ctx.fx.setUp();
  });
  afterAll(async () => {
    await ctx.fx?.tearDown();
    await deleteUsers(service, users);
    await ctx.server?.close();
  });
  return ctx;
}
