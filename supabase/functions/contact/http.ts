// HTTP helpers of the contact function: CORS, size-limited body reading, client IP, key checks.
// No imports and no Deno APIs, so the same file runs in the edge runtime and in Node unit tests.

/** Headers supabase-js sends with functions.invoke (stack/PLATFORM.md: CORS), so preflights pass. */
const ALLOWED_HEADERS =
  'authorization, x-client-info, apikey, content-type, x-retry-count, x-region';

/**
 * Which browser origins may call the function. `['*']` allows any origin (local development);
 * otherwise exact origins such as `https://shop.example`.
 */
export type AllowedOrigins = readonly string[];

/** Parses a comma-separated origin list; URLs are reduced to their origin. Empty → null. */
export function parseOrigins(value: string | undefined): AllowedOrigins | null {
  if (!value || value.trim() === '') return null;
  const out: string[] = [];
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    if (item === '*') return ['*'];
    try {
      out.push(new URL(item).origin);
    } catch {
      throw new Error(`Invalid origin in allowed origins: "${item}"`);
    }
  }
  return out.length > 0 ? out : null;
}

/** True when a request from `origin` (the Origin header, null if absent) may be answered. */
export function isOriginAllowed(origin: string | null, allowed: AllowedOrigins): boolean {
  // Requests without Origin do not come from a browser page; CORS does not apply to them.
  if (origin === null) return true;
  return allowed.includes('*') || allowed.includes(origin);
}

/** CORS headers for a response to a request carrying `origin`. */
export function corsHeaders(
  origin: string | null,
  allowed: AllowedOrigins,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': '86400',
  };
  if (allowed.includes('*')) {
    headers['Access-Control-Allow-Origin'] = '*';
  } else {
    // The answer depends on the Origin header, so caches must key on it.
    headers['Vary'] = 'Origin';
    if (origin !== null && allowed.includes(origin))
      headers['Access-Control-Allow-Origin'] = origin;
  }
  return headers;
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Request body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Reads a request body as UTF-8 text, stopping as soon as more than `limit` bytes arrive.
 * Content-Length is only a shortcut: a client can omit it (chunked) or lie, so the bytes are
 * counted as they stream in.
 */
export async function readBodyLimited(req: Request, limit: number): Promise<string> {
  const declared = req.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    throw new BodyTooLargeError(limit);
  }
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:.]+$/i;

/** Returns `value` if it looks like an IPv4/IPv6 address, else null. */
export function normaliseIp(value: string | undefined): string | null {
  if (!value) return null;
  let ip = value.trim();
  // "[2001:db8::1]:443" and "203.0.113.7:51234" carry a port some proxies keep.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(ip);
  if (bracketed) ip = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(ip)) ip = ip.slice(0, ip.lastIndexOf(':'));
  if (IPV4.test(ip)) return ip;
  if (ip.includes(':') && ip.length <= 45 && IPV6.test(ip)) return ip.toLowerCase();
  return null;
}

/** The header hosted Supabase's edge (Cloudflare) sets to the caller's address (decision 0200). */
export const DEFAULT_CLIENT_ADDRESS_HEADER = 'cf-connecting-ip';

/**
 * The visitor's IP, from the one header the platform's edge sets itself and overwrites whatever
 * the client sent (decision 0200): CF-Connecting-IP on hosted Supabase, and the local gateway
 * sets it from the socket the same way. X-Forwarded-For is no good there: hosted keeps a
 * client's own entries on the left and its proxies append on the right, so neither end is the
 * caller. `header` names another header for a project behind another edge; for a header that is
 * a list, `hopsFromRight` counts the entries trusted proxies wrote after the caller's (0: the
 * rightmost). Null when the header is missing or holds no address.
 */
export function clientIp(
  headers: Headers,
  hopsFromRight: number,
  header: string = DEFAULT_CLIENT_ADDRESS_HEADER,
): string | null {
  const value = headers.get(header);
  if (!value) return null;
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) return null;
  const index = Math.max(0, entries.length - 1 - Math.max(0, hopsFromRight));
  return normaliseIp(entries[index]);
}

/** Constant-time string comparison for secrets (no early exit on the first difference). */
export function safeEqual(a: string, b: string): boolean {
  const enc = new TextEncoder();
  const x = enc.encode(a);
  const y = enc.encode(b);
  let diff = x.length ^ y.length;
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** The bearer token of an Authorization header, or null. */
export function bearerToken(headers: Headers): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '');
  return m ? m[1]! : null;
}

/** True when the request carries one of the service-role secrets (Bearer or apikey header). */
export function hasServiceKey(headers: Headers, secrets: readonly string[]): boolean {
  const presented = [bearerToken(headers), headers.get('apikey')].filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  let ok = false;
  // Compare against every secret so timing does not reveal which one matched.
  for (const candidate of presented) {
    for (const secret of secrets) {
      if (secret !== '' && safeEqual(candidate, secret)) ok = true;
    }
  }
  return ok;
}

/** True for JSON media types (application/json, application/json; charset=utf-8, +json). */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}
