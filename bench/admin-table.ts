// The admin Products table at 1,000, 100,000 and 1,000,000 products (REQ-SCALE-1): first rows shown
// after login in Chromium and the JS heap then (after a garbage collection), a search from the
// keystroke to its results shown (both by the page's own clock, from a MutationObserver), and
// the database time of the page and search queries (EXPLAIN ANALYZE of the SQL
// public.admin_product_page runs). Medians of --runs (default 3).
//
//   npm run bench -- --only admin-table        # from bench/run.ts, in a throwaway stack
//   npx tsx bench/admin-table.ts --data-dir .stack --sizes 1000000 [--no-write]
//                                               # against a running stack (seeding 1,000,000
//                                               # takes about half an hour on 2 busy cores)
// Seeds with scripts/seed-bulk.ts (skipped when the catalogue already has the bulk rows asked
// for). Prints a table and appends it to bench/RESULTS.md under "Admin product table".
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { chromium, type Page } from '@playwright/test';
import { build, preview } from 'vite';
import { freePort, startHarness } from '../tests/support/harness.ts';
import { BULK_LINK_PREFIX, seedBulk } from '../scripts/seed-bulk.ts';
import { readState, type StackEnv } from '../stack/stack.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = { email: 'admin@mar-online-store.test', password: 'admin123' };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const sizes = (opt('sizes') ?? '1000,100000,1000000').split(',').map(Number);
const runs = Number(opt('runs') ?? 3);
const dataDir = opt('data-dir');
const log = (line: string) => process.stderr.write(`admin-table: ${line}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A running stack (--data-dir) with the app built for it, or a throwaway harness. */
async function target(): Promise<{ env: StackEnv; baseUrl: string; stop(): Promise<void> }> {
  if (!dataDir) {
    const h = await startHarness({ log });
    return { env: h.stackEnv, baseUrl: h.baseUrl, stop: h.stop };
  }
  const state = readState(path.resolve(dataDir));
  if (!state?.ready) throw new Error(`no running stack in ${dataDir}`);
  process.env.VITE_SUPABASE_URL = state.env.API_URL;
  process.env.VITE_SUPABASE_ANON_KEY = state.env.ANON_KEY;
  const outDir = path.join(os.tmpdir(), `mar-admin-table-${process.pid}`);
  const configFile = path.join(ROOT, 'vite.config.ts');
  await build({ root: ROOT, configFile, mode: 'production', logLevel: 'warn', build: { outDir } });
  const port = await freePort();
  const server = await preview({
    root: ROOT,
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
  return {
    env: state.env,
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.httpServer.close(() => resolve())),
  };
}

/** Milliseconds the database spends on the page and search queries, as the function builds them. */
async function databaseTimes(dbUrl: string, search: string) {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    await db.query('set pg_trgm.word_similarity_threshold = 0.5');
    const time = async (query: object) => {
      const built = await db.query<{
        where_sql: string;
        cat: string;
        search_key: string;
        search_like: string;
        order_sql: string;
      }>(
        `select f.*, private.admin_product_order($1::jsonb) as order_sql
           from private.admin_product_filter($1::jsonb) f`,
        [JSON.stringify(query)],
      );
      const f = built.rows[0]!;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        // The function's own WHERE and ORDER BY; the one-row join only types all three parameters.
        const plan = await db.query<{ 'QUERY PLAN': [{ 'Execution Time': number }] }>(
          `explain (analyze, format json)
           select p.* from public.products p, (select $1::text, $2::text, $3::text) as params
            where ${f.where_sql} order by ${f.order_sql} limit 10`,
          [f.cat, f.search_key, f.search_like],
        );
        times.push(plan.rows[0]!['QUERY PLAN'][0]['Execution Time']);
      }
      return median(times);
    };
    return {
      page: await time({ sort: 'price', ascending: true }),
      search: await time({ search, sort: 'price', ascending: true }),
    };
  } finally {
    await db.end();
  }
}

/**
 * Records, by the page's own clock, when the table first has a row (`__firstRowAt`) and, after
 * `searchFor` is set, when a row holds that text (`__searchedAt`), and when the search box got
 * its input (`__typedAt`). A MutationObserver sees the DOM change itself; Playwright's waitFor
 * polls at up to 100–500 ms steps, which would add its own delay to the figures.
 */
// Plain script text, not a function: tsx compiles functions with helpers (`__name`) that the
// page does not have.
const WATCH_TABLE = `(() => {
  const table = ${JSON.stringify('table[aria-label="All products"]')};
  const check = () => {
    const rows = document.querySelectorAll(table + ' tbody tr');
    if (rows.length && window.__firstRowAt === undefined) window.__firstRowAt = performance.now();
    const wanted = window.__searchFor;
    if (wanted && window.__searchedAt === undefined)
      for (const row of rows)
        if ((row.textContent || '').includes(wanted)) window.__searchedAt = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  document.addEventListener('input', () => {
    if (window.__searchFor && window.__typedAt === undefined) window.__typedAt = performance.now();
  }, true);
})();`;

/** A number the page recorded, once it is there. */
async function recorded(page: Page, name: string): Promise<number> {
  const handle = await page.waitForFunction(
    (key) => (window as unknown as Record<string, number | undefined>)[key],
    name,
  );
  return (await handle.jsonValue()) as number;
}

async function browserTimes(env: StackEnv, baseUrl: string, search: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const shown: number[] = [];
    const heap: number[] = [];
    const searched: number[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: 1280, height: 900 },
      });
      const page = await context.newPage();
      await page.addInitScript({ content: WATCH_TABLE });
      await useSession(page, env, await sessionFor(env, ADMIN.email, ADMIN.password));
      await page.goto('/admin', { waitUntil: 'commit' });
      // Since navigation start, by the page's own clock: the session is already there, as
      // right after the login form sends the admin to /admin.
      shown.push(await recorded(page, '__firstRowAt'));
      const cdp = await context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      heap.push((await cdp.send('Runtime.getHeapUsage')).usedSize);
      const box = page.getByRole('searchbox', { name: 'Search title, catagory or comment' });
      await page.evaluate((text) => {
        (window as unknown as Record<string, unknown>).__searchFor = text;
      }, search);
      await box.fill(search);
      const typed = await recorded(page, '__typedAt');
      searched.push((await recorded(page, '__searchedAt')) - typed);
      await context.close();
    }
    return { shown: median(shown), heap: median(heap), searched: median(searched) };
  } finally {
    await browser.close();
  }
}

const rows: string[] = [];
const t = await target();
try {
  for (const size of sizes) {
    const db = new pg.Client({ connectionString: t.env.DB_URL });
    await db.connect();
    const have = await db.query<{ n: string }>(
      'select count(*) as n from public.products where link like $1',
      [`${BULK_LINK_PREFIX}%`],
    );
    await db.end();
    if (Number(have.rows[0]!.n) !== size) {
      log(`seeding ${size} products`);
      const started = Date.now();
      await seedBulk(t.env.DB_URL, size);
      log(`seeded in ${Math.round((Date.now() - started) / 1000)} s`);
    }
    // A serial in the middle of the bulk rows: one product matches.
    const search = `BK-${String(Math.ceil(size / 2)).padStart(5, '0')})`;
    const dbTimes = await databaseTimes(t.env.DB_URL, search);
    const b = await browserTimes(t.env, t.baseUrl, search);
    const line = `| ${size.toLocaleString('en-GB')} | ${Math.round(b.shown)} ms | ${(b.heap / 2 ** 20).toFixed(1)} MB | ${Math.round(b.searched)} ms | ${dbTimes.page.toFixed(1)} ms | ${dbTimes.search.toFixed(1)} ms |`;
    log(line);
    rows.push(line);
  }
} finally {
  await t.stop();
}

const cpus = os.cpus();
const report = [
  '',
  `## Admin product table, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
  '',
  `Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length}, load average ${os.loadavg()[0]!.toFixed(1)} at the end. Medians of ${runs} runs (bench/admin-table.ts).`,
  '',
  '| bulk products | first rows after login | JS heap after GC | search to results | DB: first page | DB: search |',
  '|---|---|---|---|---|---|',
  ...rows,
  '',
].join('\n');
console.log(report);
if (!argv.includes('--no-write'))
  appendFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), `${report}\n`);
