// The route table and the dispatcher. Every route declares its authentication and its per-IP
// rate limit; the dispatcher enforces both (limit first, then authentication, as GoTrue's
// middleware chain does), so handlers never check either themselves.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import {
  adminCreateUser,
  adminDeleteUser,
  adminGetUser,
  adminListUsers,
  adminUpdateUser,
  invite,
} from './admin.ts';
import { requireAdmin, requireUser } from './authenticate.ts';
import {
  AuthApiError,
  formatError,
  internalError,
  notFound,
  resolveApiVersion,
  tooManyRequests,
} from './errors.ts';
import { adminDeleteFactor, adminListFactors } from './factors.ts';
import { adminGenerateLink } from './generate-link.ts';
import {
  applyCors,
  type Ctx,
  headerValue,
  type Method,
  readJsonBody,
  type Reply,
  safeDecode,
} from './http.ts';
import { logout } from './logout.ts';
import { otp, recover, resend } from './mail-requests.ts';
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from './mfa.ts';
import { clientIp } from './rate-limit.ts';
import type { AuthService, LimiterName } from './service.ts';
import { health, jwks, settings } from './settings.ts';
import { signup } from './signup.ts';
import { token } from './token.ts';
import { getUser, updateUser } from './user.ts';
import { verifyGet, verifyPost } from './verify.ts';

/** none: anyone; user: a signed-in user's access token; serviceRole: a service-role key. */
export type Authentication = 'none' | 'user' | 'serviceRole';

export interface Route {
  method: Method;
  path: RegExp;
  auth: Authentication;
  /** Which `[auth.rate_limit]` per-IP limiter a request takes a token from, if any. */
  rateLimit: LimiterName | null;
  handler: (svc: AuthService, ctx: Ctx) => Reply | Promise<Reply>;
}

const route = (
  method: Method,
  path: RegExp,
  auth: Authentication,
  rateLimit: LimiterName | null,
  handler: Route['handler'],
): Route => ({ method, path, auth, rateLimit, handler });

/** Paths as GoTrue sees them (the gateway strips /auth/v1). Keep README.md's table in step. */
export const ROUTES: Route[] = [
  route('GET', /^\/health$/, 'none', null, health),
  route('GET', /^\/settings$/, 'none', null, settings),
  route('GET', /^\/\.well-known\/jwks\.json$/, 'none', null, jwks),
  route('POST', /^\/signup$/, 'none', 'signInSignUps', signup),
  route('POST', /^\/token$/, 'none', 'tokenRefresh', token),
  route('GET', /^\/verify$/, 'none', 'tokenVerifications', verifyGet),
  route('POST', /^\/verify$/, 'none', 'tokenVerifications', verifyPost),
  route('GET', /^\/user$/, 'user', null, getUser),
  route('PUT', /^\/user$/, 'user', 'signInSignUps', updateUser),
  route('POST', /^\/logout$/, 'user', null, logout),
  route('POST', /^\/resend$/, 'none', 'signInSignUps', resend),
  route('POST', /^\/recover$/, 'none', 'signInSignUps', recover),
  route('POST', /^\/otp$/, 'none', 'signInSignUps', otp),
  route('POST', /^\/factors$/, 'user', null, enrollFactor),
  route('POST', /^\/factors\/([^/]+)\/challenge$/, 'user', null, challengeFactor),
  route('POST', /^\/factors\/([^/]+)\/verify$/, 'user', null, verifyFactor),
  route('DELETE', /^\/factors\/([^/]+)$/, 'user', null, unenrollFactor),
  route('POST', /^\/invite$/, 'serviceRole', null, invite),
  route('GET', /^\/admin\/users$/, 'serviceRole', null, adminListUsers),
  route('POST', /^\/admin\/users$/, 'serviceRole', null, adminCreateUser),
  route('GET', /^\/admin\/users\/([^/]+)$/, 'serviceRole', null, adminGetUser),
  route('PUT', /^\/admin\/users\/([^/]+)$/, 'serviceRole', null, adminUpdateUser),
  route('DELETE', /^\/admin\/users\/([^/]+)$/, 'serviceRole', null, adminDeleteUser),
  route('POST', /^\/admin\/generate_link$/, 'serviceRole', null, adminGenerateLink),
  route('GET', /^\/admin\/users\/([^/]+)\/factors$/, 'serviceRole', null, adminListFactors),
  route(
    'DELETE',
    /^\/admin\/users\/([^/]+)\/factors\/([^/]+)$/,
    'serviceRole',
    null,
    adminDeleteFactor,
  ),
];

function findRoute(method: string, path: string): { route: Route; params: string[] } {
  let pathKnown = false;
  for (const r of ROUTES) {
    const hit = r.path.exec(path);
    if (!hit) continue;
    pathKnown = true;
    if (r.method === method) return { route: r, params: hit.slice(1).map(safeDecode) };
  }
  throw pathKnown
    ? new AuthApiError(405, 'method_not_allowed', 'Method not allowed')
    : notFound('not_found', 'Not Found');
}

/** Runs one request: CORS, routing, body, rate limit, authentication, handler, error format, log. */
export async function handleRequest(
  svc: AuthService,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const started = Date.now();
  const url = new URL(req.url ?? '/', 'http://localhost');
  // The gateway strips /auth/v1; tolerate it for direct callers (tests, scripts).
  let path = url.pathname.replace(/^\/auth\/v1(?=\/|$)/, '') || '/';
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const apiVersion = resolveApiVersion(headerValue(req, 'x-supabase-api-version'));
  applyCors(req, res);
  let status = 500;
  try {
    if (req.method === 'OPTIONS') {
      status = 204;
      res.writeHead(204).end();
      return;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const { route: matched, params } = findRoute(method, path);
    const body = method === 'GET' ? {} : await readJsonBody(req);
    const ctx: Ctx = {
      req,
      res,
      url,
      path,
      params,
      ip: clientIp(req.headers['x-forwarded-for'], req.socket.remoteAddress),
      body,
      authed: null,
      adminClaims: null,
      afterReply: [],
    };
    if (matched.rateLimit && !svc.limiters[matched.rateLimit].take(ctx.ip))
      throw tooManyRequests('over_request_rate_limit', 'Request rate limit reached');
    if (matched.auth === 'user') ctx.authed = await requireUser(svc, ctx);
    else if (matched.auth === 'serviceRole') ctx.adminClaims = requireAdmin(svc, ctx);
    const reply = await matched.handler(svc, ctx);
    status = reply.status;
    const headers: Record<string, string> = { ...reply.headers };
    if (reply.body === undefined) {
      res.writeHead(reply.status, headers).end();
    } else {
      headers['Content-Type'] = 'application/json';
      res.writeHead(reply.status, headers).end(JSON.stringify(reply.body));
    }
    for (const task of ctx.afterReply) await task();
  } catch (e) {
    const err = e instanceof AuthApiError ? e : null;
    if (!err)
      svc.log(
        `error ${req.method} ${path}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      );
    const formatted = formatError(
      err ?? internalError('Internal Server Error'),
      apiVersion,
      randomUUID(),
    );
    status = formatted.status;
    if (!res.headersSent) {
      res
        .writeHead(formatted.status, { ...formatted.headers, 'Content-Type': 'application/json' })
        .end(JSON.stringify(formatted.body));
    } else {
      res.end();
    }
  } finally {
    svc.log(
      `${new Date().toISOString()} ${req.method} ${path} ${status} ${Date.now() - started}ms`,
    );
  }
}
