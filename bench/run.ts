// Performance figures of the store: `npm run bench` (all parts, about 10 minutes) or
// `npm run bench -- --only bundle,api` (a subset). Parts:
//   bundle      gzip bytes the home page loads before it is interactive, and the admin chunk
//   lighthouse  mobile Lighthouse (median of 3) on home with 1,000 products, a product page
//               (/p/<slug>), /contact and /policy; with `home` also on home with the seed
//               catalogue's pictures uploaded
//   api         autocannon on the catalogue's first page (by price, and one category), through
//               the gateway and straight at PostgREST, with 1,000 and 10,000 products
//   explain     the plans of those queries at 10,000 products
//   home        the home page in Chromium with 30 and with 10,000 products: first card, next
//               page, DOM size after five pages
//   first-card  the first product card with and without the HTML's early request for the first
//               page, the two builds loaded in turn on the seed catalogue (bench/first-card.ts)
//   stack       local stack start, cold and warm (bench/stack-start.ts)
//   admin-table admin product table at 1,000/100,000/1,000,000 products (bench/admin-table.ts)
//   scale       the catalogue at 1,000 / 100,000 / 1,000,000 products (bench/catalogue-scale.ts)
//   link-health 1,000 seller links, 5% hanging, through the link-health function: total time and
//               peak memory; the storefront's first page with broken links hidden, at 100,000
//               products (bench/link-health.ts)
//   insights    Buy Now clicks: Insights queries and tab with 1,000,000 clicks over 10,000
//               products, counting throughput through the gateway (bench/insights.ts)
//   search      storefront search at 10,000 and 1,000,000 products: the query in the database
//               and keystroke to results in Chromium (bench/storefront-search.ts);
//               --search-sizes 10000 for a shorter run
//   product-pages  /p/<slug> without JavaScript (time to HTML, bytes), 301, 404 and the sitemap
//               at 1,000 and 10,000 products (bench/product-pages.ts)
//   feeds       a 100,000-line Awin feed against 100,000 products through the feed-sync
//               function: Run now to done, the apply, memory, the 304 re-run (bench/feeds.ts)
//   Options: --runs N (Lighthouse runs per page), --duration S and --connections N (autocannon),
//   --reports DIR (keep each Lighthouse JSON report and its trace), --no-write (print only).
// Against a production build served by `vite preview` and a throwaway stack that runs in its own
// process (so the load generator never shares an event loop with the gateway). Prints one table
// and appends it, with date and machine, to bench/RESULTS.md. Timings are figures, never a pass
// or fail; the machine is shared, so read ratios taken in the same run.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import lighthouse from 'lighthouse';
import pg from 'pg';
import { chromium } from '@playwright/test';
import { build, preview, type PreviewServer } from 'vite';
import { freePort } from '../tests/support/harness.ts';
import { seedBulk } from '../scripts/seed-bulk.ts';
import { STORE_ORDER_PARAM, STORE_ORDER_SQL } from '../src/lib/domain/storeOrder.ts';
import { selectList, STORE_PRODUCT_COLUMNS } from '../src/lib/domain/tables.ts';
import { loadConfig } from '../stack/config.ts';
import { findFreePortBase, readState, type StackEnv } from '../stack/stack.ts';
import { kB, measureBundle } from './bundle.ts';
import { imageBytesPart } from './image-bytes.ts';
import { catalogueScale } from './catalogue-scale.ts';
import { firstCardPart, WATCH_FIRST_CARD } from './first-card.ts';
import { storefrontSearchPart } from './storefront-search.ts';
import { productPagePath, productPagesPart } from './product-pages.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PARTS = [
  'bundle',
  'lighthouse',
  'api',
  'explain',
  'home',
  'first-card',
  'stack',
  'admin-table',
  'scale',
  'link-health',
  'insights',
  'search',
  'product-pages',
  'feeds',
] as const;
type Part = (typeof PARTS)[number];
const CHROMIUM = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
// The storefront's own query (src/features/storefront/catalogue.ts).
const PRODUCT_COLUMNS = selectList(STORE_PRODUCT_COLUMNS);
const ORDER = STORE_ORDER_PARAM;
const PAGE = 24; // src/features/storefront/paging.ts; the app asks for one more row
const CATEGORY = 'Tennis';

