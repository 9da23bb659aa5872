// HTTP plumbing shared by the handlers: the request context, body parsing, CORS, the client
// address and the small readers of JSON bodies.
import type http from 'node:http';
import { AuthApiError, badRequest } from './errors.ts';
import type { JwtClaims } from './jwt.ts';
import { chooseRedirect, type RedirectConfig } from './redirect.ts';
import type { AuthedUser } from './authenticate.ts';
import type { Json } from './users.ts';

const MAX_BODY_BYTES = 1024 * 1024;
const CORS_ALLOW_HEADERS =
  'Accept, Authorization, Content-Type, X-Client-IP, X-Client-Info, X-JWT-AUD, x-use-cookie, X-Supabase-Api-Version, apikey';
const CORS_EXPOSE_HEADERS = 'X-Total-Count, Link, X-Supabase-Api-Version, x-sb-error-code';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Ctx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  path: string;
  params: string[];
  ip: string;
  body: Json;
  /** The signed-in user, set by the dispatcher on routes with authentication `user`. */
  authed: AuthedUser | null;
  /** The service-role key's claims, set by the dispatcher on routes with `serviceRole`. */
  adminClaims: JwtClaims | null;
  /** Work done once the answer is written (mail whose timing must not show in the answer). */
  afterReply: Array<() => Promise<void>>;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The body's string field, '' when absent or not a string. */
export function str(body: Json, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v : '';
}

/** The body's object field, null when absent or not an object. */
export function obj(body: Json, key: string): Json | null {
  const v = body[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
}

/** Fragment/query encoding like Go's url.Values.Encode: keys sorted, form-encoded. */
export function formEncode(values: Record<string, string>): string {
  return Object.keys(values)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(values[k]!).replace(/%20/g, '+')}`)
    .join('&');
}

/** Path segments that are not valid percent-encoding are taken literally (and then fail validation). */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Where mailed links and the verify redirect lead: redirect_to if allowed, else the site URL. */
export function redirectFor(ctx: Ctx, cfg: RedirectConfig): string {
  return chooseRedirect(
    ctx.url.searchParams.get('redirect_to'),
    headerValue(ctx.req, 'referer'),
    cfg,
  );
}

export function applyCors(req: http.IncomingMessage, res: http.ServerResponse): void {
  const origin = headerValue(req, 'origin');
  if (!origin) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Vary', 'Origin');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
    res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', '86400');
  } else {
    res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
  }
}

export async function readJsonBody(req: http.IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES)
      throw new AuthApiError(413, 'request_too_large', 'Request body too large');
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('bad_json', 'Could not parse request body as JSON: expected a JSON object');
  }
  return parsed as Json;
}
