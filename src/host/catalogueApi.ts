// /api/catalogue/*: the storefront's public catalogue reads on the store's own origin, so a CDN
// in front of the site can share them (REQ-CDN-1 to REQ-CDN-4, decision 0255). A whitelisted GET
// is passed to the Data API (`/rest/v1/<path>?<query>`) with the anon key only: never the
// caller's Authorization or cookies, so every visitor gets the same answer for the same URL.
// The SPA's catalogue reads (src/lib/infra/catalogueDb.ts) and the home page's early first-page
// script use these URLs; writes, Buy Now counting and everything signed in stay on the Data API.
// Web-standard code only (fetch, Response): the host's function serves it (productPages.ts).
import { cacheTag, CATALOGUE_TAG, NO_STORE, publicHeaders } from './httpCache.ts';

export const CATALOGUE_PREFIX = '/api/catalogue/';

/** The only Data API reads served here (exact paths): the storefront's anonymous reads. */
export const CATALOGUE_PATHS: readonly string[] = [
  'rpc/storefront_page',
  'catagories',
  'rpc/storefront_search',
  'rpc/product_page',
  'rpc/product_offers',
  'rpc/product_price_history',
  'rpc/catagory_current_title',
  // The one-row tables every page reads (the settings, the banner and About text).
  'store_settings',
  'storefront_content',
];

export interface CatalogueOptions {
  supabaseUrl: string;
  anonKey: string;
}

/** The Data API path for a request path under the prefix, or null when it is not whitelisted. */
export function cataloguePath(pathname: string): string | null {
  if (!pathname.startsWith(CATALOGUE_PREFIX)) return null;
  const rest = pathname.slice(CATALOGUE_PREFIX.length);
  return CATALOGUE_PATHS.includes(rest) ? rest : null;
}

/** The cache tags of a read: the whole catalogue, plus the product or catagory it names. */
export function catalogueTags(params: URLSearchParams): string[] {
  const tags = [CATALOGUE_TAG];
  const product = params.get('p_product_id');
  const cat = params.get('p_cat');
  if (product) tags.push(cacheTag('product', product));
  if (cat) tags.push(cacheTag('catagory', cat));
  return tags;
}

const json = (status: number, message: string, extra: Record<string, string> = {}) =>
  new Response(JSON.stringify({ message }), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': NO_STORE, ...extra },
  });

/**
 * The answer for a request under /api/catalogue/ (null for any other path). 200: the Data API's
 * body and Content-Type with the public Cache-Control and tags (finishCaching adds the ETag and
 * the private rule); a Data API error: its answer with no-store.
 */
export async function answerCatalogue(
  url: URL,
  method: string,
  requestHeaders: Headers,
  options: CatalogueOptions,
): Promise<Response | null> {
  if (!url.pathname.startsWith(CATALOGUE_PREFIX) && url.pathname !== '/api/catalogue') return null;
  if (method !== 'GET' && method !== 'HEAD')
    return json(405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
  const path = cataloguePath(url.pathname);
  if (path === null) return json(404, 'Not Found');
  const query = new URLSearchParams(url.search);
  // The key is the host's, never the caller's (and one URL per read for the cache).
  query.delete('apikey');
  const search = query.size ? `?${query}` : '';
  let upstream: Response;
  try {
    upstream = await fetch(`${options.supabaseUrl}/rest/v1/${path}${search}`, {
      headers: {
        apikey: options.anonKey,
        Authorization: `Bearer ${options.anonKey}`,
        // postgrest-js asks for a single object this way (.single(), .maybeSingle()).
        Accept: requestHeaders.get('Accept') ?? 'application/json',
      },
    });
  } catch (error) {
    console.error('catalogue api:', error);
    return json(503, 'Service Unavailable', { 'Retry-After': '60' });
  }
  const body = await upstream.text();
  const headers: Record<string, string> = {
    'Content-Type': upstream.headers.get('Content-Type') ?? 'application/json',
    Vary: 'Accept',
  };
  // Not Content-Range: PostgREST's `0-24/*` on a 200 makes a shared cache (Varnish) refuse the
  // answer as a malformed partial one, and the storefront never asks for a count.
  if (!upstream.ok)
    return new Response(body, {
      status: upstream.status,
      headers: { ...headers, 'Cache-Control': NO_STORE },
    });
  return new Response(body, {
    status: 200,
    headers: { ...headers, ...publicHeaders(catalogueTags(query)) },
  });
}