function parseArgs(argv: string[]) {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const only = opt('only')
    ?.split(',')
    .map((s) => s.trim()) ?? [...PARTS];
  const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length)
    throw new Error(`unknown part(s) ${unknown.join(', ')}; parts: ${PARTS.join(', ')}`);
  return {
    parts: new Set(only as Part[]),
    runs: Number(opt('runs') ?? 3),
    duration: Number(opt('duration') ?? 15),
    connections: Number(opt('connections') ?? 50),
    write: !argv.includes('--no-write'),
    /** Keep every Lighthouse report (JSON) here, to see what holds a score back. */
    reports: opt('reports'),
    /** Catalogue sizes of part `search` (1,000,000 takes minutes to seed). */
    searchSizes: (opt('search-sizes') ?? '10000,1000000').split(',').map(Number),
  };
}
const args = parseArgs(process.argv.slice(2));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (n: number) => `${Math.round(n)} ms`;
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Result rows: [section, measure, value]. */
const rows: [string, string, string][] = [];
const row = (section: string, measure: string, value: string) => {
  rows.push([section, measure, value]);
  log(`${section} | ${measure} | ${value}`);
};
const notes: string[] = [];

// ---------------------------------------------------------------------------------------------
// The stack, in a child process (`stack/cli.ts start`), and the production build.
// ---------------------------------------------------------------------------------------------

interface Stack {
  env: StackEnv;
  restUrl: string; // PostgREST itself, behind the gateway
  stop(): Promise<void>;
}

