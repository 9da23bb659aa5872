// Offers at scale (REQ-OFF-2, REQ-OFF-3, REQ-OFF-4 at the REQ-FIND-1 / REQ-SCALE-3 goals): the
// storefront with several offers a product, against a running stack seeded with
// `npm run seed:bulk -- 999968 --offers 3` (1,000,000 products with the demo seed's 32):
// - the storefront's database calls as the anon role, EXPLAIN ANALYZE execution time, median of
//   --runs (default 20) after one warm-up: first page (all, one category), price high to low,
//   search (common word, rare word, typos: the queries of bench/storefront-search.ts), the product
//   page's product_offers and product_price_history; goals: page ≤ 10 ms, search ≤ 20 ms;
// - the refresh job private.refresh_offer_summaries() when many prices go stale at once: K
//   products whose cheapest offers were confirmed just past the stale limit (set up with the
//   offers' triggers off, as time passing would leave them; rolled back after each run);
// - that the seed's summary columns equal what the refresh computes (1,000 products);
// - a change of the stale limit on the Settings tab: the save, and one run of the job's sweep
//   (--no-settings skips it), in a transaction rolled back;
// - with --build: a production build pointed at the stack, its home page JS against
//   bench/budget.json, and keystroke to results in Chromium (bench/storefront-search.ts's browser
//   part); --app-url URL uses a build already served instead.
//
//   npx tsx bench/offers.ts --data-dir DIR [--runs 20] [--stale 1000,10000,100000]
//                           [--no-settings] [--build | --app-url URL] [--no-write]
// Prints a table and appends it to bench/RESULTS.md under "Offers at … products × … offers".
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BULK_LINK_PREFIX } from '../scripts/seed-bulk.ts';
import { build, preview } from 'vite';
import { readState, type StackEnv } from '../stack/stack.ts';
import { freePort } from '../tests/support/harness.ts';
import { kB, measureBundle } from './bundle.ts';
import { browserPart, QUERIES } from './storefront-search.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const RUNS = Number(opt('runs') ?? 20);
const STALE = (opt('stale') ?? '1000,10000,100000').split(',').map(Number);
const SETTINGS = !argv.includes('--no-settings');
const PAGE = 25; // the storefront asks for 24 + 1
const log = (line: string) => process.stderr.write(`offers: ${line}\n`);
const fmt = (n: number) => n.toLocaleString('en-GB');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const rows: [string, string, string][] = [];
const row = (measure: string, value: string, goal = '') => {
  rows.push([measure, value, goal]);
  log(`${measure} | ${value} | ${goal}`);
};
const notes: string[] = [];

/** Execution time as anon, median of RUNS after a warm-up, and the plan of the last run. */
async function explain(db: pg.Client, sql: string, params: unknown[]) {
  const times: number[] = [];
  let plan: string[] = [];
  let rowsOut = 0;
  for (let i = 0; i <= RUNS; i++) {
    await db.query('begin');
    await db.query('set local role anon');
    const r = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${sql}`, params);
    await db.query('rollback');
    plan = r.rows.map((x) => x['QUERY PLAN']);
    rowsOut = Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(plan[0] ?? '')?.[1] ?? 0);
    const t = plan.find((l) => l.startsWith('Execution Time'));
    if (i > 0) times.push(Number(/([\d.]+) ms/.exec(t ?? '')?.[1]));
  }
  return { ms: median(times), max: Math.max(...times), rows: rowsOut, plan };
}

function timed(label: string, r: Awaited<ReturnType<typeof explain>>, goal: number) {
  row(
    label,
    `${r.ms.toFixed(2)} ms (max ${r.max.toFixed(1)}; ${r.rows} rows)`,
    `≤ ${goal} ms: ${r.ms <= goal ? 'met' : 'MISSED'}`,
  );
  if (r.ms > goal / 2) notes.push(`plan (${label}):\n    ${r.plan.join('\n    ')}`);
}

async function storefront(db: pg.Client) {
  const page = 'select * from public.storefront_page($1, null, null, null, $2)';
  timed('first page, all', await explain(db, page, [null, PAGE]), 10);
  timed('first page, category Tennis', await explain(db, page, ['Tennis', PAGE]), 10);
  // A deep page: the cursor after the 1,000th product (price as the app sends it).
  const c = (
    await db.query<{ price: string; title: string; id: string }>(
      `select price_value::text as price, title, id from public.storefront_page(null, null, null, null, 1000)
        offset 999 limit 1`,
    )
  ).rows[0]!;
  timed(
    'page after 1,000 products',
    await explain(db, 'select * from public.storefront_page(null, $1, $2, $3::uuid, $4)', [
      c.price,
      c.title,
      c.id,
      PAGE,
    ]),
    10,
  );
  const search = 'select * from public.storefront_search($1, $2, $3, p_limit => $4)';
  timed('price high to low, all', await explain(db, search, [null, null, 'price-desc', PAGE]), 10);
  timed('newest, all', await explain(db, search, [null, null, 'newest', PAGE]), 10);
  for (const [label, q, cat, sort] of QUERIES) {
    timed(`search: ${label}`, await explain(db, search, [q, cat, sort, PAGE]), 20);
  }
}

async function productPage(db: pg.Client) {
  // Twenty products spread over the bulk catalogue, each its own offers (cache as a visitor
  // meets it: the product's rows were not read by the runs before).
  const ids = (
    await db.query<{ id: string; n: number }>(
      `select p.id, (select count(*) from public.offers o where o.product_id = p.id)::int as n
         from public.products p
        where p.link like $1 and p.link like '%0'
        order by p.link limit $2`,
      [`${BULK_LINK_PREFIX}%`, RUNS],
    )
  ).rows;
  notes.push(`product page: ${ids.length} products, offers each: ${ids.map((r) => r.n).join(',')}`);
  for (const [label, sql] of [
    ['product_offers', 'select * from public.product_offers($1)'],
    ['product_price_history (90 days)', 'select * from public.product_price_history($1, 90)'],
  ] as const) {
    const times: number[] = [];
    let plan: string[] = [];
    for (const { id } of ids) {
      await db.query('begin');
      await db.query('set local role anon');
      const r = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze) ${sql}`, [id]);
      await db.query('rollback');
      plan = r.rows.map((x) => x['QUERY PLAN']);
      const t = plan.find((l) => l.startsWith('Execution Time'));
      times.push(Number(/([\d.]+) ms/.exec(t ?? '')?.[1]));
    }
    row(
      `${label}, ${ids.length} products`,
      `${median(times).toFixed(2)} ms (max ${Math.max(...times).toFixed(1)})`,
      `≤ 10 ms: ${median(times) <= 10 ? 'met' : 'MISSED'}`,
    );
    notes.push(`plan (${label}, last product):\n    ${plan.join('\n    ')}`);
  }
}

