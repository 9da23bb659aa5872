// The link-health function's HTTP side: who may run checks, which products, and storing results.
// A product's check covers its link, its image and every non-primary offer's link (REQ-OFF-6).
//
// POST /link-health with a JSON body, one of
//   {"mode":"products","ids":[uuid, ...]}      re-check these products (1-50; admins' "Re-check")
//   {"mode":"page","after":uuid|null,"limit":n,"cat":title?}
//                                              the next n products by id (1-25; "Check all"
//                                              pages), optionally of one category
//   {"mode":"due","limit":n}                    the n products checked longest ago (1-200; schedule)
// and optionally "timeoutMs" (only lower than the configured timeout).
// Allowed: the service role or a secret key (the schedule), or a signed-in admin (asked of the
// database with the caller's own token). Results are written with the service role through
// public.record_link_checks; callers never supply them.
import { createClient, type SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { checkUrl, mapLimited, type CheckResult, type LinkStatus } from './check.ts';
import type { LinkHealthConfig } from './config.ts';
import { admit, CORS, json } from '../_shared/admission.ts';

interface ProductUrls {
  id: string;
  link: string;
  image: string;
}

/** A product's other (non-primary) offer: its link is checked too (REQ-OFF-6). */
interface OfferLink {
  id: string;
  product_id: string;
  link: string;
}

interface Job {
  productId: string;
  kind: 'link' | 'image' | 'offer';
  /** Kind 'offer': which offer. */
  offerId: string | null;
  /** As stored in the product (what the result is about). */
  url: string;
  /** What is fetched (a site-relative image resolved against the site URL). */
  target: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What a stored result may say (the confirmed state, public.link_checks.status). */
type StoredStatus = LinkStatus | 'failing';
const STATUSES: StoredStatus[] = [
  'ok',
  'redirected',
  'failing',
  'broken',
  'blocked',
  'unreachable',
  'timed_out',
];
async function authorised(req: Request, config: LinkHealthConfig): Promise<Response | null> {
  const caller = await admit(req, config, {
    signIn: 'Sign in as an admin to check links.',
    notAdmin: 'Only admins can check links.',
  });
  return caller instanceof Response ? caller : null;
}

type Selection =
  | { mode: 'products'; ids: string[] }
  | { mode: 'page'; after: string | null; limit: number; cat: string | null }
  | { mode: 'due'; limit: number };

function parseSelection(body: unknown): Selection | string {
  if (!body || typeof body !== 'object') return 'Send a JSON object.';
  const b = body as Record<string, unknown>;
  const limit = (max: number) =>
    Number.isInteger(b.limit) && (b.limit as number) >= 1 && (b.limit as number) <= max
      ? (b.limit as number)
      : null;
  if (b.mode === 'products') {
    const ids = b.ids;
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > 50)
      return 'ids: 1 to 50 product ids.';
    if (!ids.every((id) => typeof id === 'string' && UUID.test(id))) return 'ids must be uuids.';
    return { mode: 'products', ids: [...new Set(ids as string[])] };
  }
  if (b.mode === 'page') {
    const after = b.after ?? null;
    if (after !== null && !(typeof after === 'string' && UUID.test(after)))
      return 'after must be a product id or null.';
    const n = limit(25);
    if (n === null) return 'limit must be 1 to 25.';
    const cat = b.cat ?? null;
    if (cat !== null && !(typeof cat === 'string' && cat.length >= 1 && cat.length <= 80))
      return 'cat must be a category title or null.';
    return { mode: 'page', after, limit: n, cat };
  }
  if (b.mode === 'due') {
    const n = limit(200);
    if (n === null) return 'limit must be 1 to 200.';
    return { mode: 'due', limit: n };
  }
  return 'mode must be products, page or due.';
}

async function productsFor(db: SupabaseClient, s: Selection): Promise<ProductUrls[]> {
  if (s.mode === 'due') {
    const { data, error } = await db.rpc('link_health_due', { p_limit: s.limit });
    if (error) throw new Error(error.message);
    return data as ProductUrls[];
  }
  let q = db.from('products').select('id,link,image');
  if (s.mode === 'products') q = q.in('id', s.ids);
  else {
    q = q.order('id').limit(s.limit);
    if (s.after) q = q.gt('id', s.after);
    if (s.cat) q = q.eq('cat', s.cat);
  }
  const { data, error } = await q;
  if (error) throw new Error(error.message);
  return data as ProductUrls[];
}

/** The non-primary offers of these products (the primary's link is the product's). */
async function offersOf(db: SupabaseClient, ids: string[]): Promise<OfferLink[]> {
  const out: OfferLink[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const { data, error } = await db
      .from('offers')
      .select('id,product_id,link')
      .in('product_id', ids.slice(i, i + 100))
      .eq('is_primary', false);
    if (error) throw new Error(error.message);
    out.push(...(data as OfferLink[]));
  }
  return out;
}

function jobsFor(products: ProductUrls[], offers: OfferLink[], siteUrl: string | null): Job[] {
  const jobs: Job[] = [];
  for (const p of products) {
    jobs.push({ productId: p.id, kind: 'link', offerId: null, url: p.link, target: p.link });
    if (/^https?:\/\//i.test(p.image)) {
      jobs.push({ productId: p.id, kind: 'image', offerId: null, url: p.image, target: p.image });
    } else if (siteUrl && p.image.startsWith('/')) {
      // Pictures shipped with the site (/products/ball.svg): checked where the site runs.
      jobs.push({
        productId: p.id,
        kind: 'image',
        offerId: null,
        url: p.image,
        target: new URL(p.image, siteUrl).href,
      });
    }
  }
  for (const o of offers) {
    jobs.push({
      productId: o.product_id,
      kind: 'offer',
      offerId: o.id,
      url: o.link,
      target: o.link,
    });
  }
  return jobs;
}

interface StoredState {
  product_id: string;
  kind: string;
  offer_id: string | null;
  url: string;
  status: StoredStatus;
  failures: number;
  detail: string | null;
}

/** The stored results of these products, by "product/kind/offer". */
async function storedStates(db: SupabaseClient, ids: string[]): Promise<Map<string, StoredState>> {
  const map = new Map<string, StoredState>();
  for (let i = 0; i < ids.length; i += 100) {
    const { data, error } = await db
      .from('link_checks')
      .select('product_id,kind,offer_id,url,status,failures,detail')
      .in('product_id', ids.slice(i, i + 100));
    if (error) {
      console.error('[link-health] reading stored results failed:', error.message);
      continue;
    }
    for (const s of data as StoredState[]) {
      map.set(`${s.product_id}/${s.kind}/${s.offer_id ?? ''}`, s);
    }
  }
  return map;
}

export function createHandler(config: LinkHealthConfig) {
  const db = createClient(config.supabaseUrl, config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  return async (req: Request): Promise<Response> => {
    if (req.method === 'OPTIONS') return new Response('ok', { headers: CORS });
    if (req.method !== 'POST') return json(405, { error: 'Use POST.' });
    const refused = await authorised(req, config);
    if (refused) return refused;

    let body: unknown;
    try {
      const text = await req.text();
      if (text.length > 10_000) return json(413, { error: 'Request too large.' });
      body = JSON.parse(text);
    } catch {
      return json(400, { error: 'Send a JSON object.' });
    }
    const selection = parseSelection(body);
    if (typeof selection === 'string') return json(400, { error: selection });
    const asked = (body as { timeoutMs?: unknown }).timeoutMs;
    const timeoutMs =
      Number.isInteger(asked) && (asked as number) >= 500
        ? Math.min(asked as number, config.timeoutMs)
        : config.timeoutMs;

    let products: ProductUrls[];
    let offers: OfferLink[];
    try {
      products = await productsFor(db, selection);
      offers = await offersOf(
        db,
        products.map((p) => p.id),
      );
    } catch (err) {
      console.error('[link-health] reading products failed:', err);
      return json(503, { error: 'Could not read the products.' });
    }
    const jobs = jobsFor(products, offers, config.siteUrl);
    const results = await mapLimited(jobs, config.concurrency, (job) =>
      checkUrl(job.target, {
        timeoutMs,
        maxRedirects: config.maxRedirects,
        maxBodyBytes: config.maxBodyBytes,
        userAgent: config.userAgent,
        policy: { allowLoopback: config.allowLoopback },
      }),
    );
    const rows = jobs.map((job, i) => {
      const r = results[i] as CheckResult;
      return {
        product_id: job.productId,
        kind: job.kind,
        offer_id: job.offerId,
        url: job.url,
        status: r.status,
        http_code: r.httpCode,
        final_url: r.finalUrl,
        detail: r.detail,
        chain: r.chain,
      };
    });
    // At most 1000 results a call (record_link_checks' limit): offers can make a run larger.
    for (let i = 0; i < rows.length; i += 1000) {
      const { error } = await db.rpc('record_link_checks', { p_results: rows.slice(i, i + 1000) });
      if (error) {
        console.error('[link-health] storing results failed:', error.message);
        return json(503, { error: 'Could not store the results.' });
      }
    }
    // The answer reports the confirmed state the database stored (one failure is 'failing',
    // REQ-OFF-6), and the check's own verdict beside it.
    const stored = await storedStates(db, [...new Set(rows.map((r) => r.product_id))]);
    const answered = rows.map((r) => {
      const s = stored.get(`${r.product_id}/${r.kind}/${r.offer_id ?? ''}`);
      const current = s && s.url === r.url ? s : null;
      return {
        ...r,
        verdict: r.status,
        status: (current?.status ?? r.status) as StoredStatus,
        failures: current?.failures ?? null,
        detail: current ? current.detail : r.detail,
      };
    });
    const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<StoredStatus, number>;
    for (const r of answered) counts[r.status]++;
    const last =
      products.length > 0
        ? products
            .map((p) => p.id)
            .sort()
            .at(-1)!
        : null;
    return json(200, {
      products: products.length,
      checked: rows.length,
      counts,
      results: answered,
      // "page" mode: where the next page starts (null when this was the last one).
      next: selection.mode === 'page' && products.length === selection.limit ? last : null,
    });
  };
}
