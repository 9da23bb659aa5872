// HTTP caching of the host function's public answers (REQ-CDN-1 to REQ-CDN-4, decisions 0255
// and 0256): one Cache-Control for everything a CDN may share, a strong ETag with 304, cache tags
// for a purge by tag, and never a shared copy of a signed-in visitor's request.
// Web-standard code only: the host's function imports it.
import { matchesIfNoneMatch } from './priceFeed.ts';

/**
 * Browsers ask again every time (with the ETag); a shared cache keeps an answer 60 s. No
 * stale-while-revalidate here: browsers honour it too, and a shopper or an admin reloading after
 * a change would get the old answer once more (decision 0255).
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=60';
/**
 * For CDNs only (RFC 9213; Cloudflare reads it, browsers ignore it): the 60 s, and 30 s more of
 * the old answer while the CDN fetches the new one. A change shows within 60 s, 90 s after a
 * quiet spell.
 */
export const CDN_CACHE_CONTROL = 'public, s-maxage=60, stale-while-revalidate=30';
/**
 * Netlify caches a function's answer only when told to: its own header (stripped before the
 * browser) with the same times, and `durable` so all its edge nodes share one copy (0256).
 */
export const NETLIFY_CDN_CACHE_CONTROL = 'public, durable, s-maxage=60, stale-while-revalidate=30';
/** Signed-in (Authorization other than the anon key) or cookie-carrying requests, and errors. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';
export const NO_STORE = 'no-store';
/** Netlify's and Cloudflare's purge-by-tag headers (the same comma-separated list). */
export const CACHE_TAG_HEADERS = ['Netlify-Cache-Tag', 'Cache-Tag'] as const;
/** The tag every catalogue-derived answer carries: purging it empties the whole store. */
export const CATALOGUE_TAG = 'catalogue';

/** One tag: printable ASCII without spaces or commas (both CDNs' rule), at most 100 chars. */
export function cacheTag(kind: string, value: string): string {
  return `${kind}-${encodeURIComponent(value).replace(/[%']/g, '_')}`.slice(0, 100);
}

/** The tag headers' value: distinct tags, comma-separated. */
export function cacheTagValue(tags: readonly string[]): string {
  return [...new Set(tags)].join(',');
}

/** Headers a shared cache needs on a public answer: Cache-Control and the tags. */
export function publicHeaders(tags: readonly string[] = [CATALOGUE_TAG]): Record<string, string> {
  const value = cacheTagValue(tags);
  return {
    'Cache-Control': PUBLIC_CACHE_CONTROL,
    'CDN-Cache-Control': CDN_CACHE_CONTROL,
    'Netlify-CDN-Cache-Control': NETLIFY_CDN_CACHE_CONTROL,
    ...Object.fromEntries(CACHE_TAG_HEADERS.map((name) => [name, value])),
  };
}

/** A request a shared cache must never answer for others: cookies, or a user's Authorization. */
export function isPersonalRequest(headers: Headers, anonKey: string): boolean {
  if (headers.has('Cookie')) return true;
  const authorization = headers.get('Authorization');
  return authorization !== null && authorization.trim() !== `Bearer ${anonKey}`;
}

/** A strong validator of the exact bytes (hex SHA-256, 128 bits). */
export async function strongEtag(body: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `"${hex.slice(0, 32)}"`;
}

/**
 * The last step of every answer of the host's function: a public 200 gets its ETag (unless it
 * has one, as the price feed) and becomes a 304 on a matching If-None-Match; a personal request's
 * answer becomes `private, no-store` without tags. Non-public answers pass as they are.
 */
export async function finishCaching(
  answer: Response,
  requestHeaders: Headers,
  anonKey: string,
): Promise<Response> {
  const cacheControl = answer.headers.get('Cache-Control') ?? '';
  if (!/^public\b/.test(cacheControl)) return answer;
  const headers = new Headers(answer.headers);
  if (isPersonalRequest(requestHeaders, anonKey)) {
    headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
    headers.delete('CDN-Cache-Control');
    headers.delete('Netlify-CDN-Cache-Control');
    for (const name of CACHE_TAG_HEADERS) headers.delete(name);
  }
  if (answer.status !== 200) return new Response(answer.body, { status: answer.status, headers });
  const body = await answer.text();
  const etag = headers.get('ETag') ?? (await strongEtag(body));
  headers.set('ETag', etag);
  if (matchesIfNoneMatch(requestHeaders.get('If-None-Match'), etag)) {
    headers.delete('Content-Type');
    headers.delete('Content-Length');
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}
