// The storefront behind a CDN, measured (REQ-CDN-8..10, decision 0257):
//   npm run bench:cdn                       (100,000 products, 10,000 visits, about 8 minutes)
//   npm run bench:cdn -- --products 2000 --visits 500 --baseline-visits 200 --no-write
// A throwaway stack, a large catalogue, the production build in `vite preview` (the host's
// function runs in it) and Varnish in front as the CDN (bench/cdn.vcl). Shoppers are replayed
// with the requests the built pages really make (read off the network in headless Chromium),
// first straight at the origin (the baseline: what every visit costs without a cache), then
// through the cache. A counting pass-through in front of the gateway counts the requests that
// reach PostgREST. Last, a price change is polled through the cache until it shows. Appends a
// section to bench/RESULTS.md (bench/results.ts). Figures, never a pass or fail.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { seedBulk } from '../scripts/seed-bulk.ts';
import { capturePages, countingProxy, startVarnish, type Captured } from './cdn-parts.ts';
import { mixSummary, percentile, planVisits, prng } from './cdn-replay.ts';
import { replay, templates, type ReplayResult } from './cdn-shopper.ts';
import { log, notes, report, row } from './results.ts';
import { buildApp, CHROMIUM, serveApp, startStack } from './run-setup.ts';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const PRODUCTS = opt('products', 100_000);
const VISITS = opt('visits', 10_000);
/** The baseline replays the first visits of the same plan (every one of them hits PostgREST). */
const BASELINE_VISITS = opt('baseline-visits', 1_000);
const CONCURRENCY = opt('concurrency', 10);
const write = !argv.includes('--no-write');
const started = Date.now();

const per1000 = (n: number, visits: number) => (n * 1000) / visits;
const fmtMs = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const byPath = (counts: Map<string, number>) =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([p, n]) => `${p} ${n}`)
    .join(', ');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'mar-bench-cdn-'));
