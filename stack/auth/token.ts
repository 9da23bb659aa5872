// POST /token: the password, refresh_token and pkce grants (rate limit: token refreshes).
import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { audit, findUserByEmail, loadUser } from './accounts.ts';
import { badRequest, notFound } from './errors.ts';
import { type Ctx, type Reply, str } from './http.ts';
import { type AuthService, CommitThenThrow } from './service.ts';
import { insertRefreshToken, issueSession, sessionResponse } from './sessions.ts';
import { checkPasswordStrength } from './validation.ts';

export async function token(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const grantType = ctx.url.searchParams.get('grant_type') ?? '';
  if (grantType === 'password') return passwordGrant(svc, ctx);
  if (grantType === 'refresh_token') return refreshGrant(svc, ctx);
  if (grantType === 'pkce') return pkceGrant(svc, ctx);
  throw badRequest('invalid_credentials', 'unsupported_grant_type');
}

async function passwordGrant(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const rawEmail = str(ctx.body, 'email');
  const phone = str(ctx.body, 'phone');
  const password = str(ctx.body, 'password');
  if (rawEmail !== '' && phone !== '') {
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    );
  }
  if (rawEmail === '' && phone === '')
    throw badRequest('validation_failed', 'missing email or phone');
  const invalid = () => badRequest('invalid_credentials', 'Invalid login credentials');
  if (rawEmail === '') throw invalid();
  const email = rawEmail.trim().toLowerCase();
  // No stored address holds NUL (Postgres text cannot), so it cannot match; it must not reach SQL.
  const user = email.includes('\u0000') ? null : await findUserByEmail(svc.pool, email);
  if (!user || !user.encrypted_password) {
    // Same bcrypt work as for a known address, so the answer's timing reveals nothing.
    await bcrypt.compare(password, svc.dummyPasswordHash).catch(() => false);
    throw invalid();
  }
  if (user.banned_until && Date.parse(user.banned_until) > Date.now())
    throw badRequest('user_banned', 'User is banned');
  const ok = await bcrypt.compare(password, user.encrypted_password).catch(() => false);
  if (!ok) throw invalid();
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
  const session = await svc.tx((c) => issueSession(svc, c, user.id, 'password', ctx));
  const weak = checkPasswordStrength(password, svc.policy);
  if (weak) session.weak_password = { message: weak.message, reasons: weak.reasons };
  return { status: 200, body: session };
}

/** PKCE: exchanges the auth code from the verify redirect plus the verifier for a session. */
async function pkceGrant(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const authCode = str(ctx.body, 'auth_code');
  const verifier = str(ctx.body, 'code_verifier');
  if (authCode === '' || verifier === '') {
    throw badRequest(
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  return svc.tx(async (c) => {
    const r = await c.query<{
      id: string;
      user_id: string | null;
      code_challenge_method: 's256' | 'plain';
      code_challenge: string;
      expired: boolean;
    }>(
      `select id, user_id, code_challenge_method, code_challenge,
         (auth_code_issued_at is null or auth_code_issued_at + interval '5 minutes' < now()) as expired
       from auth.flow_state where auth_code = $1 for update`,
      [authCode],
    );
    const flow = r.rows[0];
    if (!flow || !flow.user_id) {
      throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    }
    if (flow.expired)
      throw badRequest('flow_state_expired', 'invalid flow state, flow state has expired');
    const computed =
      flow.code_challenge_method === 's256'
        ? createHash('sha256').update(verifier).digest('base64url')
        : verifier;
    if (computed !== flow.code_challenge) {
      throw badRequest(
        'bad_code_verifier',
        'code challenge does not match previously saved code verifier',
      );
    }
    await c.query('delete from auth.flow_state where id = $1', [flow.id]);
    return { status: 200, body: await issueSession(svc, c, flow.user_id, 'otp', ctx) };
  });
}

async function refreshGrant(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const presented = str(ctx.body, 'refresh_token');
  if (presented.length < 12) throw badRequest('validation_failed', 'Refresh token is not valid');
  const notFoundError = () =>
    badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  return svc.tx(async (c) => {
    const r = await c.query<{
      id: number;
      token: string;
      user_id: string;
      revoked: boolean;
      session_id: string | null;
      updated_at: string;
      parent: string | null;
    }>('select * from auth.refresh_tokens where token = $1 for update', [presented]);
    const token = r.rows[0];
    if (!token) throw notFoundError();
    if (!token.session_id)
      throw badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found');
    const session = await c.query<{ id: string; not_after: string | null }>(
      'select id, not_after from auth.sessions where id = $1 for update',
      [token.session_id],
    );
    if (session.rowCount === 0) throw notFoundError();
    const notAfter = session.rows[0]!.not_after;
    if (notAfter && Date.parse(notAfter) <= Date.now())
      throw badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
    const user = await loadUser(c, token.user_id);
    if (!user) throw notFoundError();
    if (user.banned_until && Date.parse(user.banned_until) > Date.now()) {
      throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
    }

    let issued: string | null = null;
    if (token.revoked) {
      const active = await c.query<{ token: string; parent: string | null }>(
        `select token, parent from auth.refresh_tokens where session_id = $1 and revoked = false
         order by id desc limit 1`,
        [token.session_id],
      );
      const current = active.rows[0];
      if (current && current.parent === token.token) {
        // The client lost the previous response and retries: hand back the active child.
        issued = current.token;
      } else {
        const reuseUntil = Date.parse(token.updated_at) + svc.opts.refreshTokenReuseInterval * 1000;
        if (Date.now() > reuseUntil) {
          if (svc.opts.refreshTokenRotation) {
            // Possible token theft: the whole family (session) is revoked. updated_at stays, so
            // the reuse window of the still-active token does not restart now.
            await c.query(
              'update auth.refresh_tokens set revoked = true where session_id = $1 and revoked = false',
              [token.session_id],
            );
            await audit(c, ctx, user, 'token_revoked', 'token');
          }
          throw new CommitThenThrow(
            badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
          );
        }
      }
    }
    if (!issued) {
      if (svc.opts.refreshTokenRotation) {
        await c.query(
          'update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1 and revoked = false',
          [token.id],
        );
        issued = await insertRefreshToken(c, user.id, token.session_id, token.token);
      } else {
        issued = token.token;
      }
    }
    await c.query(
      `update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1`,
      [token.session_id],
    );
    await audit(c, ctx, user, 'token_refreshed', 'token');
    return {
      status: 200,
      body: await sessionResponse(svc, c, user.id, token.session_id, issued),
    };
  });
}
