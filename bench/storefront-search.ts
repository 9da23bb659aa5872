// Storefront search (REQ-FIND-1) at 10,000 and 1,000,000 products:
// - the query in the database: public.storefront_search as anon (EXPLAIN ANALYZE, median of 5
//   after a warm-up) for a common word (thousands of matches), the same in one category and in
//   the other two orders, a rare word, a typo of a common word, a typo of a rare word, no match;
// - keystroke to results in Chromium: from the input event of the search box to the results
//   announced (debounce + request + render), median of 5 searches.
// bench/run.ts runs it as part `search` (`npm run bench -- --only search`) with its throwaway
// stack and production build. Goals (REQ-FIND-1): query ≤ 20 ms, keystroke to results ≤ 150 ms.
// Standalone, against a running stack and a build of the app pointed at it, measuring the
// catalogue as it is (no seeding):
//   npx tsx bench/storefront-search.ts --data-dir DIR --app-url http://127.0.0.1:4173
import path from 'node:path';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { chromium } from '@playwright/test';
import { seedBulk } from '../scripts/seed-bulk.ts';
import { DEFAULT_DATA_DIR, readState, type StackEnv } from '../stack/stack.ts';

type Row = (section: string, measure: string, value: string) => void;

const SEEDED = 32; // supabase/seed.sql's products
const PAGE = 25; // the storefront asks for 24 + 1

/** Search texts the database is timed with: [label, query, category, sort]. */
export const QUERIES: [string, string, string | null, string][] = [
  ['common word "tennis"', 'tennis', null, 'price-asc'],
  ['common word in its category', 'racket', 'Tennis', 'price-asc'],
  ['common word, price high to low', 'tennis', null, 'price-desc'],
  ['common word, newest', 'tennis', null, 'newest'],
  ['two common words', 'navy gloves', null, 'price-asc'],
  ['rare word "butyl"', 'butyl', null, 'price-asc'],
  ['serial number', 'bk-00777', null, 'price-asc'],
  ['typo of a common word "tenis"', 'tenis', null, 'price-asc'],
  ['typo of a rare word "butly"', 'butly', null, 'price-asc'],
  ['nothing matches', 'zqxwv', null, 'price-asc'],
];
/** Typed into the box in the browser (each from an empty box). */
const TYPED = ['racket', 'tenis', 'butyl', 'navy gloves', 'helmet'];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function explainMs(db: pg.Client, sql: string, params: unknown[]) {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < 6; i++) {
    await db.query('begin');
    await db.query('set local role anon');
    const plan = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze) ${sql}`, params);
    await db.query('rollback');
    const lines = plan.rows.map((r) => r['QUERY PLAN']);
    const time = lines.find((l) => l.startsWith('Execution Time'));
    rows = Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(lines[0] ?? '')?.[1] ?? 0);
    if (i > 0) times.push(Number(/([\d.]+) ms/.exec(time ?? '')?.[1]));
  }
  return { ms: median(times), rows };
}

async function databasePart(db: pg.Client, size: string, row: Row) {
  const sql = 'select * from public.storefront_search($1, $2, $3, p_limit => $4)';
  for (const [label, q, cat, sort] of QUERIES) {
    const r = await explainMs(db, sql, [q, cat, sort, PAGE]);
    row('search', `${size}: query, ${label}`, `${r.ms.toFixed(2)} ms (${r.rows} rows)`);
  }
  // A deep page: the cursor after the 1,000th product of the common word.
  const deep = await db.query<{ price: string; title: string; id: string }>(
    `select price, title, id from public.storefront_search('tennis', p_limit => 1000)
      offset 999 limit 1`,
  );
  const c = deep.rows[0];
  if (c) {
    const r = await explainMs(
      db,
      'select * from public.storefront_search($1, p_after_price => $2, p_after_title => $3, p_after_id => $4::uuid, p_limit => $5)',
      ['tennis', c.price, c.title, c.id, PAGE],
    );
    row('search', `${size}: query, common word, page after 1,000`, `${r.ms.toFixed(2)} ms`);
  }
}

export async function browserPart(appUrl: string, size: string, row: Row, chromiumPath?: string) {
  const browser = await chromium.launch({
    executablePath: chromiumPath && existsSync(chromiumPath) ? chromiumPath : undefined,
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(appUrl);
    await page.getByTestId('product-card').first().waitFor();
    const box = page.getByTestId('search-input');
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      for (const term of TYPED) {
        // The page's own clock: from the input event to the announcement of the results.
        await page.evaluate(() => {
          const w = window as unknown as { t0?: number; t1?: number };
          w.t0 = undefined;
          w.t1 = undefined;
          const input = document.querySelector('[data-testid="search-input"]')!;
          const status = document.querySelector('[data-testid="search-announcement"]')!;
          input.addEventListener('input', () => (w.t0 = performance.now()), { once: true });
          const seen = new MutationObserver(() => {
            if (status.textContent && w.t0 !== undefined) {
              w.t1 = performance.now();
              seen.disconnect();
            }
          });
          seen.observe(status, { childList: true, characterData: true, subtree: true });
        });
        await box.fill(term);
        await page.waitForFunction(() => (window as unknown as { t1?: number }).t1 !== undefined);
        times.push(
          await page.evaluate(() => {
            const w = window as unknown as { t0: number; t1: number };
            return w.t1 - w.t0;
          }),
        );
        await box.fill('');
        await page.waitForURL((u) => !u.searchParams.has('q'));
        await page.getByTestId('product-card').first().waitFor();
      }
    }
    row(
      'search',
      `${size}: keystroke to results in the browser (median of ${times.length}, min–max)`,
      `${Math.round(median(times))} ms (${Math.round(Math.min(...times))}–${Math.round(Math.max(...times))})`,
    );
    await context.close();
  } finally {
    await browser.close();
  }
}

/** The part: seeds 10,000 and then 1,000,000 products (about 5 minutes) and measures both. */
export async function storefrontSearchPart(
  env: StackEnv,
  appUrl: string,
  row: Row,
  chromiumPath?: string,
  sizes: (number | 'as is')[] = [10_000, 1_000_000],
): Promise<void> {
  const db = new pg.Client({ connectionString: env.DB_URL });
  await db.connect();
  try {
    for (const n of sizes) {
      let count = n;
      if (n === 'as is') {
        const total = await db.query<{ n: string }>('select count(*) as n from public.products');
        count = Number(total.rows[0]!.n);
      } else {
        const t0 = performance.now();
        await seedBulk(env.DB_URL, n - SEEDED);
        row('search', `${n}: seed:bulk`, `${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
      const size = `${count.toLocaleString('en-GB')} products`;
      await databasePart(db, size, row);
      await browserPart(appUrl, size, row, chromiumPath);
    }
  } finally {
    await db.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dataDir = path.resolve(opt('data-dir') ?? DEFAULT_DATA_DIR);
  const state = readState(dataDir);
  const appUrl = opt('app-url');
  if (!state || !appUrl) throw new Error('needs a running stack (--data-dir) and --app-url');
  await storefrontSearchPart(
    state.env,
    appUrl,
    (_s, measure, value) => console.log(`| ${measure} | ${value} |`),
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    ['as is'],
  );
}
