// The API gateway: one port in front of PostgREST, auth and the functions runtime, routing like
// Supabase's Kong (stack/PLATFORM.md: Gateway routes, API keys, CORS): prefixes stripped, `apikey`
// required on the Data API and auth routes with the hosted 401 bodies (functions: the runtime's
// verify_jwt decides, as hosted), secret keys refused from browsers as hosted does, Authorization
// defaulting to the key, CORS answered, X-Forwarded-For and CF-Connecting-IP set from the socket
// (client-supplied address headers dropped), header/body timeouts and a body-size limit against
// slow or huge requests, bodies streamed both ways, and a 502/504 JSON answer instead of a hang
// when an upstream is down or slow.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UNFILTERED_WRITE_STATUS, unfilteredWriteError } from './safeupdate.ts';

export interface GatewayKeys {
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
}

export interface GatewayOptions {
  host?: string;
  port: number;
  upstreams: { rest: string; auth: string; functions: string; storage?: string };
  keys: GatewayKeys;
  /** Upstream read timeout in ms (Kong: 60 s; functions 150 s). */
  timeouts?: { default: number; functions: number };
  /** Limits on what clients send; each has a safe default (GATEWAY_LIMITS). */
  limits?: Partial<GatewayLimits>;
  /** Body limit of /storage/v1 (uploads), instead of limits.maxBodyBytes. */
  storageMaxBodyBytes?: number;
  log?: (line: string) => void;
}

export interface GatewayLimits {
  /** A client must send its request headers within this time (else 408 and closed). */
  headersTimeoutMs: number;
  /** ... and its whole request, body included, within this time. */
  requestTimeoutMs: number;
  /** Larger request bodies are refused with 413 before or while they reach a backend. */
  maxBodyBytes: number;
}

// Slow clients (slowloris) are cut off after these times instead of holding connections; bodies
// over 8 MiB never reach PostgREST, auth or the functions (none of the store's requests comes near).
export const GATEWAY_LIMITS: GatewayLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxBodyBytes: 8 * 1024 * 1024,
};

const TOO_LARGE = { message: 'Request size limit exceeded' };

// What hosted Supabase answers when a secret key comes from a browser.
const SECRET_KEY_IN_BROWSER = {
  message: 'Forbidden use of secret API key in browser',
  hint: 'Secret API keys can only be used in a protected environment and should never be used in a browser. Delete this secret API key immediately!',
};

/**
 * True when an `sb_secret_` key arrives the way a browser sends things: with a browser
 * User-Agent (hosted's test), with an Origin header (servers do not send one), or in the URL
 * (where it ends up in history and logs).
 */
export function secretKeyFromBrowser(
  headers: http.IncomingHttpHeaders,
  headerKey: string | undefined,
  queryKey: string | null,
): boolean {
  const bearer = /^Bearer\s+(sb_secret_\S*)/i.exec(headers.authorization ?? '')?.[1];
  if (queryKey?.startsWith('sb_secret_')) return true;
  if (!headerKey?.startsWith('sb_secret_') && !bearer) return false;
  const ua = headers['user-agent'] ?? '';
  // (Not Sec-Fetch-*: Node's fetch sends `sec-fetch-mode: cors` too.)
  return /^Mozilla\//.test(ua) || headers.origin !== undefined;
}

export interface Gateway {
  url: string;
  close(): Promise<void>;
}

interface Route {
  prefix: string;
  upstream: 'rest' | 'auth' | 'functions' | 'storage';
  /** Path the prefix is replaced with upstream. */
  target: string;
  keyAuth: boolean;
  rewriteAuthorization: boolean;
  extraHeaders?: Record<string, string>;
  exact?: boolean;
}

// Order matters: the open auth routes come before the general /auth/v1 route.
const ROUTES: Route[] = [
  ...['verify', 'callback', 'authorize'].map<Route>((p) => ({
    prefix: `/auth/v1/${p}`,
    upstream: 'auth',
    target: `/${p}`,
    keyAuth: false,
    rewriteAuthorization: false,
  })),
  { prefix: '/auth/v1', upstream: 'auth', target: '', keyAuth: true, rewriteAuthorization: true },
  { prefix: '/rest/v1', upstream: 'rest', target: '', keyAuth: true, rewriteAuthorization: true },
  {
    prefix: '/graphql/v1',
    upstream: 'rest',
    target: '/rpc/graphql',
    keyAuth: true,
    rewriteAuthorization: true,
    extraHeaders: { 'content-profile': 'graphql_public' },
    exact: true,
  },
  // Like the CLI and self-hosted: no key-auth on functions (the runtime checks JWTs itself).
  {
    prefix: '/functions/v1',
    upstream: 'functions',
    target: '',
    keyAuth: false,
    rewriteAuthorization: true,
  },
  // Like self-hosted Kong: no key-auth (public object URLs carry no key); the Storage service
  // checks the JWT (the key as default Authorization) itself.
  {
    prefix: '/storage/v1',
    upstream: 'storage',
    target: '',
    keyAuth: false,
    rewriteAuthorization: true,
  },
];

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