async function startStack(tmp: string): Promise<Stack> {
  const portBase = await findFreePortBase();
  const dataDir = path.join(tmp, 'stack');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'stack/cli.ts',
      'start',
      '--port-base',
      String(portBase),
      '--data-dir',
      dataDir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 180_000;
  for (;;) {
    const state = readState(dataDir);
    if (state?.ready) break;
    if (child.exitCode !== null) throw new Error(`stack did not start:\n${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`stack not ready after 180 s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const env = readState(dataDir)!.env;
  const config = loadConfig({ portBase });
  return {
    env,
    restUrl: `http://127.0.0.1:${config.ports.rest}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function buildApp(outDir: string, env?: StackEnv) {
  // The client reads these at build time (src/lib/infra/env.ts); a bundle-only run needs no stack.
  process.env.VITE_SUPABASE_URL = env?.API_URL ?? 'http://127.0.0.1:54321';
  process.env.VITE_SUPABASE_ANON_KEY = env?.ANON_KEY ?? 'bundle-size-only';
  await build({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}

async function serveApp(outDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const server: PreviewServer = await preview({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.httpServer.close(() => resolve())),
  };
}

// ---------------------------------------------------------------------------------------------
// Parts
// ---------------------------------------------------------------------------------------------

function bundlePart(outDir: string) {
  const r = measureBundle(outDir);
  const budget = JSON.parse(readFileSync(path.join(ROOT, 'bench', 'budget.json'), 'utf8')) as {
    homeInitialJs: number;
  };
  row(
    'bundle',
    'home initial JS (gzip)',
    `${kB(r.totals.homeJsGzip)} (budget ${kB(budget.homeInitialJs)}; ${r.homeJs.length} files, ${kB(r.totals.homeJsBytes)} raw)`,
  );
  row('bundle', 'home initial CSS (gzip)', kB(r.totals.homeCssGzip));
  row('bundle', 'admin chunk, added JS (gzip)', kB(r.totals.adminJsGzip));
}

/** Chromium with a DevTools port for Lighthouse (flags as the brief of issue 8 gives them). */
async function launchChrome(tmp: string): Promise<{ port: number; close(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--no-default-browser-check',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${path.join(tmp, `chrome-${port}`)}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (i > 100) throw new Error('Chromium did not open its DevTools port');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The pages Lighthouse scores on the 1,000-product catalogue. */
const lighthousePages = (productPage: string): [string, string][] => [
  ['home (1,000 products)', '/'],
  ['product page', productPage],
  ['contact', '/contact'],
  ['policy', '/policy'],
];

async function lighthousePart(tmp: string, appUrl: string, pages: [string, string][]) {
  for (const [label, route] of pages) {
    const runs: Record<string, number>[] = [];
    for (let i = 0; i < args.runs; i++) {
      // A fresh browser per run: no warm cache or leftover service state between runs.
      const chrome = await launchChrome(tmp);
      try {
        const result = await lighthouse(`${appUrl}${route}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        });
        if (!result) throw new Error('Lighthouse returned nothing');
        if (args.reports) {
          mkdirSync(args.reports, { recursive: true });
          const name = `${label.replace(/\W+/g, '-')}-${i + 1}.json`;
          writeFileSync(path.join(args.reports, name), result.report as string);
          // The trace too (Chrome DevTools' Performance panel opens it): where a long task went.
          writeFileSync(
            path.join(args.reports, name.replace(/\.json$/, '.trace.json')),
            JSON.stringify(result.artifacts.Trace),
          );
        }
        const { categories, audits } = result.lhr;
        const score = (k: string) => Math.round((categories[k]?.score ?? 0) * 100);
        runs.push({
          perf: score('performance'),
          a11y: score('accessibility'),
          bp: score('best-practices'),
          seo: score('seo'),
          fcp: audits['first-contentful-paint']?.numericValue ?? NaN,
          si: audits['speed-index']?.numericValue ?? NaN,
          lcp: audits['largest-contentful-paint']?.numericValue ?? NaN,
          tbt: audits['total-blocking-time']?.numericValue ?? NaN,
          cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
        });
        // Name what keeps a score below 100 so the table says what to fix.
        for (const cat of ['accessibility', 'best-practices', 'seo']) {
          for (const ref of categories[cat]?.auditRefs ?? []) {
            const audit = audits[ref.id];
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
              const note = `lighthouse ${label}: ${cat} – ${audit.id}: ${audit.title}`;
              if (!notes.includes(note)) notes.push(note);
            }
          }
        }
      } finally {
        await chrome.close();
      }
    }
    const m = (k: string) => median(runs.map((r) => r[k]!));
    row(
      'lighthouse',
      `${label}: perf / a11y / best practices / SEO`,
      `${m('perf')} / ${m('a11y')} / ${m('bp')} / ${m('seo')}`,
    );
    row(
      'lighthouse',
      `${label}: FCP / SI / LCP / TBT / CLS`,
      `${ms(m('fcp'))} / ${ms(m('si'))} / ${ms(m('lcp'))} / ${ms(m('tbt'))} / ${m('cls').toFixed(3)}`,
    );
  }
}

function catalogueQueries(stack: Stack) {
  const qs = (cat?: string) =>
    `products?select=${PRODUCT_COLUMNS}${cat ? `&cat=eq.${cat}` : ''}&order=${ORDER}&offset=0&limit=${PAGE + 1}`;
  const anon = { apikey: stack.env.ANON_KEY, authorization: `Bearer ${stack.env.ANON_KEY}` };
  return [
    {
      name: 'first page by price',
      gateway: `${stack.env.REST_URL}/${qs()}`,
      direct: `${stack.restUrl}/${qs()}`,
    },
    {
      name: `category ${CATEGORY}`,
      gateway: `${stack.env.REST_URL}/${qs(CATEGORY)}`,
      direct: `${stack.restUrl}/${qs(CATEGORY)}`,
    },
  ].map((q) => ({ ...q, headers: anon }));
}

