// POST /signup: e-mail + password sign-up (rate limit: sign-ins and sign-ups).
import { randomUUID } from 'node:crypto';
import { findUserByEmail, insertUser, loadUser, userResponse, audit } from './accounts.ts';
import { prepareCode } from './code-mail.ts';
import { badRequest, unprocessable } from './errors.ts';
import { type Ctx, obj, redirectFor, type Reply, str } from './http.ts';
import { confirmEmail, pkceParams } from './one-time-codes.ts';
import { AUDIENCE, type AuthService, EMAIL_APP_METADATA } from './service.ts';
import { issueSession } from './sessions.ts';
import { assertPasswordAcceptable, normalizeEmail } from './validation.ts';

export async function signup(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const { enableConfirmations } = svc.opts;
  const body = ctx.body;
  const rawEmail = str(body, 'email');
  const phone = str(body, 'phone');
  if (rawEmail === '' && phone === '') {
    throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
  }
  if (!svc.opts.enableSignup)
    throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  const password = str(body, 'password');
  if (password === '') throw badRequest('validation_failed', 'Signup requires a valid password');
  assertPasswordAcceptable(password, svc.policy);
  if (rawEmail === '') throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
  const email = normalizeEmail(rawEmail);
  const data = obj(body, 'data') ?? {};
  const redirectTo = redirectFor(ctx, svc.redirectCfg);
  const pkce = pkceParams(body);
  // Hashed up front: keeps the transaction short and the timing alike for known addresses.
  const passwordHash = await svc.hashPassword(password);

  return svc.tx(async (c) => {
    const existing = await findUserByEmail(c, email, true);
    if (existing && existing.email_confirmed_at) {
      if (!enableConfirmations)
        throw unprocessable('user_already_exists', 'User already registered');
      // Confirmation required: answer with an obfuscated user so the response does not reveal
      // that the address is registered (apps detect it by `identities: []`).
      const now = new Date().toISOString().replace(/(\.\d{3})Z$/, '$1000Z');
      return {
        status: 200,
        body: {
          id: randomUUID(),
          aud: AUDIENCE,
          role: '',
          email,
          phone: '',
          confirmation_sent_at: now,
          app_metadata: EMAIL_APP_METADATA,
          user_metadata: data,
          identities: [],
          created_at: now,
          updated_at: now,
          is_anonymous: false,
        },
      };
    }
    if (existing) {
      if (!enableConfirmations) {
        // Autoconfirm: the pending account is confirmed and signed in (no password check, as GoTrue).
        await confirmEmail(c, existing);
        return { status: 200, body: await issueSession(svc, c, existing.id, 'password', ctx) };
      }
      // Mailed after the answer, like a known confirmed address that gets no mail at all.
      await prepareCode(svc, c, existing, 'signup', redirectTo, ctx.afterReply, pkce);
      return { status: 200, body: await userResponse(c, existing.id) };
    }
    const id = randomUUID();
    const userMetadata = {
      ...data,
      sub: id,
      email,
      email_verified: !enableConfirmations,
      phone_verified: false,
    };
    await insertUser(svc, c, {
      id,
      email,
      passwordHash,
      appMetadata: EMAIL_APP_METADATA,
      userMetadata,
      emailConfirmed: !enableConfirmations,
    });
    if (!enableConfirmations) {
      return { status: 200, body: await issueSession(svc, c, id, 'password', ctx) };
    }
    const user = (await loadUser(c, id))!;
    await prepareCode(svc, c, user, 'signup', redirectTo, 'now', pkce);
    await audit(c, ctx, user, 'user_confirmation_requested', 'user', { provider: 'email' });
    return { status: 200, body: await userResponse(c, id) };
  });
}