// Headers in which clients, proxies and CDNs pass "the client's address". A client can send any of
// them, so none reaches an upstream: the gateway sets X-Forwarded-For, X-Real-IP and
// CF-Connecting-IP to the socket peer itself (rate limits, audit logs and sessions must never
// record a made-up address).
export const CLIENT_ADDRESS_HEADERS = new Set([
  'x-forwarded-for',
  'x-real-ip',
  'forwarded',
  'x-forwarded',
  'forwarded-for',
  'x-client-ip',
  'client-ip',
  'x-original-forwarded-for',
  'cf-connecting-ip',
  'cf-connecting-ipv6',
  'true-client-ip',
  'x-cluster-client-ip',
  'fastly-client-ip',
  'x-envoy-external-address',
]);

/** The socket peer's address; IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d. */
export function peerAddress(remote: string | undefined): string {
  if (!remote) return '127.0.0.1';
  return remote.startsWith('::ffff:') && remote.includes('.') ? remote.slice(7) : remote;
}

const CORS_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT';

export function matchRoute(pathname: string): { route: Route; rest: string } | null {
  for (const route of ROUTES) {
    if (pathname === route.prefix) return { route, rest: '' };
    if (!route.exact && pathname.startsWith(`${route.prefix}/`)) {
      return { route, rest: pathname.slice(route.prefix.length) };
    }
  }
  return null;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  cors: boolean,
  extra: http.OutgoingHttpHeaders = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    ...(cors ? { 'access-control-allow-origin': '*' } : {}),
    ...extra,
  });
  res.end(payload);
}

/** Authorization default of the CLI/self-hosted Kong (stack/PLATFORM.md: API keys and the Authorization default). */
export function defaultAuthorization(
  authorization: string | undefined,
  apikey: string | undefined,
  keys: GatewayKeys,
): string | undefined {
  if (authorization && !/^Bearer sb_/i.test(authorization)) return authorization;
  if (!apikey) return authorization;
  if (apikey === keys.secretKey) return `Bearer ${keys.serviceRoleKey}`;
  if (apikey === keys.publishableKey) return `Bearer ${keys.anonKey}`;
  return `Bearer ${apikey}`;
}

export function withoutApikeyParam(search: string): string {
  if (!search) return search;
  const kept = search
    .slice(1)
    .split('&')
    .filter((part) => part !== 'apikey' && !part.startsWith('apikey='));
  return kept.length > 0 ? `?${kept.join('&')}` : '';
}