/**
 * K bulk products whose current offers were all confirmed just past the stale limit, as the
 * clock leaves them (offers' and products' triggers off while setting it up, inside the
 * transaction); then the job, timed; then rollback, so every run starts from the same catalogue.
 */
async function refreshJob(db: pg.Client, k: number, runs: number) {
  const times: number[] = [];
  let changed = 0;
  for (let i = 0; i < runs; i++) {
    await db.query('begin');
    await db.query('alter table public.offers disable trigger user');
    await db.query('alter table public.products disable trigger user');
    await db.query(
      `create temporary table bench_stale on commit drop as
         select id from public.products where link like $1 order by link offset $2 limit $3`,
      [`${BULK_LINK_PREFIX}%`, i * 997, k],
    );
    const stale = `(select price_stale_after_days from public.store_settings limit 1)`;
    await db.query(
      `update public.offers o
          set price_confirmed_at = now() - (${stale} * interval '1 day') - interval '1 minute'
        where o.product_id in (select id from bench_stale)
          and o.price_confirmed_at > now() - ${stale} * interval '1 day'`,
    );
    await db.query(
      `update public.products p set price_fresh_until = now() - interval '1 minute'
        where p.id in (select id from bench_stale)`,
    );
    await db.query('alter table public.offers enable trigger user');
    await db.query('alter table public.products enable trigger user');
    const before = await db.query<{ n: string }>(
      'select count(*) as n from public.products where price_value is not null',
    );
    const t0 = performance.now();
    await db.query('select private.refresh_offer_summaries()');
    times.push(performance.now() - t0);
    const after = await db.query<{ n: string }>(
      'select count(*) as n from public.products where price_value is not null',
    );
    changed = Number(before.rows[0]!.n) - Number(after.rows[0]!.n);
    await db.query('rollback');
  }
  row(
    `refresh job, ${fmt(k)} products gone stale at once (median of ${runs})`,
    `${(median(times) / 1000).toFixed(2)} s (${fmt(changed)} lost their price)`,
    `${((median(times) / k) * 1000).toFixed(0)} µs a product`,
  );
}

/** The seed's summary columns against the job's: 1,000 products recomputed, then rollback. */
async function summaryCheck(db: pg.Client) {
  const cols = 'price_value, offer_count, price_checked_at, buy_offer_id, buy_link, buy_seller';
  await db.query('begin');
  await db.query(
    `create temporary table bench_before on commit drop as
       select id, ${cols}, price_fresh_until from public.products
        where link like $1 order by link desc limit 1000`,
    [`${BULK_LINK_PREFIX}%`],
  );
  await db.query(
    `update public.products set price_fresh_until = now() - interval '1 minute'
      where id in (select id from bench_before)`,
  );
  await db.query('select private.refresh_offer_summaries()');
  // Per column: how many of the 1,000 the job changed.
  const names = [...cols.split(', '), 'price_fresh_until'];
  const diff = await db.query<Record<string, string>>(
    `select ${names.map((c) => `count(*) filter (where b.${c} is distinct from p.${c}) as ${c}`).join(', ')}
       from bench_before b join public.products p using (id)`,
  );
  await db.query('rollback');
  const d = diff.rows[0]!;
  const differ = names.filter((c) => d[c] !== '0');
  row(
    "seed's offer summary = the job's (1,000 products)",
    differ.length ? differ.map((c) => `${c}: ${d[c]} differ`).join(', ') : 'all equal',
  );
}

