// Authentication of a request's bearer token, run by the dispatcher for the routes that
// declare `user` or `serviceRole` (GoTrue's requireAuthentication / requireAdmin).
import { loadUser } from './accounts.ts';
import { AuthApiError, badRequest, forbidden, internalError } from './errors.ts';
import { type Ctx, headerValue } from './http.ts';
import { JwtError, type JwtClaims, verifyJwt } from './jwt.ts';
import { AUDIENCE, type AuthService, NIL_UUID } from './service.ts';
import type { UserRow } from './users.ts';
import { isUuid } from './validation.ts';

const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

export interface AuthedUser {
  claims: JwtClaims;
  user: UserRow;
  sessionId: string | null;
}

/** Verifies the bearer token; 401 without one, 403 bad_jwt when it does not verify. */
function parseBearer(svc: AuthService, ctx: Ctx): JwtClaims {
  const auth = headerValue(ctx.req, 'authorization') ?? '';
  const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m)
    throw new AuthApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  try {
    return verifyJwt(m[1]!, svc.opts.jwtSecret);
  } catch (e) {
    const detail = e instanceof JwtError ? e.detail : 'token is malformed';
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`);
  }
}

/** GoTrue's requireAuthentication + loadUser + session check. */
export async function requireUser(svc: AuthService, ctx: Ctx): Promise<AuthedUser> {
  const claims = parseBearer(svc, ctx);
  const aud = headerValue(ctx.req, 'x-jwt-aud') || AUDIENCE;
  const tokenAud = claims.aud;
  if (tokenAud !== undefined) {
    const auds = Array.isArray(tokenAud) ? tokenAud : [tokenAud];
    if (!auds.includes(aud))
      throw badRequest('validation_failed', "Token audience doesn't match request audience");
  }
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '')
    throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!isUuid(sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await loadUser(svc.pool, sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  let sessionId: string | null = null;
  if (
    typeof claims.session_id === 'string' &&
    claims.session_id !== '' &&
    claims.session_id !== NIL_UUID
  ) {
    if (!isUuid(claims.session_id))
      throw badRequest('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    const s = await svc.pool.query('select 1 from auth.sessions where id = $1 and user_id = $2', [
      claims.session_id,
      sub,
    ]);
    if (s.rowCount === 0)
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    sessionId = claims.session_id;
  }
  return { claims, user, sessionId };
}

export function requireAdmin(svc: AuthService, ctx: Ctx): JwtClaims {
  const claims = parseBearer(svc, ctx);
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role))
    throw forbidden('not_admin', 'User not allowed');
  return claims;
}

/** The user the dispatcher authenticated; none means the route does not declare `user`. */
export function signedInUser(ctx: Ctx): AuthedUser {
  if (!ctx.authed) throw internalError('route does not declare user authentication');
  return ctx.authed;
}

/** Audit actor for admin-API calls: the key's subject, else its role (service_role keys have no sub). */
export function adminActor(ctx: Ctx): { id: string; email: string } {
  const claims = ctx.adminClaims;
  if (!claims) throw internalError('route does not declare serviceRole authentication');
  const sub = typeof claims.sub === 'string' && isUuid(claims.sub) ? claims.sub : NIL_UUID;
  return { id: sub, email: typeof claims.role === 'string' ? claims.role : '' };
}
