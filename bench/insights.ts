// Buy Now clicks and the admin Insights tab (REQ-INS-1, REQ-INS-3) with 1,000,000 click events over
// 10,000 products: the database time of each Insights query (EXPLAIN ANALYZE of the functions the
// tab calls, run as a signed-in admin, medians of --runs), the tab in Chromium (from the click on
// the tab to its figures shown, and a period change), and counting throughput through the
// gateway (autocannon POSTs to /rest/v1/rpc/count_buy_now_click, each with its own page view).
//
//   npm run bench -- --only insights     # from bench/run.ts, in a throwaway stack
//   npx tsx bench/insights.ts [--runs 5] [--duration 15] [--connections 20] [--no-write]
//
// The clicks are written straight into the daily roll-ups as the counting function would have
// left them (1,000,000 calls through the API would take most of an hour here): products drawn
// with a skew (a few popular, a long tail), days spread over the last 120, half from the home
// page and half from a catagory page. Prints a table and appends it to bench/RESULTS.md.
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { chromium, type Page } from '@playwright/test';
import { startHarness } from '../tests/support/harness.ts';
import { seedBulk } from '../scripts/seed-bulk.ts';
import type { StackEnv } from '../stack/stack.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = { email: 'admin@mar-online-store.test', password: 'admin123' };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const PRODUCTS = 10_000;
const EVENTS = 1_000_000;

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const runs = Number(opt('runs') ?? 5);
const duration = Number(opt('duration') ?? 15);
const connections = Number(opt('connections') ?? 20);
const log = (line: string) => process.stderr.write(`insights: ${line}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The roll-ups as 1,000,000 counted clicks would leave them. */
async function seedClicks(db: pg.Client): Promise<{ byProduct: number; byPage: number }> {
  await db.query('begin');
  await db.query('truncate public.buy_now_clicks_by_product, public.buy_now_clicks_by_page');
  await db.query(
    `create temp table bench_products on commit drop as
       select id, cat, (row_number() over (order by id) - 1)::int as n
         from public.products order by id limit $1`,
    [PRODUCTS],
  );
  await db.query(
    `create temp table bench_events on commit drop as
       select floor($1 * power(random(), 2.5))::int as n,
              private.click_today() - floor(random() * 120)::int as day,
              random() < 0.5 as home
         from generate_series(1, $2)`,
    [PRODUCTS, EVENTS],
  );
  const byProduct = await db.query(
    `insert into public.buy_now_clicks_by_product (day, product_id, clicks)
     select e.day, p.id, count(*) from bench_events e join bench_products p using (n)
      group by 1, 2`,
  );
  const byPage = await db.query(
    `insert into public.buy_now_clicks_by_page (day, category, page, clicks)
     select e.day, p.cat, case when e.home then '/' else '/?cat=' || replace(p.cat, ' ', '+') end,
            count(*)
       from bench_events e join bench_products p using (n)
      group by 1, 2, 3`,
  );
  await db.query('commit');
  await db.query('vacuum analyze public.buy_now_clicks_by_product, public.buy_now_clicks_by_page');
  return { byProduct: byProduct.rowCount ?? 0, byPage: byPage.rowCount ?? 0 };
}

const QUERIES = (days: number) => ({
  'clicks per day': `select * from public.insights_clicks_per_day(${days})`,
  'top products': `select * from public.insights_top_products(${days}, 20, 0)`,
  'top catagories': `select * from public.insights_top_categories(${days}, 20)`,
  'products without clicks': `select * from public.insights_products_without_clicks(${days}, 50)`,
});

/** Milliseconds each Insights function takes in the database, as the signed-in admin. */
async function databaseTimes(db: pg.Client, accessToken: string) {
  const claims = Buffer.from(accessToken.split('.')[1]!, 'base64url').toString();
  const times: Record<string, number> = {};
  for (const days of [7, 30, 90]) {
    for (const [name, query] of Object.entries(QUERIES(days))) {
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        await db.query('begin');
        await db.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
        await db.query('set local role authenticated');
        const plan = await db.query<{ 'QUERY PLAN': [{ 'Execution Time': number }] }>(
          `explain (analyze, format json) ${query}`,
        );
        await db.query('rollback');
        samples.push(plan.rows[0]!['QUERY PLAN'][0]['Execution Time']);
      }
      times[`${name}, ${days} days`] = median(samples);
    }
  }
  return times;
}

async function insightsShown(page: Page, days: number) {
  const section = page.locator(`[data-testid="click-insights"][aria-busy="false"]`);
  await section.getByTestId('top-products').waitFor();
  await page.getByRole('figure', { name: new RegExp(`last ${days} days`) }).waitFor();
}

async function browserTimes(env: StackEnv, baseUrl: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const session = await sessionFor(env, ADMIN.email, ADMIN.password);
  try {
    const opened: number[] = [];
    const switched: number[] = [];
    for (let i = 0; i < Math.min(runs, 3); i++) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: 1280, height: 900 },
      });
      const page = await context.newPage();
      await useSession(page, env, session);
      await page.goto('/admin');
      const tab = page.getByRole('tab', { name: 'Insights' });
      await tab.waitFor();
      // From the click on the tab (its chunk and the chart library not loaded yet) to the
      // figures of the default period (30 days) shown.
      const t0 = await page.evaluate(() => performance.now());
      await tab.click();
      await insightsShown(page, 30);
      opened.push((await page.evaluate(() => performance.now())) - t0);
      const t1 = await page.evaluate(() => performance.now());
      await page.getByText('Last 90 days', { exact: true }).click();
      await insightsShown(page, 90);
      switched.push((await page.evaluate(() => performance.now())) - t1);
      await context.close();
    }
    return { opened: median(opened), switched: median(switched) };
  } finally {
    await browser.close();
  }
}

/** Clicks a second through the gateway, each a new page view of a random bulk product. */
async function throughput(env: StackEnv, db: pg.Client) {
  const ids = (
    await db.query<{ id: string }>('select id from public.products order by random() limit 1000')
  ).rows.map((r) => r.id);
  const total = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          'select sum(clicks) as n from public.buy_now_clicks_by_product',
        )
      ).rows[0]!.n,
    );
  // One machine is one source: the per-source limit is lifted for the run and put back after.
  const limit = (
    await db.query<{ l: number }>('select per_source_per_minute as l from private.click_settings')
  ).rows[0]!.l;
  await db.query('update private.click_settings set per_source_per_minute = 1000000000');
  try {
    const before = await total();
    const result = await autocannon({
      url: `${env.API_URL}/rest/v1/rpc/count_buy_now_click`,
      method: 'POST',
      headers: {
        apikey: env.ANON_KEY,
        authorization: `Bearer ${env.ANON_KEY}`,
        'content-type': 'application/json',
        'user-agent': BROWSER_UA,
      },
      connections,
      duration,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              p_product_id: ids[Math.floor(Math.random() * ids.length)],
              p_page: '/',
              p_page_view: crypto.randomUUID(),
            }),
          }),
        },
      ],
    });
    const counted = (await total()) - before;
    return { result, counted };
  } finally {
    await db.query('update private.click_settings set per_source_per_minute = $1', [limit]);
  }
}

const harness = await startHarness({ log });
const lines: string[] = [];
const row = (measure: string, value: string) => {
  lines.push(`| ${measure} | ${value} |`);
  log(`${measure} | ${value}`);
};
try {
  const env = harness.stackEnv;
  log(`seeding ${PRODUCTS} products`);
  await seedBulk(env.DB_URL, PRODUCTS);
  const db = new pg.Client({ connectionString: env.DB_URL });
  await db.connect();
  try {
    log(`seeding ${EVENTS} click events`);
    const started = Date.now();
    const rollups = await seedClicks(db);
    row(
      'roll-up rows for 1,000,000 clicks (120 days)',
      `${rollups.byProduct.toLocaleString('en-GB')} by product, ${rollups.byPage.toLocaleString('en-GB')} by catagory and page (written in ${Math.round((Date.now() - started) / 1000)} s)`,
    );
    const session = JSON.parse(await sessionFor(env, ADMIN.email, ADMIN.password)) as {
      access_token: string;
    };
    // The once-a-day step: per-product totals of the last 7/30/90 days before today.
    const refresh: number[] = [];
    for (let i = 0; i < 3; i++) {
      await db.query('update private.click_windows_state set computed_for = null');
      const t0 = performance.now();
      await db.query('select private.refresh_click_windows()');
      refresh.push(performance.now() - t0);
    }
    row(
      'daily window totals (once a day: first click or first read)',
      `${median(refresh).toFixed(0)} ms`,
    );
    const times = await databaseTimes(db, session.access_token);
    for (const [name, t] of Object.entries(times)) row(`DB: ${name}`, `${t.toFixed(1)} ms`);
    const b = await browserTimes(env, harness.baseUrl);
    row('tab click → figures shown (30 days, chunk not loaded yet)', `${Math.round(b.opened)} ms`);
    row('period change → figures shown (90 days)', `${Math.round(b.switched)} ms`);
    const { result, counted } = await throughput(env, db);
    row(
      `counting through the gateway (${connections} connections, ${duration} s)`,
      `${Math.round(result.requests.average)} requests/s, ${Math.round(counted / duration)} clicks/s counted, latency p50 ${result.latency.p50} ms / p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx, ${result.errors} errors`,
    );
  } finally {
    await db.end();
  }
} finally {
  await harness.stop();
}

const cpus = os.cpus();
const report = [
  '',
  `## Insights (REQ-INS-3), ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
  '',
  `Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length}, load average ${os.loadavg()[0]!.toFixed(1)} at the end (shared with other work). ${PRODUCTS.toLocaleString('en-GB')} bulk products, ${EVENTS.toLocaleString('en-GB')} click events; DB times are EXPLAIN ANALYZE medians of ${runs} runs as the signed-in admin; browser times medians of ${Math.min(runs, 3)} (bench/insights.ts).`,
  '',
  '| measure | value |',
  '|---|---|',
  ...lines,
  '',
].join('\n');
console.log(report);
if (!argv.includes('--no-write'))
  appendFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), `${report}\n`);
