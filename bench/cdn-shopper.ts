// The shoppers of bench/cdn.ts (REQ-CDN-8): page loads replay the requests the built pages made
// in Chromium (bench/cdn-parts.ts capturePages), with the product put in; what a shopper does on
// a page (a category, Load more, a search) asks as the app's own code does (src/features/storefront
// catalogue.ts and searchPage.ts) with postgrest-js, at the base URL, headers and method the
// page's own catalogue read used.
import { PostgrestClient } from '@supabase/postgrest-js';
import { storePageArgs, type StoreCursor } from '../src/lib/domain/storeOrder.ts';
import { CARD_PRODUCT_COLUMNS, selectList } from '../src/lib/domain/tables.ts';
import { PAGE_SIZE } from '../src/features/storefront/paging.ts';
import { DEFAULT_SORT } from '../src/features/storefront/storeView.ts';
import type { Captured } from './cdn-parts.ts';
import type { Step } from './cdn-replay.ts';

const SITE = '{site}';
export interface Product {
  id: string;
  slug: string;
  cat: string;
}
type Row = StoreCursor & Record<string, unknown>;
interface Request {
  url: string;
  init: RequestInit;
}

/** A captured request with the site's origin (and a product's id, slug, category) as stand-ins. */
function template(req: Captured, site: string, sample?: Product): Captured {
  let { url, body } = req;
  const put = (s: string | undefined, from: string, to: string) => s?.split(from).join(to);
  url = url.split(site).join(SITE);
  if (sample) {
    for (const [value, marker] of [
      [sample.id, '{id}'],
      [sample.slug, '{slug}'],
      [encodeURIComponent(sample.cat), '{cat}'],
      [sample.cat, '{cat}'],
    ] as const) {
      url = put(url, value, marker)!;
      body = put(body, value, marker);
    }
  }
  return { ...req, url, body };
}

function instantiate(t: Captured, site: string, product?: Product): Request {
  const fill = (s: string, encode: boolean) => {
    let out = s.split(SITE).join(site);
    if (product) {
      out = out
        .split('{id}')
        .join(product.id)
        .split('{slug}')
        .join(product.slug)
        .split('{cat}')
        .join(encode ? encodeURIComponent(product.cat) : product.cat);
    }
    return out;
  };
  return {
    url: fill(t.url, true),
    init: {
      method: t.method,
      headers: t.headers,
      body: t.body === undefined ? undefined : fill(t.body, false),
    },
  };
}

export function templates(site: string, home: Captured[], product: Captured[], sample: Product) {
  const homeT = home.map((r) => template(r, site));
  const productT = product.map((r) => template(r, site, sample));
  const listing = homeT.find((r) => r.url.includes('/rpc/storefront_page'));
  if (!listing) throw new Error('the home page made no storefront_page request');
  // The app's own query builder (catalogueDb.ts): its categories read gives the base URL and
  // headers (the early script's first-page read is a hand-made URL), a product page's RPCs
  // the method (GET with `{ get: true }`, else POST).
  const builder = homeT.find((r) => /\/catagories\?/.test(r.url));
  if (!builder) throw new Error('the home page made no catagories request');
  const base = builder.url.slice(0, builder.url.indexOf('/catagories?'));
  const rpc = productT.find((r) => r.url.startsWith(`${base}/rpc/`));
  return {
    home: homeT,
    product: productT,
    /** The home page's own first-page read. */
    listingRequest: (s: string) => instantiate(listing, s),
    productDocument: (s: string, p: Product) => instantiate(productT[0]!, s, p),
    instantiate,
    /** Where and how the page read the catalogue: postgrest-js is pointed the same way. */
    catalogue: {
      base,
      get: (rpc?.method ?? 'GET') === 'GET',
      headers: Object.fromEntries(
        Object.entries(builder.headers).filter(
          ([n]) => !/^(accept|content-type|content-profile|prefer)$/i.test(n),
        ),
      ),
    },
  };
}
export type Pages = ReturnType<typeof templates>;

export interface ReplayResult {
  requestMs: number[];
  pageMs: number[];
  errors: number;
  /** A few failed requests (status and path), to see what failed. */
  failed: string[];
  hits: number;
  siteRequests: number;
  postgrest?: number;
  byPath?: string;
  /** PostgREST requests by path (the bench fills it in). */
  counts?: Map<string, number>;
}

