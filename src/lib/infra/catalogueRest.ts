import { CATALOGUE_API } from './catalogueApiPath';
import { env } from './env';

/**
 * The home page's reads of the public catalogue (its category buttons, the next page, a renamed
 * category) and the Buy Now count as plain requests: the storefront's first load carries no query
 * builder (decision 0258, REQ-WEIGHT-4). Other pages' reads keep postgrest-js (catalogueDb.ts),
 * which they fetch on first use.
 *
 * Reads are GETs on the site's own /api/catalogue (src/host/catalogueApi.ts, decision 0255): no
 * key, no cookies, so one URL is one answer a CDN shares (REQ-CDN-1). The Buy Now count is a write
 * and goes to the Data API with the anon key.
 */
export interface RestOptions {
  signal?: AbortSignal;
  /** Sent even if the visitor leaves the page at once (the Buy Now count). */
  keepalive?: boolean;
}

/** PostgREST's error body (message, code, details, hint) as an Error, as postgrest-js gives it. */
async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : null;
  if (response.ok) return body as T;
  const { message } = (body ?? {}) as { message?: string };
  throw Object.assign(new Error(message ?? `HTTP ${response.status}`), body, {
    status: response.status,
  });
}

/** POST /rest/v1/rpc/<fn> with the arguments as JSON (undefined ones left out: the default). */
export async function restRpc<T>(
  fn: string,
  args: Record<string, unknown>,
  { signal, keepalive }: RestOptions = {},
): Promise<T> {
  const response = await fetch(`${env.supabaseUrl}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: {
      apikey: env.supabaseAnonKey,
      Authorization: `Bearer ${env.supabaseAnonKey}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(args),
    signal,
    keepalive,
  });
  return answer<T>(response);
}

/**
 * A catalogue read's URL: the parameters in the order given, undefined ones left out (the
 * function's default), as postgrest-js writes an `{ get: true }` call, so the home page's early
 * first-page script and this code ask the very same URL (one cached copy).
 */
export function catalogueUrl(
  path: string,
  params: Record<string, string | number | undefined>,
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) query.append(name, String(value));
  return `${location.origin}${CATALOGUE_API}/${path}?${query.toString()}`;
}

/** GET /api/catalogue/<path>?<params> (PostgREST's own query syntax, or a function's arguments). */
export async function catalogueGet<T>(
  path: string,
  params: Record<string, string | number | undefined>,
  signal?: AbortSignal,
): Promise<T> {
  const response = await fetch(catalogueUrl(path, params), { signal, credentials: 'omit' });
  return answer<T>(response);
}
