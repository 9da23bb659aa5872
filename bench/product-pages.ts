// Product pages and the sitemap (REQ-FIND-3 to REQ-FIND-6), part `product-pages` of bench/run.ts:
// what a crawler waits for without JavaScript. Time to HTML of /p/<slug> (the server reads
// public.product_page and fills the app shell: src/host/productPages.ts, here inside `vite
// preview`), its bytes, an old slug's 301, and the sitemap index and one products file. Figures,
// never a pass or fail.
import { gzipSync } from 'node:zlib';
import pg from 'pg';

type Row = (section: string, measure: string, value: string) => void;

const RUNS = 25;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? NaN;
}

/** Fetches `url` RUNS times, one after another; milliseconds until the whole body is read. */
async function timed(url: string, redirect: RequestRedirect = 'follow') {
  const times: number[] = [];
  let body = '';
  let status = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const response = await fetch(url, { redirect });
    body = await response.text();
    times.push(performance.now() - start);
    status = response.status;
  }
  return { times, body, status };
}

const figures = (t: { times: number[] }) =>
  `${median(t.times).toFixed(1)} / ${p95(t.times).toFixed(1)} ms`;

/** A seeded product's page (Lighthouse's product page): the first seed product by price. */
export async function productPagePath(dbUrl: string): Promise<string> {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ slug: string }>(
      `select slug from public.products where title = 'Match Football Size 5'
       union all (select slug from public.products order by created_at limit 1) limit 1`,
    );
    return `/p/${rows[0]!.slug}`;
  } finally {
    await db.end();
  }
}

/** A product from the middle of the slug order, and one renamed product's old slug. */
async function slugs(dbUrl: string): Promise<{ slug: string; oldSlug: string | null }> {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ slug: string }>(
      `select slug from public.products order by slug
        offset (select count(*) / 2 from public.products) limit 1`,
    );
    const renamed = await db.query<{ slug: string }>(
      `select slug from public.product_slug_history limit 1`,
    );
    return { slug: rows[0]!.slug, oldSlug: renamed.rows[0]?.slug ?? null };
  } finally {
    await db.end();
  }
}

export async function productPagesPart(appUrl: string, dbUrl: string, label: string, row: Row) {
  const { slug, oldSlug } = await slugs(dbUrl);
  const page = await timed(`${appUrl}/p/${slug}`);
  if (page.status !== 200 || !page.body.includes('application/ld+json'))
    throw new Error(`/p/${slug} answered ${page.status} without JSON-LD`);
  row('product-pages', `${label}: /p/<slug> time to HTML, median / p95`, figures(page));
  row(
    'product-pages',
    `${label}: /p/<slug> HTML bytes (gzip)`,
    `${page.body.length} (${gzipSync(page.body).length})`,
  );
  const missing = await timed(`${appUrl}/p/no-such-product-${Date.now()}`);
  row('product-pages', `${label}: unknown slug (404) median / p95`, figures(missing));
  if (oldSlug) {
    const moved = await timed(`${appUrl}/p/${oldSlug}`, 'manual');
    row('product-pages', `${label}: old slug (301) median / p95`, figures(moved));
  }
  const index = await timed(`${appUrl}/sitemap.xml`);
  row('product-pages', `${label}: sitemap.xml (index) median / p95`, figures(index));
  const file = await timed(`${appUrl}/sitemap-products-1.xml`);
  const urls = (file.body.match(/<url>/g) ?? []).length;
  row(
    'product-pages',
    `${label}: sitemap-products-1.xml (${urls} URLs, ${file.body.length} bytes) median / p95`,
    figures(file),
  );
}