/** Replays the visits, `concurrency` at a time; every request timed to its last byte. */
export async function replay(
  visits: Step[][],
  opts: { site: string; pages: Pages; products: Product[]; concurrency: number },
): Promise<ReplayResult> {
  const { site, pages, products } = opts;
  const out: ReplayResult = {
    requestMs: [],
    pageMs: [],
    errors: 0,
    failed: [],
    hits: 0,
    siteRequests: 0,
  };
  const timed = async (url: string, init: RequestInit) => {
    const t0 = performance.now();
    let res: Response;
    let text: string;
    try {
      // A request that never ends must not stop the bench: it counts as failed.
      const signal = AbortSignal.timeout(20_000);
      res = await fetch(url, { ...init, redirect: 'manual', signal });
      text = await res.text();
    } catch (error) {
      out.errors++;
      if (out.failed.length < 5) out.failed.push(`${String(error)} ${url}`);
      res = new Response(null, { status: 599 });
      text = '';
    }
    const ms = performance.now() - t0;
    out.requestMs.push(ms);
    if (res.status >= 400 && res.status !== 599) {
      out.errors++;
      if (out.failed.length < 5) out.failed.push(`${res.status} ${init.method ?? 'GET'} ${url}`);
    }
    if (url.startsWith(site)) {
      out.siteRequests++;
      if (res.headers.get('x-cache') === 'HIT') out.hits++;
    }
    return { res, text, ms };
  };
  const db = new PostgrestClient(pages.catalogue.base.split(SITE).join(site), {
    headers: pages.catalogue.headers,
    fetch: async (input, init) => {
      const { res, text } = await timed(String(input), init ?? {});
      const empty = [101, 204, 205, 304].includes(res.status);
      return new Response(empty ? null : text, { status: res.status, headers: res.headers });
    },
  });
  const get = pages.catalogue.get ? { get: true } : undefined;
  const cardPage = async (cat: string | null, after: Row | null): Promise<Row[]> => {
    const { data } = await db
      .rpc('storefront_page', storePageArgs(cat, after, PAGE_SIZE + 1), get)
      .select(selectList(CARD_PRODUCT_COLUMNS));
    return (data as Row[] | null) ?? [];
  };
  /** A document, then the reads it makes, together; the listing's rows when one is among them. */
  const pageLoad = async (reqs: Captured[], product?: Product) => {
    const [doc, ...reads] = reqs.map((r) => pages.instantiate(r, site, product));
    const first = await timed(doc!.url, doc!.init);
    let rows: Row[] | null = null;
    let slowest = 0;
    await Promise.all(
      reads.map(async (r) => {
        const { text, ms } = await timed(r.url, r.init);
        slowest = Math.max(slowest, ms);
        if (r.url.includes('/rpc/storefront_page') && !product) {
          try {
            rows = JSON.parse(text) as Row[];
          } catch {
            rows = [];
          }
        }
      }),
    );
    out.pageMs.push(first.ms + slowest);
    return rows as Row[] | null;
  };

  const visit = async (steps: Step[]) => {
    let listing: { cat: string | null; rows: Row[] } = { cat: null, rows: [] };
    for (const step of steps) {
      if (step.kind === 'home') {
        listing = { cat: null, rows: (await pageLoad(pages.home)) ?? [] };
      } else if (step.kind === 'category') {
        listing = { cat: step.cat, rows: await cardPage(step.cat, null) };
      } else if (step.kind === 'more') {
        // The cursor is the last product shown; no more when the extra row did not come.
        if (listing.rows.length <= PAGE_SIZE) continue;
        listing = {
          cat: listing.cat,
          rows: await cardPage(listing.cat, listing.rows[PAGE_SIZE - 1]!),
        };
      } else if (step.kind === 'search') {
        await db
          .rpc(
            'storefront_search',
            { p_query: step.q, p_sort: DEFAULT_SORT, p_limit: PAGE_SIZE + 1 },
            get,
          )
          .select(selectList([...CARD_PRODUCT_COLUMNS, 'created_at'] as const));
      } else {
        await pageLoad(pages.product, products[step.rank]!);
      }
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < visits.length) await visit(visits[next++]!);
    }),
  );
  return out;
}