export function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const host = opts.host ?? '127.0.0.1';
  // Functions: a little over the runtime's own 150 s idle timeout, so its 504 IDLE_TIMEOUT answer
  // (stack/functions/workers.ts) is the one clients get, as on hosted.
  const timeouts = opts.timeouts ?? { default: 60_000, functions: 155_000 };
  const knownKeys = new Set([
    opts.keys.anonKey,
    opts.keys.serviceRoleKey,
    opts.keys.publishableKey,
    opts.keys.secretKey,
  ]);
  const limits: GatewayLimits = { ...GATEWAY_LIMITS, ...opts.limits };
  // No cap on sockets per backend: with one, a few dozen slow clients holding requests open
  // queued every other client behind them. Slow clients are bounded by the timeouts instead.
  const agent = new http.Agent({ keepAlive: true });

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    const hasOrigin = typeof req.headers.origin === 'string';
    const matched = matchRoute(url.pathname);
    if (!matched) {
      sendJson(res, 404, { message: 'no Route matched with those values' }, hasOrigin);
      return;
    }
    const { route, rest } = matched;

    // CORS preflight: answered here, before any key check (browsers send no apikey with it).
    if (req.method === 'OPTIONS' && hasOrigin && req.headers['access-control-request-method']) {
      const requested = req.headers['access-control-request-headers'];
      res.writeHead(200, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': CORS_METHODS,
        ...(requested ? { 'access-control-allow-headers': requested } : {}),
        'content-length': '0',
      });
      res.end();
      return;
    }

    const rawHeaderKey = req.headers.apikey;
    const headerKey = Array.isArray(rawHeaderKey) ? rawHeaderKey[0] : rawHeaderKey;
    const queryKey = url.searchParams.get('apikey');
    const apikey = headerKey ?? queryKey ?? undefined;
    if (secretKeyFromBrowser(req.headers, headerKey, queryKey)) {
      sendJson(res, 401, SECRET_KEY_IN_BROWSER, hasOrigin, {
        'sb-error-code': 'UNAUTHORIZED_INVALID_API_KEY_TYPE',
      });
      return;
    }
    const maxBodyBytes =
      route.upstream === 'storage'
        ? (opts.storageMaxBodyBytes ?? limits.maxBodyBytes)
        : limits.maxBodyBytes;
    const declaredLength = Number(req.headers['content-length'] ?? 0);
    if (declaredLength > maxBodyBytes) {
      sendJson(res, 413, TOO_LARGE, hasOrigin, { connection: 'close' });
      req.resume();
      return;
    }
    if (route.keyAuth) {
      if (!apikey) {
        sendJson(
          res,
          401,
          {
            message: 'No API key found in request',
            hint: 'No `apikey` request header or url param was found.',
          },
          hasOrigin,
        );
        return;
      }
      if (!knownKeys.has(apikey)) {
        sendJson(
          res,
          401,
          {
            message: 'Invalid API key',
            hint: 'Double check your Supabase `anon` or `service_role` API key.',
          },
          hasOrigin,
        );
        return;
      }
    }

    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && !CLIENT_ADDRESS_HEADERS.has(name) && value !== undefined)
        headers[name] = value;
    }
    if (route.rewriteAuthorization) {
      const authorization = defaultAuthorization(req.headers.authorization, apikey, opts.keys);
      if (authorization) headers.authorization = authorization;
    }
    Object.assign(headers, route.extraHeaders);
    // The gateway is the edge (no proxy of ours in front): the socket peer is the client.
    const remote = peerAddress(req.socket.remoteAddress);
    headers['x-forwarded-for'] = remote;
    headers['x-real-ip'] = remote;
    // Hosted's edge (Cloudflare) sets CF-Connecting-IP to the connecting address, whatever the
    // client sent; the database and the contact function read it (decision 0200).
    headers['cf-connecting-ip'] = remote;
    headers['x-forwarded-proto'] = 'http';
    headers['x-forwarded-host'] = req.headers.host ?? `${host}:${opts.port}`;
    headers['x-forwarded-port'] = String(opts.port);
    headers['x-forwarded-prefix'] = route.prefix;
    if (req.headers['transfer-encoding']) headers['transfer-encoding'] = 'chunked';

    // The key is consumed here (hidden from upstreams, as hosted does): PostgREST would read an
    // `apikey` query parameter as a column filter.
    const search = route.keyAuth ? withoutApikeyParam(url.search) : url.search;
    // Hosted's safeupdate refuses an UPDATE/DELETE without WHERE (400, 21000); the local Postgres
    // lacks the library, so the gateway answers for it (stack/safeupdate.ts, decision 0201).
    const unfiltered =
      route.prefix === '/rest/v1'
        ? unfilteredWriteError(req.method, rest, new URLSearchParams(search))
        : null;
    if (unfiltered) {
      sendJson(res, UNFILTERED_WRITE_STATUS, unfiltered, hasOrigin);
      req.resume();
      return;
    }
    const upstreamUrl = opts.upstreams[route.upstream];
    if (!upstreamUrl) {
      sendJson(res, 404, { message: 'no Route matched with those values' }, hasOrigin);
      return;
    }
    const upstream = new URL(upstreamUrl);
    const upstreamReq = http.request({
      agent,
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: `${route.target}${rest}${search}` || '/',
      headers,
    });
    const readTimeout = route.upstream === 'functions' ? timeouts.functions : timeouts.default;
    upstreamReq.setTimeout(readTimeout, () => {
      upstreamReq.destroy();
      sendJson(res, 504, { message: 'The upstream server is timing out' }, hasOrigin);
    });
    // Bodies without (or with a false) Content-Length are counted as they stream through.
    let received = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= maxBodyBytes || tooLarge) return;
      tooLarge = true;
      req.unpipe(upstreamReq);
      upstreamReq.destroy();
      sendJson(res, 413, TOO_LARGE, hasOrigin, { connection: 'close' });
    });
    upstreamReq.on('error', (err) => {
      if (tooLarge) return;
      opts.log?.(`gateway: ${req.method} ${url.pathname} → ${route.upstream}: ${err.message}`);
      sendJson(
        res,
        502,
        { message: 'An invalid response was received from the upstream server' },
        hasOrigin,
      );
    });
    upstreamReq.on('response', (upstreamRes) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(upstreamRes.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      }
      if (upstreamRes.headers['transfer-encoding'])
        out['transfer-encoding'] = upstreamRes.headers['transfer-encoding'];
      // Kong's cors plugin: any request carrying Origin gets `*`, whatever the upstream said.
      if (hasOrigin) out['access-control-allow-origin'] = '*';
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, out);
      upstreamRes.pipe(res);
      upstreamRes.on('error', () => res.destroy());
    });
    // Client went away: stop the upstream work too.
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
    req.pipe(upstreamReq);
  };

  const server = http.createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      opts.log?.(`gateway: ${(err as Error).message}`);
      sendJson(res, 500, { message: 'An unexpected error occurred' }, false);
    }
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
            agent.destroy();
          }),
      });
    });
  });
}
