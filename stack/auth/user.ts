// GET /user and PUT /user (updateUser): the signed-in user's own account.
import bcrypt from 'bcryptjs';
import {
  audit,
  findUserByEmail,
  loadFactorsJson,
  loadIdentities,
  loadUser,
  userResponse,
} from './accounts.ts';
import { signedInUser } from './authenticate.ts';
import { prepareEmailChange } from './code-mail.ts';
import { badRequest, forbidden, unprocessable } from './errors.ts';
import { type Ctx, obj, redirectFor, type Reply } from './http.ts';
import { pkceParams } from './one-time-codes.ts';
import { type AuthService, type Db, emailExists } from './service.ts';
import { mergeMetadata, userJson } from './users.ts';
import { assertPasswordAcceptable, normalizeEmail } from './validation.ts';

export async function getUser(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const { user } = signedInUser(ctx);
  const [identities, factors] = await Promise.all([
    loadIdentities(svc.pool, user.id),
    loadFactorsJson(svc.pool, user.id),
  ]);
  return { status: 200, body: userJson(user, identities, factors) };
}

export async function updateUser(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const body = ctx.body;
  const authed = signedInUser(ctx);
  if (body.app_metadata !== undefined && body.app_metadata !== null) {
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  }
  const password = typeof body.password === 'string' ? body.password : null;
  // An empty password fails the policy like any short one (422 weak_password, reason length).
  if (password !== null) assertPasswordAcceptable(password, svc.policy);
  let newEmail: string | null = null;
  if (typeof body.email === 'string' && body.email !== '') newEmail = normalizeEmail(body.email);
  const pkce = pkceParams(body);
  const redirectTo = redirectFor(ctx, svc.redirectCfg);

  return svc.tx(async (c) => {
    const user = await loadUser(c, authed.user.id, true);
    if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
    if (password !== null) {
      if (svc.opts.requireCurrentPassword && user.encrypted_password) {
        await assertCurrentPassword(c, user.encrypted_password, authed.sessionId, body);
      }
      if (
        user.encrypted_password &&
        (await bcrypt.compare(password, user.encrypted_password).catch(() => false))
      ) {
        throw unprocessable(
          'same_password',
          'New password should be different from the old password.',
        );
      }
      await c.query(
        `update auth.users set encrypted_password = $2, confirmation_token = '', recovery_token = '',
           email_change_token_new = '', email_change_token_current = '', updated_at = now() where id = $1`,
        [user.id, await svc.hashPassword(password)],
      );
      await c.query(
        `delete from auth.one_time_tokens where user_id = $1 and token_type in
           ('confirmation_token', 'recovery_token', 'email_change_token_new', 'email_change_token_current')`,
        [user.id],
      );
      // Other sessions end; the calling one survives.
      await c.query('delete from auth.sessions where user_id = $1 and id is distinct from $2', [
        user.id,
        authed.sessionId,
      ]);
    }
    const data = obj(body, 'data');
    if (data) {
      await c.query(
        'update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1',
        [user.id, JSON.stringify(mergeMetadata(user.raw_user_meta_data, data))],
      );
    }
    if (newEmail !== null && newEmail !== (user.email ?? '').toLowerCase()) {
      const taken = await findUserByEmail(c, newEmail);
      if (taken && taken.id !== user.id) throw emailExists();
      const fresh = (await loadUser(c, user.id))!;
      await prepareEmailChange(svc, c, fresh, newEmail, redirectTo, 'now', pkce);
    }
    await audit(
      c,
      ctx,
      user,
      password !== null ? 'user_updated_password' : 'user_modified',
      'user',
    );
    return { status: 200, body: await userResponse(c, user.id) };
  });
}

/** Sign-in methods after which GoTrue lets a session set a password without the current one. */
const RECOVERY_METHODS = ['otp', 'magiclink', 'recovery'];

/**
 * `[auth.email] require_current_password` (GoTrue's UpdatePasswordRequireCurrentPassword): a
 * stolen, still-open session cannot lock the owner out by changing the password, unless the
 * session came from an e-mailed link or code (the forgotten-password path).
 */
async function assertCurrentPassword(
  c: Db,
  hash: string,
  sessionId: string | null,
  body: Record<string, unknown>,
): Promise<void> {
  if (sessionId) {
    const recovery = await c.query(
      'select 1 from auth.mfa_amr_claims where session_id = $1 and authentication_method = any($2)',
      [sessionId, RECOVERY_METHODS],
    );
    if (recovery.rowCount) return;
  }
  const current = typeof body.current_password === 'string' ? body.current_password : '';
  if (current === '') {
    throw badRequest(
      'current_password_required',
      'Current password required when setting new password.',
    );
  }
  if (!(await bcrypt.compare(current, hash).catch(() => false))) {
    throw badRequest(
      'current_password_invalid',
      'Current password required when setting new password.',
    );
  }
}
