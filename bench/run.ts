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
// Beside it: run-setup.ts (stack, build, preview), results.ts (the table and RESULTS.md),
// lighthouse.ts, catalogue-api.ts (api, explain) and home-page.ts, one module per part.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedBulk } from '../scripts/seed-bulk.ts';
import { kB, measureBundle } from './bundle.ts';
import { imageBytesPart } from './image-bytes.ts';
import { catalogueScale } from './catalogue-scale.ts';
import { firstCardPart } from './first-card.ts';
import { storefrontSearchPart } from './storefront-search.ts';
import { productPagePath, productPagesPart } from './product-pages.ts';
import { apiPart, explainPart } from './catalogue-api.ts';
import { homePart } from './home-page.ts';
import { lighthousePages, lighthousePart } from './lighthouse.ts';
import { log, report, row } from './results.ts';
import { buildApp, CHROMIUM, ROOT, serveApp, startStack, type Stack } from './run-setup.ts';

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
      await homePart(app!.url, 'seed (30 products)', args.runs);
      await imageBytesPart(stack.env, app!.url, row, existsSync(CHROMIUM) ? CHROMIUM : undefined);
      // REQ-IMG-4: home with every first-page card's picture uploaded (the seed catalogue); the
      // bulk products added for the 1,000-product run are SVG illustrations.
      if (args.parts.has('lighthouse'))
        await lighthousePart(
          tmp,
          app!.url,
          [['home (seed catalogue, uploaded pictures)', '/']],
          args,
        );
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
          args,
        );
      if (args.parts.has('api')) await apiPart(stack, '1,000 products', args);
      if (args.parts.has('product-pages'))
        await productPagesPart(app!.url, stack.env.DB_URL, '1,000 products', row);
    }
    if (['api', 'explain', 'home', 'product-pages'].some((p) => args.parts.has(p as Part))) {
      await seed(10_000 - 32);
      if (args.parts.has('product-pages'))
        await productPagesPart(app!.url, stack.env.DB_URL, '10,000 products', row);
      if (args.parts.has('explain')) await explainPart(stack, '10,000 products');
      if (args.parts.has('api')) await apiPart(stack, '10,000 products', args);
      if (args.parts.has('home')) await homePart(app!.url, '10,000 products', args.runs);
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

report({ parts: args.parts, started, write: args.write });
