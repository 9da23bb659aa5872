// Sessions: signing in (session row, AMR claim, first refresh token), refresh tokens, the step up
// to aal2 after an MFA code, and the session response with its access token.
import { randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { audit, loadFactorsJson, loadIdentities, loadUser } from './accounts.ts';
import { internalError } from './errors.ts';
import { AAL2_METHODS } from './factors.ts';
import { type Ctx, headerValue } from './http.ts';
import { type JwtClaims, signJwt } from './jwt.ts';
import { AUDIENCE, type AuthService, type Db, DEFAULT_ROLE, NIL_UUID } from './service.ts';
import { type Json, userJson } from './users.ts';

/** Classic GoTrue refresh token: 12 characters of lower-case base32. */
function generateRefreshToken(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += alphabet[b & 31];
  return out;
}

/** Signs the user in: a new session, its AMR claim and refresh token, and the session response. */
export async function issueSession(
  svc: AuthService,
  c: Db,
  userId: string,
  method: 'password' | 'otp',
  ctx: Ctx,
): Promise<Json> {
  const sessionId = randomUUID();
  const ip = isIP(ctx.ip) ? ctx.ip : null;
  await c.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', $3, $4)`,
    [sessionId, userId, headerValue(ctx.req, 'user-agent') ?? null, ip],
  );
  await c.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), $2, $3)`,
    [sessionId, method, randomUUID()],
  );
  const refreshToken = await insertRefreshToken(c, userId, sessionId, null);
  await c.query('update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1', [
    userId,
  ]);
  await c.query(
    `update auth.identities set last_sign_in_at = now(), updated_at = now() where user_id = $1 and provider = 'email'`,
    [userId],
  );
  const session = await sessionResponse(svc, c, userId, sessionId, refreshToken);
  const user = session.user as Json;
  await audit(c, ctx, { id: userId, email: String(user.email ?? '') }, 'login', 'account', {
    provider: 'email',
  });
  return session;
}

export async function insertRefreshToken(
  c: Db,
  userId: string,
  sessionId: string,
  parent: string | null,
): Promise<string> {
  const token = generateRefreshToken();
  await c.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ($1, $2, $3, false, now(), now(), $4, $5)`,
    [NIL_UUID, token, userId, parent, sessionId],
  );
  return token;
}

/** The session JSON: a fresh access token for the session plus the given refresh token. */
export async function sessionResponse(
  svc: AuthService,
  c: Db,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<Json> {
  const user = await loadUser(c, userId);
  if (!user) throw internalError('Database error finding user');
  const identities = await loadIdentities(c, userId);
  const factors = await loadFactorsJson(c, userId);
  const amr = await c.query<{ authentication_method: string; ts: number }>(
    `select authentication_method, extract(epoch from updated_at)::bigint as ts
     from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
    [sessionId],
  );
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + svc.opts.jwtExpiry;
  const claims: JwtClaims = {
    iss: svc.authExternalUrl,
    sub: user.id,
    aud: user.aud ?? AUDIENCE,
    exp,
    iat,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? DEFAULT_ROLE,
    // GoTrue's CalculateAALAndAMR: an MFA method among the session's AMR claims makes it aal2.
    aal: amr.rows.some((r) => AAL2_METHODS.has(r.authentication_method)) ? 'aal2' : 'aal1',
    amr: amr.rows.map((r) => ({ method: r.authentication_method, timestamp: Number(r.ts) })),
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  return {
    access_token: signJwt(claims, svc.opts.jwtSecret),
    token_type: 'bearer',
    expires_in: exp - Math.floor(Date.now() / 1000),
    expires_at: exp,
    refresh_token: refreshToken,
    user: userJson(user, identities, factors),
  };
}

/**
 * GoTrue's updateMFASessionAndClaims: the session gains the factor's AMR claim (so its tokens say
 * aal2, also after every refresh), its refresh token is swapped (the aal1 one no longer
 * refreshes), and the account's other sessions below aal2 end.
 */
export async function stepUpSession(
  svc: AuthService,
  c: Db,
  userId: string,
  sessionId: string,
  factorId: string,
  method: 'totp',
): Promise<Json> {
  await c.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), $2, $3)
     on conflict on constraint mfa_amr_claims_session_id_authentication_method_pkey
     do update set updated_at = now()`,
    [sessionId, method, randomUUID()],
  );
  const current = await c.query<{ token: string }>(
    `update auth.refresh_tokens set revoked = true, updated_at = now()
     where session_id = $1 and revoked = false returning token`,
    [sessionId],
  );
  const refreshToken = await insertRefreshToken(
    c,
    userId,
    sessionId,
    current.rows.at(-1)?.token ?? null,
  );
  await c.query(
    `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`,
    [sessionId, factorId],
  );
  await c.query(`delete from auth.sessions where user_id = $1 and aal < 'aal2'`, [userId]);
  return sessionResponse(svc, c, userId, sessionId, refreshToken);
}