const cleanups: Array<() => Promise<void>> = [];
try {
  log('cdn: starting a throwaway stack');
  const stack = await startStack(tmp);
  cleanups.push(() => stack.stop());
  const counter = await countingProxy(stack.env.API_URL);
  cleanups.push(() => counter.close());
  const total = await seedBulk(stack.env.DB_URL, PRODUCTS - 32);
  log(`cdn: catalogue of ${total} products`);

  // The app built and served with the pass-through as its Supabase URL: the host's function and
  // the browser reach the Data API through it.
  const outDir = path.join(tmp, 'dist');
  log('cdn: building the app');
  await buildApp(outDir, { ...stack.env, API_URL: counter.url });
  const app = await serveApp(outDir);
  cleanups.push(() => app.close());
  const cdn = await startVarnish(app.url);
  cleanups.push(() => cdn.stop());

  const db = new pg.Client({ connectionString: stack.env.DB_URL });
  await db.connect();
  cleanups.push(() => db.end());
  const categories = (
    await db.query<{ title: string }>('select title from public.catagories order by title')
  ).rows.map((r) => r.title);
  // Popularity: a seeded shuffle of the catalogue, rank 0 the most popular product.
  const products = (
    await db.query<{ id: string; slug: string; cat: string }>(
      'select id::text, slug, cat from public.products order by id',
    )
  ).rows;
  const rand = prng(257);
  for (let i = products.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [products[i], products[j]] = [products[j]!, products[i]!];
  }

  log('cdn: reading the pages’ requests in Chromium');
  const sample = products[1]!;
  const [homeReqs, productReqs] = await capturePages(CHROMIUM, app.url, counter.url, [
    '/',
    `/p/${sample.slug}`,
  ]);
  const pages = templates(app.url, homeReqs!, productReqs!, sample);
  const listRequests = (reqs: Captured[]) =>
    reqs.map((r) => `  ${r.method} ${r.url.replace(app.url, '').replace(counter.url, '{api}')}`);
  notes.push(
    'Requests of a fresh home page load:',
    ...listRequests(homeReqs!),
    `Requests of a fresh product page load (/p/${sample.slug}):`,
    ...listRequests(productReqs!),
  );

  const plan = planVisits(VISITS, { categories, products: products.length, seed: 257 });
  const mix = mixSummary(plan);
  const run = async (site: string, visits: number): Promise<ReplayResult> => {
    counter.reset();
    const t0 = Date.now();
    const result = await replay(plan.slice(0, visits), {
      site,
      pages,
      products,
      concurrency: CONCURRENCY,
    });
    log(
      `cdn: ${visits} visits on ${site} in ${((Date.now() - t0) / 1000).toFixed(0)} s, ` +
        `${counter.total()} PostgREST requests, ${result.errors} errors`,
    );
    return {
      ...result,
      postgrest: counter.total(),
      counts: new Map(counter.counts),
      byPath: byPath(counter.counts),
    };
  };
  const baselineVisits = Math.min(BASELINE_VISITS, VISITS);
  log('cdn: baseline, straight at the origin');
  const direct = await run(app.url, baselineVisits);
  log('cdn: through the cache');
  const cached = await run(cdn.url, VISITS);

  const freshness = await priceChangeShows(db, stack.env, cdn.url, pages);

  const s = 'cdn';
  row(s, 'catalogue', `${total.toLocaleString('en-GB')} products, ${categories.length} categories`);
  row(
    s,
    'visits replayed (through the cache / baseline)',
    `${VISITS.toLocaleString('en-GB')} / ${baselineVisits.toLocaleString('en-GB')}, ${CONCURRENCY} at a time; of ${VISITS}: ${mix.category} category clicks, ${mix.more} Load more, ${mix.search} searches, ${mix.product} product pages`,
  );
  const dbCached = per1000(cached.postgrest!, VISITS);
  const dbDirect = per1000(direct.postgrest!, baselineVisits);
  row(s, 'PostgREST requests per 1,000 visits, through the cache', dbCached.toFixed(1));
  row(s, 'PostgREST requests per 1,000 visits, no cache', dbDirect.toFixed(1));
  // Where they went: a product page no one asked for within the cache's time is a miss however
  // well the rest is cached; the rest is what the home page, listings and search cost.
  const productPaths = [
    'rpc/product_page_whole',
    'rpc/product_page',
    'rpc/product_offers',
    'rpc/product_price_history',
  ];
  const productReads = productPaths.reduce((n, p) => n + (cached.counts?.get(p) ?? 0), 0);
  const distinct = new Set(
    plan.flatMap((v) => v.flatMap((step) => (step.kind === 'product' ? [step.rank] : []))),
  ).size;
  row(
    s,
    'of those, the product pages’ own reads (page with offers and settings, price history) per 1,000 visits',
    `${per1000(productReads, VISITS).toFixed(1)}: ${(productReads / Math.max(1, distinct)).toFixed(2)} per distinct product viewed (${distinct.toLocaleString('en-GB')} of ${mix.product.toLocaleString('en-GB')} product page views)`,
  );
  row(
    s,
    'of those, every other read (listings, search, settings, banner) per 1,000 visits',
    per1000(cached.postgrest! - productReads, VISITS).toFixed(1),
  );
  row(
    s,
    'database requests, no cache ÷ through the cache',
    `${(dbDirect / Math.max(dbCached, 0.001)).toFixed(1)}×`,
  );
  for (const [name, r] of [
    ['through the cache', cached],
    ['no cache', direct],
  ] as const) {
    row(
      s,
      `request latency p50 / p99, ${name}`,
      `${fmtMs(percentile(r.requestMs, 50))} / ${fmtMs(percentile(r.requestMs, 99))} (${r.requestMs.length.toLocaleString('en-GB')} requests, ${r.errors} errors)`,
    );
    row(
      s,
      `page view (HTML, then its reads together) p50 / p99, ${name}`,
      `${fmtMs(percentile(r.pageMs, 50))} / ${fmtMs(percentile(r.pageMs, 99))}`,
    );
  }
  row(
    s,
    'answers from the cache (HIT) of those to the site',
    `${((100 * cached.hits) / Math.max(1, cached.siteRequests)).toFixed(1)}%`,
  );
  row(s, 'a price change shows through the cache after (home listing / product page)', freshness);
  notes.push(
    `PostgREST requests by path, through the cache (${VISITS} visits): ${cached.byPath}`,
    `PostgREST requests by path, no cache (${baselineVisits} visits): ${direct.byPath}`,
    ...[...cached.failed, ...direct.failed].map((f) => `failed: ${f}`),
  );
} finally {
  for (const c of cleanups.reverse()) await c().catch((e: unknown) => console.error(e));
  rmSync(tmp, { recursive: true, force: true });
}
report({ parts: ['cdn'], started, write });

/**
 * Makes the most popular listing's first product cheaper with the service role, then polls the
 * home page's first-page read and that product's page through the cache once a second until
 * both show the new price: seconds from the write to each.
 */
async function priceChangeShows(
  db: pg.Client,
  env: { API_URL: string; SERVICE_ROLE_KEY: string },
  site: string,
  pages: ReturnType<typeof templates>,
): Promise<string> {
  const { rows } = await db.query<{ id: string; slug: string; cat: string }>(
    `select id::text, slug, cat from public.products
      order by price_value asc nulls last, title, id limit 1`,
  );
  const product = rows[0]!;
  const price = '£0.07';
  const res = await fetch(`${env.API_URL}/rest/v1/products?id=eq.${product.id}`, {
    method: 'PATCH',
    headers: {
      apikey: env.SERVICE_ROLE_KEY,
      Authorization: `Bearer ${env.SERVICE_ROLE_KEY}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ price }),
  });
  if (!res.ok) throw new Error(`price change: ${res.status} ${await res.text()}`);
  const t0 = Date.now();
  const listing = pages.listingRequest(site);
  const page = pages.productDocument(site, product);
  const shows = async (req: { url: string; init: RequestInit }) => {
    for (;;) {
      const answer = await fetch(req.url, req.init);
      const text = await answer.text();
      if (text.includes('0.07')) return (Date.now() - t0) / 1000;
      if (Date.now() - t0 > 150_000) return NaN;
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  const [a, b] = await Promise.all([shows(listing), shows(page)]);
  const sec = (n: number) => (Number.isNaN(n) ? 'not within 150 s' : `${n.toFixed(0)} s`);
  return `${sec(a)} / ${sec(b)} (bound: s-maxage 60 s + stale-while-revalidate 30 s)`;
}