async function load(url: string, headers: Record<string, string>) {
  // A request the database refuses would be fast and wrong: check one answer first.
  const probe = await fetch(url, { headers });
  const body = (await probe.json()) as unknown[];
  if (!probe.ok || !Array.isArray(body) || body.length === 0) {
    throw new Error(`${url} answered ${probe.status}: ${JSON.stringify(body).slice(0, 200)}`);
  }
  const r = await autocannon({
    url,
    headers,
    connections: args.connections,
    duration: args.duration,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

async function apiPart(stack: Stack, products: string) {
  for (const q of catalogueQueries(stack)) {
    const gw = await load(q.gateway, q.headers);
    const direct = await load(q.direct, q.headers);
    const fmt = (r: typeof gw) =>
      `${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`;
    row('api', `${products}, ${q.name}: gateway`, fmt(gw));
    row('api', `${products}, ${q.name}: PostgREST`, fmt(direct));
    row(
      'api',
      `${products}, ${q.name}: gateway overhead`,
      `${(direct.rps / gw.rps).toFixed(2)}× throughput, ${(gw.p50 / Math.max(direct.p50, 1)).toFixed(2)}× p50`,
    );
  }
}

async function explainPart(stack: Stack, products: string) {
  const client = new pg.Client({ connectionString: stack.env.DB_URL });
  await client.connect();
  try {
    const sql = (cat: boolean) =>
      `select ${PRODUCT_COLUMNS} from public.products ${cat ? `where cat = '${CATEGORY}' ` : ''}` +
      `order by ${STORE_ORDER_SQL} limit ${PAGE + 1} offset 0`;
    for (const [name, text] of [
      ['first page by price', sql(false)],
      [`category ${CATEGORY}`, sql(true)],
    ] as const) {
      // As the anon role PostgREST uses, so row-level security is part of the plan.
      await client.query('begin');
      await client.query('set local role anon');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, costs off, timing on) ${text}`,
      );
      await client.query('rollback');
      const lines = plan.rows.map((r) => r['QUERY PLAN']);
      const scan =
        lines
          .find((l) => /Scan/.test(l))
          ?.replace(/^[\s>-]+/, '')
          .replace(/\s+\(actual.*$/, '') ?? '?';
      const exec =
        lines.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
      row('explain', `${products}, ${name}`, `${scan}; ${exec}`);
      notes.push(`plan (${products}, ${name}):\n    ${lines.join('\n    ')}`);
    }
  } finally {
    await client.end();
  }
}

async function homePart(appUrl: string, products: string) {
  const browser = await chromium.launch({
    executablePath: existsSync(CHROMIUM) ? CHROMIUM : undefined,
  });
  try {
    const first: number[] = [];
    const next: number[] = [];
    let nodes = 0;
    let pages = 1;
    let clicks = 0;
    let lost = 0;
    for (let i = 0; i < Math.max(args.runs, 3); i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript({ content: WATCH_FIRST_CARD });
      await page.goto(appUrl, { waitUntil: 'commit' });
      await page.getByTestId('product-card').first().waitFor();
      // Milliseconds since navigation start, by the page's own clock (bench/first-card.ts).
      first.push(
        await page.evaluate(() => (window as unknown as { __firstCardAt: number }).__firstCardAt),
      );
      const loadMore = page.getByRole('button', { name: 'Load more' });
      // The first cards are drawn by the HTML before the app runs; Load more comes with the app.
      await loadMore.waitFor({ timeout: 15_000 }).catch(() => undefined);
      // A small catalogue (the seed's 30) has two pages: only the first card is measured.
      for (let p = 1; p < 5 && (await loadMore.count()) > 0; p++) {
        const cards = await page.getByTestId('product-card').count();
        const t0 = await page.evaluate(() => performance.now());
        await loadMore.click();
        clicks++;
        // A click that shows nothing is counted, not fatal: once in ~190 tries (at 10,000
        // products, stop 15) a click left the page at 24 cards; it was not seen again.
        const shown = await page
          .waitForFunction(
            (n) => document.querySelectorAll('[data-testid="product-card"]').length > n,
            cards,
            { timeout: 10_000 },
          )
          .then(() => true)
          .catch(() => false);
        if (!shown) {
          lost++;
          break;
        }
        if (p === 1) next.push((await page.evaluate(() => performance.now())) - t0);
      }
      nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
      pages = Math.ceil((await page.getByTestId('product-card').count()) / PAGE);
      await context.close();
    }
    row('home', `${products}: first product card`, ms(median(first)));
    if (next.length) {
      row('home', `${products}: next page shown after Load more`, ms(median(next)));
      row('home', `${products}: DOM elements after ${pages} pages`, String(nodes));
    }
    if (lost)
      row(
        'home',
        `${products}: Load more clicks with no new cards in 10 s`,
        `${lost} of ${clicks}`,
      );
  } finally {
    await browser.close();
  }
}

async function stackPart() {
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/stack-start.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`stack-start exited ${code}`)),
    );
  });
  for (const line of out.split('\n')) {
    const cells = line
      .split('|')
      .map((c) => c.trim())
      .filter(Boolean);
    if (cells[0]?.startsWith('cold') || cells[0]?.startsWith('warm')) {
      row('stack', `${cells[0]} start, median`, cells[cells.length - 1]!);
    }
  }
}

// ---------------------------------------------------------------------------------------------

function table(): string {
  const head: [string, string, string] = ['part', 'measure', 'value'];
  const all = [head, ...rows];
  const w = head.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(w[c]!)).join(' | ')} |`;
  return [line(head), `|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`, ...rows.map(line)].join(
    '\n',
  );
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'mar-bench-'));
const cleanups: Array<() => Promise<void>> = [];
const started = Date.now();
try {
  const needsStack = [
    'lighthouse',
    'api',
    'explain',
    'home',
    'first-card',
    'scale',
    'search',
    'product-pages',
  ].some((p) => args.parts.has(p as Part));
  const needsApp = ['bundle', 'lighthouse', 'home', 'first-card', 'search', 'product-pages'].some(
    (p) => args.parts.has(p as Part),
  );
  let stack: Stack | null = null;
  if (needsStack) {
    log('starting a throwaway stack');
    stack = await startStack(tmp);
    cleanups.push(() => stack!.stop());
  }
  const outDir = path.join(tmp, 'dist');
  let app: { url: string; close(): Promise<void> } | null = null;
  if (needsApp) {
    log('building the app');
    await buildApp(outDir, stack?.env);
    if (args.parts.has('bundle')) bundlePart(outDir);
    if (stack) {
      app = await serveApp(outDir);
      cleanups.push(() => app!.close());
    }
  }
  if (stack) {
    const seed = async (n: number) => {
      const total = await seedBulk(stack.env.DB_URL, n);
      log(`catalogue: ${total} products`);
      return total;
    };
    if (args.parts.has('home')) {
      await seed(0);
      await homePart(app!.url, 'seed (30 products)');
      await imageBytesPart(stack.env, app!.url, row, existsSync(CHROMIUM) ? CHROMIUM : undefined);
      // REQ-IMG-4: home with every first-page card's picture uploaded (the seed catalogue); the
      // bulk products added for the 1,000-product run are SVG illustrations.
      if (args.parts.has('lighthouse'))
        await lighthousePart(tmp, app!.url, [['home (seed catalogue, uploaded pictures)', '/']]);
    }
    if (args.parts.has('first-card')) {
      await seed(0);
      await firstCardPart(app!.url, tmp, row, args.runs, CHROMIUM);
    }
    if (['lighthouse', 'api', 'product-pages'].some((p) => args.parts.has(p as Part))) {
      await seed(1000 - 32);
      if (args.parts.has('lighthouse'))
        await lighthousePart(
          tmp,
          app!.url,
          lighthousePages(await productPagePath(stack.env.DB_URL)),
        );
      if (args.parts.has('api')) await apiPart(stack, '1,000 products');
      if (args.parts.has('product-pages'))
        await productPagesPart(app!.url, stack.env.DB_URL, '1,000 products', row);
    }
    if (['api', 'explain', 'home', 'product-pages'].some((p) => args.parts.has(p as Part))) {
      await seed(10_000 - 32);
      if (args.parts.has('product-pages'))
        await productPagesPart(app!.url, stack.env.DB_URL, '10,000 products', row);
      if (args.parts.has('explain')) await explainPart(stack, '10,000 products');
      if (args.parts.has('api')) await apiPart(stack, '10,000 products');
      if (args.parts.has('home')) await homePart(app!.url, '10,000 products');
    }
  }
  if (stack && args.parts.has('scale')) await catalogueScale(stack.env, row);
  if (stack && args.parts.has('search')) {
    await storefrontSearchPart(
      stack.env,
      app!.url,
      row,
      existsSync(CHROMIUM) ? CHROMIUM : undefined,
    );
  }
  // Last: it starts and stops stacks of its own, six times.
  if (args.parts.has('stack')) await stackPart();
  // Its own stack and its own section of RESULTS.md (REQ-SCALE-4, REQ-SCALE-5).
  if (args.parts.has('admin-table')) {
    await new Promise<void>((resolve, reject) =>
      spawn(
        process.execPath,
        ['--import', 'tsx', 'bench/admin-table.ts', ...(args.write ? [] : ['--no-write'])],
        { cwd: ROOT, stdio: 'inherit' },
      ).once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`admin-table exited ${code}`)),
      ),
    );
  }
  // Its own stack and its own section of RESULTS.md (REQ-INS-3).
  if (args.parts.has('link-health')) {
    await new Promise<void>((resolve, reject) =>
      spawn(
        process.execPath,
        ['--import', 'tsx', 'bench/link-health.ts', ...(args.write ? [] : ['--no-write'])],
        { cwd: ROOT, stdio: 'inherit' },
      ).once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`link-health exited ${code}`)),
      ),
    );
  }
  // Its own stack and its own section of RESULTS.md (REQ-FEED-2).
  if (args.parts.has('feeds')) {
    await new Promise<void>((resolve, reject) =>
      spawn(
        process.execPath,
        ['--import', 'tsx', 'bench/feeds.ts', ...(args.write ? [] : ['--no-write'])],
        { cwd: ROOT, stdio: 'inherit' },
      ).once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`feeds exited ${code}`)),
      ),
    );
  }
  if (args.parts.has('insights')) {
    await new Promise<void>((resolve, reject) =>
      spawn(
        process.execPath,
        ['--import', 'tsx', 'bench/insights.ts', ...(args.write ? [] : ['--no-write'])],
        { cwd: ROOT, stdio: 'inherit' },
      ).once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`insights exited ${code}`)),
      ),
    );
  }
} finally {
  for (const c of cleanups.reverse()) await c().catch((e: unknown) => console.error(e));
  rmSync(tmp, { recursive: true, force: true });
}

const cpus = os.cpus();
const machine = `${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.versions.node}`;
const heading = `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (${[...args.parts].join(', ')})`;
const report = [
  heading,
  '',
  `Machine: ${machine}. Took ${Math.round((Date.now() - started) / 1000)} s.`,
  '',
  table(),
  ...(notes.length
    ? [
        '',
        '<details><summary>Notes and plans</summary>',
        '',
        '```',
        ...notes,
        '```',
        '',
        '</details>',
      ]
    : []),
  '',
].join('\n');
console.log(report);
if (args.write) {
  const file = path.join(ROOT, 'bench', 'RESULTS.md');
  if (!existsSync(file)) {
    appendFileSync(
      file,
      '# Benchmark results\n\nAppended by `npm run bench` (bench/run.ts), newest last. Timings come from a shared, noisy machine: compare ratios within one run.\n\n',
    );
  }
  appendFileSync(file, `${report}\n`);
}