/**
 * A new stale limit changes every product's summary: up to 10,000 products the Settings save
 * recomputes itself, a bigger catalogue is swept by the job, 10,000 products a run
 * (146_offer_refresh.sql). Timed: the save, then one run of the job; rolled back.
 */
async function settingsChange(db: pg.Client) {
  await db.query('begin');
  const t0 = performance.now();
  await db.query(
    'update public.store_settings set price_stale_after_days = price_stale_after_days + 1 where true',
  );
  const save = performance.now() - t0;
  const t1 = performance.now();
  const r = await db.query<{ n: number }>('select private.refresh_offer_summaries() as n');
  const run = performance.now() - t1;
  await db.query('rollback');
  const all = Number((await db.query('select count(*) as n from public.products')).rows[0].n);
  row('stale limit changed: the Settings save (1 run)', `${save.toFixed(0)} ms`);
  row(
    'stale limit changed: then one run of the job (1 run)',
    `${(run / 1000).toFixed(1)} s, ${fmt(r.rows[0]!.n)} products changed`,
    `${fmt(all)} products: ${Math.ceil(all / 10_000)} runs, one a minute`,
  );
}

/** A production build pointed at the stack, served by vite preview; its bundle figures. */
async function buildApp(env: StackEnv) {
  process.env.VITE_SUPABASE_URL = env.API_URL;
  process.env.VITE_SUPABASE_ANON_KEY = env.ANON_KEY;
  const outDir = path.join(os.tmpdir(), `mar-offers-bench-${process.pid}`);
  const configFile = path.join(ROOT, 'vite.config.ts');
  await build({ root: ROOT, configFile, mode: 'production', logLevel: 'warn', build: { outDir } });
  const budget = JSON.parse(readFileSync(path.join(ROOT, 'bench', 'budget.json'), 'utf8')) as {
    homeInitialJs: number;
  };
  const js = measureBundle(outDir).totals.homeJsGzip;
  row(
    'home initial JS (gzip)',
    kB(js),
    `budget ${kB(budget.homeInitialJs)}: ${js <= budget.homeInitialJs ? 'met' : 'MISSED'}`,
  );
  const port = await freePort();
  const server = await preview({
    root: ROOT,
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

async function sizes(db: pg.Client): Promise<string> {
  let products = '0';
  for (const t of [
    'public.products',
    'public.offers',
    'public.offer_price_history',
    'public.sellers',
  ]) {
    const r = await db.query<{ n: string; bytes: string }>(
      `select (select count(*) from ${t}) as n, pg_size_pretty(pg_total_relation_size($1)) as bytes`,
      [t],
    );
    const x = r.rows[0]!;
    if (t === 'public.products') products = x.n;
    row(`${t}: rows, size with indexes`, `${fmt(Number(x.n))}, ${x.bytes}`);
  }
  return products;
}

const dataDir = opt('data-dir');
const state = dataDir ? readState(path.resolve(dataDir)) : null;
if (!state?.ready) throw new Error('needs a running stack: --data-dir DIR');
const load0 = os.loadavg();
const started = Date.now();
const db = new pg.Client({ connectionString: state.env.DB_URL });
await db.connect();
let products = '?';
let perProduct = '?';
try {
  products = await sizes(db);
  perProduct = (
    await db.query<{ n: string }>(
      `select round(avg(n), 1)::text as n from (select count(*) as n from public.offers o
         join public.products p on p.id = o.product_id where p.link like $1 group by p.id) as x`,
      [`${BULK_LINK_PREFIX}%`],
    )
  ).rows[0]!.n;
  await storefront(db);
  await productPage(db);
  await summaryCheck(db);
  for (const k of STALE) await refreshJob(db, k, k >= 100_000 ? 1 : k >= 10_000 ? 5 : RUNS);
  if (SETTINGS) await settingsChange(db);
} finally {
  await db.end();
}
const app = argv.includes('--build') ? await buildApp(state.env) : null;
const appUrl = app?.url ?? opt('app-url');
try {
  if (appUrl) {
    await browserPart(
      appUrl,
      `${fmt(Number(products))} products`,
      (_s, measure, value) => row(measure, value, '≤ 150 ms'),
      process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    );
  }
} finally {
  await app?.close();
}

const cpus = os.cpus();
const load1 = os.loadavg();
const report = [
  '',
  `## Offers at ${fmt(Number(products))} products × ${Number(perProduct)} offers, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
  '',
  `Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length}, shared; load average ${load0[0]!.toFixed(1)} at the start, ${load1[0]!.toFixed(1)} at the end. Took ${Math.round((Date.now() - started) / 1000)} s. Database times: EXPLAIN ANALYZE as anon, median of ${RUNS} after a warm-up (bench/offers.ts).`,
  '',
  '| measure | value | goal |',
  '|---|---|---|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
  '',
  ...(notes.length
    ? ['<details><summary>Plans</summary>', '', '```', ...notes, '```', '', '</details>', '']
    : []),
].join('\n');
console.log(report);
if (!argv.includes('--no-write')) appendFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), report);
