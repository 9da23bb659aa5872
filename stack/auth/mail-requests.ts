// POST /recover, POST /otp and POST /resend: requests that mail a link/code to an address.
// They answer before mailing (ctx.afterReply) and the same whether or not the address has an
// account, so neither the answer nor its timing tells. Rate limit: sign-ins and sign-ups.
import { randomUUID } from 'node:crypto';
import { audit, findUserByEmail, insertUser, loadUser } from './accounts.ts';
import { prepareCode, prepareEmailChange } from './code-mail.ts';
import { badRequest, unprocessable } from './errors.ts';
import { type Ctx, obj, redirectFor, type Reply, str } from './http.ts';
import { pkceParams } from './one-time-codes.ts';
import { type AuthService, EMAIL_APP_METADATA } from './service.ts';
import type { UserRow } from './users.ts';
import { normalizeEmail } from './validation.ts';

export async function recover(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const email = normalizeEmail(str(ctx.body, 'email'), 'Password recovery requires an email');
  const redirectTo = redirectFor(ctx, svc.redirectCfg);
  const pkce = pkceParams(ctx.body);
  await svc.tx(async (c) => {
    const user = await findUserByEmail(c, email, true);
    if (!user) return;
    await prepareCode(svc, c, user, 'recovery', redirectTo, ctx.afterReply, pkce);
    await audit(c, ctx, user, 'user_recovery_requested', 'user');
  });
  return { status: 200, body: {} };
}

/** signInWithOtp for e-mail: a magic link (confirmed users) or a confirmation mail. */
export async function otp(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const body = ctx.body;
  if (str(body, 'phone') !== '')
    throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
  const email = normalizeEmail(str(body, 'email'));
  const createUser = body.create_user !== false;
  const data = obj(body, 'data') ?? {};
  const redirectTo = redirectFor(ctx, svc.redirectCfg);
  const pkce = pkceParams(body);
  await svc.tx(async (c) => {
    let user = await findUserByEmail(c, email, true);
    if (!user) {
      if (!createUser) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
      if (!svc.opts.enableSignup) {
        throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
      }
      const id = randomUUID();
      await insertUser(svc, c, {
        id,
        email,
        passwordHash: await svc.randomPasswordHash(),
        appMetadata: EMAIL_APP_METADATA,
        userMetadata: { ...data, sub: id, email, email_verified: false, phone_verified: false },
        emailConfirmed: false,
      });
      user = (await loadUser(c, id))!;
    }
    const kind = user.email_confirmed_at ? 'magiclink' : 'signup';
    await prepareCode(svc, c, user, kind, redirectTo, ctx.afterReply, pkce);
  });
  return { status: 200, body: {} };
}

export async function resend(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const type = str(ctx.body, 'type');
  if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type)) {
    throw badRequest(
      'validation_failed',
      'Missing one of these types: signup, email_change, sms, phone_change',
    );
  }
  if (type === 'sms' || type === 'phone_change')
    throw badRequest('validation_failed', 'Type provided requires a phone number');
  const email = normalizeEmail(str(ctx.body, 'email'), 'Type provided requires an email address');
  const redirectTo = redirectFor(ctx, svc.redirectCfg);
  const pkce = pkceParams(ctx.body);
  await svc.tx(async (c) => {
    if (type === 'signup') {
      const user = await findUserByEmail(c, email, true);
      if (!user || user.email_confirmed_at) return;
      await prepareCode(svc, c, user, 'signup', redirectTo, ctx.afterReply, pkce);
    } else {
      const r = await c.query<UserRow>(
        `select * from auth.users where (lower(email) = $1 or lower(email_change) = $1) and email_change <> '' for update`,
        [email],
      );
      const user = r.rows[0];
      if (!user || !user.email_change) return;
      await prepareEmailChange(svc, c, user, user.email_change, redirectTo, ctx.afterReply, pkce);
    }
  });
  return { status: 200, body: {} };
}
