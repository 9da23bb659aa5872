// Issuing one-time codes and mailing them: a new code replaces the pending one of its kind, is
// stored (one-time-codes.ts) and mailed now, after the answer, or not at all (generate_link).
import { randomInt } from 'node:crypto';
import { internalError, tooManyRequests } from './errors.ts';
import type { Ctx } from './http.ts';
import { confirmationUrl, renderMail, type MailKind } from './mailer.ts';
import {
  clearOneTimeToken,
  linkToken,
  type OneTimeTokenType,
  type PkceParams,
  sha224Hex,
  storeOneTimeToken,
} from './one-time-codes.ts';
import type { AuthService, Db } from './service.ts';
import type { UserRow } from './users.ts';

/**
 * How a prepared one-time code is mailed: not at all (admin generate_link), now (a failure
 * fails the request) or after the answer (the answer takes as long whether or not the
 * address has an account).
 */
export type MailDelivery = 'none' | 'now' | Ctx['afterReply'];

export interface IssuedCode {
  otp: string;
  tokenHash: string;
}

/** 6-digit zero-padded OTP (GoTrue's default otp_length). */
const generateOtp = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Per-user max_frequency check against the last *_sent_at of this mail kind. */
function checkMaxFrequency(svc: AuthService, lastSentAt: string | null): void {
  if (!lastSentAt) return;
  const elapsedMs = Date.now() - Date.parse(lastSentAt);
  const waitMs = svc.opts.maxFrequencySeconds * 1000 - elapsedMs;
  if (waitMs > 0) {
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${Math.ceil(waitMs / 1000)} seconds.`,
    );
  }
}

/**
 * Sends one auth mail within the global hourly budget (reserved at once, so an exhausted
 * budget is still a 429). Sent now, a failure aborts the caller's transaction; sent after the
 * answer, a failure is only logged.
 */
async function sendMail(
  svc: AuthService,
  delivery: MailDelivery,
  kind: MailKind,
  to: string,
  code: IssuedCode,
  redirectTo: string,
  errorMessage: string,
): Promise<void> {
  if (delivery === 'none') return;
  const { enableConfirmations } = svc.opts;
  if (enableConfirmations && !svc.emailBudget.take()) {
    throw tooManyRequests('over_email_send_rate_limit', 'email rate limit exceeded');
  }
  const link = confirmationUrl(svc.authExternalUrl, code.tokenHash, kind, redirectTo);
  const send = async () => {
    try {
      const values = {
        ConfirmationURL: link,
        Token: code.otp,
        TokenHash: code.tokenHash,
        SiteURL: svc.opts.siteUrl,
        RedirectTo: redirectTo,
        Email: to,
      };
      await svc.mailer.send(to, renderMail(kind, values, svc.opts.emailTemplates));
    } catch (e) {
      if (enableConfirmations) svc.emailBudget.release();
      svc.log(`mail to ${to} failed: ${e instanceof Error ? e.message : String(e)}`);
      throw internalError(errorMessage);
    }
  };
  if (delivery === 'now') await send();
  else delivery.push(() => send().catch(() => undefined));
}

/** Where each kind of code lives on auth.users, its flow's authentication method, its failure text. */
const CODE_KINDS = {
  signup: {
    column: 'confirmation_token',
    sentAt: 'confirmation_sent_at',
    method: 'email/signup',
    failure: 'Error sending confirmation email',
  },
  invite: {
    column: 'confirmation_token',
    sentAt: 'confirmation_sent_at',
    method: 'invite',
    failure: 'Error sending invite email',
  },
  recovery: {
    column: 'recovery_token',
    sentAt: 'recovery_sent_at',
    method: 'recovery',
    failure: 'Error sending recovery email',
  },
  magiclink: {
    column: 'recovery_token',
    sentAt: 'recovery_sent_at',
    method: 'magiclink',
    failure: 'Error sending magic link email',
  },
} as const satisfies Record<
  string,
  {
    column: OneTimeTokenType;
    sentAt: keyof UserRow;
    method: string;
    failure: string;
  }
>;
export type CodeKind = keyof typeof CODE_KINDS;

/**
 * New confirmation (signup, invite) or recovery (recovery, magic link) code for the account's
 * address, mailed as `delivery` says; the previous code of that column stops working.
 */
export async function prepareCode(
  svc: AuthService,
  c: Db,
  user: UserRow,
  kind: CodeKind,
  redirectTo: string,
  delivery: MailDelivery,
  pkce: PkceParams | null = null,
): Promise<IssuedCode> {
  const spec = CODE_KINDS[kind];
  const email = user.email ?? '';
  if (delivery !== 'none') checkMaxFrequency(svc, user[spec.sentAt]);
  const otp = generateOtp();
  const tokenHash = await linkToken(c, user.id, sha224Hex(email + otp), pkce, spec.method);
  await c.query(
    `update auth.users set ${spec.column} = $2, ${spec.sentAt} = clock_timestamp(), updated_at = now()
       ${kind === 'invite' ? ', invited_at = now()' : ''} where id = $1`,
    [user.id, tokenHash],
  );
  await storeOneTimeToken(c, user.id, spec.column, tokenHash, email);
  const code = { otp, tokenHash };
  await sendMail(svc, delivery, kind, email, code, redirectTo, spec.failure);
  return code;
}

/**
 * Pending e-mail change: a link to the new address and, with double_confirm_changes, one with
 * its own code to the current address too (both must be followed).
 */
export async function prepareEmailChange(
  svc: AuthService,
  c: Db,
  user: UserRow,
  newEmail: string,
  redirectTo: string,
  delivery: MailDelivery,
  pkce: PkceParams | null = null,
): Promise<IssuedCode & { currentOtp: string; currentHash: string }> {
  if (delivery !== 'none') checkMaxFrequency(svc, user.email_change_sent_at);
  const otp = generateOtp();
  const tokenHash = await linkToken(c, user.id, sha224Hex(newEmail + otp), pkce, 'email_change');
  const double = svc.opts.doubleConfirmChanges !== false && !!user.email;
  const currentOtp = double ? generateOtp() : '';
  const currentHash = double ? (pkce ? 'pkce_' : '') + sha224Hex(user.email + currentOtp) : '';
  await c.query(
    `update auth.users set email_change = $2, email_change_token_new = $3, email_change_token_current = $4,
       email_change_sent_at = clock_timestamp(), email_change_confirm_status = 0, updated_at = now() where id = $1`,
    [user.id, newEmail, tokenHash, currentHash],
  );
  await storeOneTimeToken(c, user.id, 'email_change_token_new', tokenHash, newEmail);
  const failure = 'Error sending email change email';
  if (double) {
    await storeOneTimeToken(c, user.id, 'email_change_token_current', currentHash, user.email!);
    const current = { otp: currentOtp, tokenHash: currentHash };
    await sendMail(svc, delivery, 'email_change', user.email!, current, redirectTo, failure);
  } else {
    await clearOneTimeToken(c, user.id, 'email_change_token_current');
  }
  const code = { otp, tokenHash };
  await sendMail(
    svc,
    delivery,
    'email_change',
    newEmail,
    code,
    redirectTo,
    'Error sending email change email',
  );
  return { ...code, currentOtp, currentHash };
}
