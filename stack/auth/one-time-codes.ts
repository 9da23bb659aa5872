// One-time links and codes: storing them, checking a presented link or code, the wrong-try
// counter, PKCE link tokens and applying a verified code to the account.
import { createHash, randomUUID } from 'node:crypto';
import { clearFailures, countFailure } from './account-failures.ts';
import { badRequest, forbidden, notFound } from './errors.ts';
import { str } from './http.ts';
import {
  AUDIENCE,
  type AuthService,
  CommitThenThrow,
  type Db,
  emailExists,
  isUniqueViolation,
} from './service.ts';
import type { Json, UserRow } from './users.ts';

/** Wrong codes an account's pending one-time codes survive; the next wrong one voids them. */
export const WRONG_CODE_LIMIT = 5;
const ONE_TIME_TOKEN_COLUMNS = [
  'confirmation_token',
  'recovery_token',
  'email_change_token_new',
  'email_change_token_current',
] as const;
export type OneTimeTokenType = (typeof ONE_TIME_TOKEN_COLUMNS)[number];

export interface PkceParams {
  challenge: string;
  method: 's256' | 'plain';
}

/** A verified link or code: whose it is, and whether the verify hands out a PKCE auth code. */
export interface Verified {
  userId: string;
  pkce: boolean;
  authenticationMethod: string;
  /** First of two e-mail change confirmations: nothing changed yet, no session. */
  pending?: boolean;
}

export const sha224Hex = (s: string) => createHash('sha224').update(s, 'utf8').digest('hex');

export async function storeOneTimeToken(
  c: Db,
  userId: string,
  type: OneTimeTokenType,
  tokenHash: string,
  relatesTo: string,
): Promise<void> {
  await c.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, $5, now(), now())
     on conflict (user_id, token_type) do update
       set id = excluded.id, token_hash = excluded.token_hash, relates_to = excluded.relates_to,
           created_at = now(), updated_at = now()`,
    [randomUUID(), userId, type, tokenHash, relatesTo],
  );
  // A new code gets the full number of tries again.
  await clearFailures(c, 'one_time_code', userId);
}

export async function clearOneTimeToken(
  c: Db,
  userId: string,
  type: OneTimeTokenType,
): Promise<void> {
  await c.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [
    userId,
    type,
  ]);
}

/**
 * Counts one wrong code against each account (account-failures.ts) and voids the pending codes of an account that has reached WRONG_CODE_LIMIT.
 */
async function countWrongCode(svc: AuthService, c: Db, userIds: string[]): Promise<void> {
  const rows = await countFailure(c, 'one_time_code', userIds);
  const exhausted = rows
    .filter((row) => row.failures >= WRONG_CODE_LIMIT)
    .map((row) => row.user_id);
  if (exhausted.length === 0) return;
  await c.query(
    `update auth.users set ${ONE_TIME_TOKEN_COLUMNS.map((col) => `${col} = ''`).join(', ')},
       updated_at = now() where id = any($1::uuid[])`,
    [exhausted],
  );
  await c.query(
    `delete from auth.one_time_tokens where user_id = any($1::uuid[]) and token_type = any($2::auth.one_time_token_type[])`,
    [exhausted, ONE_TIME_TOKEN_COLUMNS],
  );
  svc.log(`one-time codes voided after ${WRONG_CODE_LIMIT} wrong tries: ${exhausted.join(', ')}`);
}

/**
 * The value stored and linked for a verification: the bare token hash (implicit flow) or, for
 * PKCE, `pkce_<hash>` plus a flow_state row whose auth code the verify redirect hands out.
 */
export async function linkToken(
  c: Db,
  userId: string,
  tokenHash: string,
  pkce: PkceParams | null,
  authenticationMethod: string,
): Promise<string> {
  if (!pkce) return tokenHash;
  await c.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       created_at, updated_at, authentication_method)
     values ($1, $2, $3, $4, $5, 'email', now(), now(), $6)`,
    [randomUUID(), userId, randomUUID(), pkce.method, pkce.challenge, authenticationMethod],
  );
  return `pkce_${tokenHash}`;
}

/** code_challenge / code_challenge_method of a request; null for the implicit flow. */
export function pkceParams(body: Json): PkceParams | null {
  const challenge = str(body, 'code_challenge');
  const method = str(body, 'code_challenge_method').toLowerCase();
  if (challenge === '' && method === '') return null;
  if (challenge === '' || method === '') {
    throw badRequest(
      'validation_failed',
      'PKCE flow requires code_challenge_method and code_challenge',
    );
  }
  if (method !== 's256' && method !== 'plain') {
    throw badRequest('validation_failed', `code challenge method not supported: ${method}`);
  }
  if (challenge.length < 43 || challenge.length > 128) {
    throw badRequest('validation_failed', 'code challenge has to be between 43 and 128 characters');
  }
  return { challenge, method };
}

/** Token column and sent-at column a verification type is checked against. */
const TYPE_COLUMNS: Record<string, Array<[OneTimeTokenType, string]>> = {
  signup: [['confirmation_token', 'confirmation_sent_at']],
  invite: [['confirmation_token', 'confirmation_sent_at']],
  recovery: [['recovery_token', 'recovery_sent_at']],
  magiclink: [['recovery_token', 'recovery_sent_at']],
  email_change: [
    ['email_change_token_new', 'email_change_sent_at'],
    ['email_change_token_current', 'email_change_sent_at'],
  ],
  email: [
    ['confirmation_token', 'confirmation_sent_at'],
    ['recovery_token', 'recovery_sent_at'],
  ],
};

/** Checks and applies a link's token hash (not counted: 224 bits cannot be guessed). */
export async function verifyTokenHash(
  svc: AuthService,
  c: Db,
  type: string,
  tokenHash: string,
): Promise<Verified> {
  const columns = TYPE_COLUMNS[type];
  if (!columns) throw badRequest('validation_failed', 'Unsupported verification type');
  const invalid = forbidden('otp_expired', 'Email link is invalid or has expired');
  // PKCE links carry the stored `pkce_<hash>`; a bare hash (e.g. {{ .TokenHash }}) matches both.
  const bare = tokenHash.replace(/^pkce_/, '');
  for (const [tokenCol, sentCol] of columns) {
    const r = await c.query<UserRow & { expired: boolean; stored: string }>(
      `select *, ${tokenCol} as stored,
         (${sentCol} is null or ${sentCol} + make_interval(secs => $2) < now()) as expired
       from auth.users where ${tokenCol} in ($1::text, 'pkce_' || $1::text) for update`,
      [bare, svc.opts.otpExpiry],
    );
    const user = r.rows[0];
    if (!user) continue;
    if (user.expired) throw invalid;
    const pending = await completeVerification(svc, c, user, tokenCol);
    return { ...verified(user, tokenCol, type), pending };
  }
  throw invalid;
}

/** Checks and applies a 6-digit code; a wrong one counts against every account of the address. */
export async function verifyEmailOtp(
  svc: AuthService,
  c: Db,
  type: string,
  email: string,
  otp: string,
): Promise<Verified> {
  const columns = TYPE_COLUMNS[type];
  if (!columns) throw badRequest('validation_failed', 'Unsupported verification type');
  const invalid = forbidden('otp_expired', 'Token has expired or is invalid');
  // The accounts this address can verify stay locked until the try is accepted or counted, so
  // tries at one account run one after the other and none slips past the limit.
  const accounts = await c.query<{ id: string }>(
    `select id from auth.users where (lower(email) = $1 or lower(email_change) = $1) and aud = $2
     order by id for update`,
    [email, AUDIENCE],
  );
  if (accounts.rowCount === 0) throw invalid;
  const hash = sha224Hex(email + otp);
  for (const [tokenCol, sentCol] of columns) {
    const addressCol = tokenCol === 'email_change_token_new' ? 'email_change' : 'email';
    const r = await c.query<UserRow & { expired: boolean; stored: string }>(
      `select *, ${tokenCol} as stored,
         (${sentCol} is null or ${sentCol} + make_interval(secs => $3) < now()) as expired
       from auth.users where lower(${addressCol}) = $1 and ${tokenCol} in ($2::text, 'pkce_' || $2::text) for update`,
      [email, hash, svc.opts.otpExpiry],
    );
    const user = r.rows[0];
    if (!user) continue;
    if (user.expired) throw invalid;
    const pending = await completeVerification(svc, c, user, tokenCol);
    return { ...verified(user, tokenCol, type), pending };
  }
  await countWrongCode(
    svc,
    c,
    accounts.rows.map((a) => a.id),
  );
  throw new CommitThenThrow(invalid);
}

function verified(user: UserRow & { stored: string }, tokenCol: string, type: string): Verified {
  const authenticationMethod =
    tokenCol === 'confirmation_token'
      ? type === 'invite'
        ? 'invite'
        : 'email/signup'
      : tokenCol === 'recovery_token'
        ? type === 'magiclink'
          ? 'magiclink'
          : 'recovery'
        : 'email_change';
  return { userId: user.id, pkce: user.stored.startsWith('pkce_'), authenticationMethod };
}

/** Marks the e-mail confirmed and records it in user_metadata and the identity. */
export async function confirmEmail(c: Db, user: UserRow): Promise<void> {
  await c.query(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '',
       raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb,
       updated_at = now()
     where id = $1`,
    [user.id],
  );
  await c.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [user.id],
  );
  await clearOneTimeToken(c, user.id, 'confirmation_token');
}

/**
 * Applies a verified link/OTP (the caller then signs the user in or hands out a PKCE code).
 * True when it was the first of two e-mail change confirmations (nothing else to do yet).
 */
async function completeVerification(
  svc: AuthService,
  c: Db,
  user: UserRow,
  tokenCol: OneTimeTokenType,
): Promise<boolean> {
  if (user.banned_until && Date.parse(user.banned_until) > Date.now())
    throw forbidden('user_banned', 'User is banned');
  await clearFailures(c, 'one_time_code', user.id);
  if (tokenCol === 'confirmation_token') {
    await confirmEmail(c, user);
  } else if (tokenCol === 'recovery_token') {
    await c.query(`update auth.users set recovery_token = '', updated_at = now() where id = $1`, [
      user.id,
    ]);
    await clearOneTimeToken(c, user.id, 'recovery_token');
    // Following a recovery/magic link proves ownership of the address.
    if (!user.email_confirmed_at) await confirmEmail(c, user);
  } else {
    const newEmail = user.email_change ?? '';
    if (newEmail === '') throw forbidden('otp_expired', 'Email link is invalid or has expired');
    // Double confirmation, as hosted Auth: the first link only spends itself (status 0 -> 1).
    if (
      svc.opts.enableConfirmations &&
      svc.opts.doubleConfirmChanges !== false &&
      user.email_change_confirm_status === 0 &&
      user.email
    ) {
      await c.query(
        `update auth.users set ${tokenCol} = '', email_change_confirm_status = 1, updated_at = now() where id = $1`,
        [user.id],
      );
      await clearOneTimeToken(c, user.id, tokenCol);
      return true;
    }
    try {
      await c.query(
        `update auth.users set email = $2::text, email_change = '', email_change_token_new = '',
           email_change_token_current = '', email_change_confirm_status = 0, email_change_sent_at = null,
           email_confirmed_at = coalesce(email_confirmed_at, now()),
           raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || jsonb_build_object('email', $2::text),
           updated_at = now()
         where id = $1`,
        [user.id, newEmail],
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw emailExists();
      throw e;
    }
    await c.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
       where user_id = $1 and provider = 'email'`,
      [user.id, newEmail],
    );
    await clearOneTimeToken(c, user.id, 'email_change_token_new');
    await clearOneTimeToken(c, user.id, 'email_change_token_current');
  }
  return false;
}

/** PKCE: the verify redirect carries the flow's auth code instead of a session. */
export async function issueAuthCode(
  c: Db,
  userId: string,
  authenticationMethod: string,
): Promise<string> {
  const r = await c.query<{ id: string; auth_code: string }>(
    `select id, auth_code from auth.flow_state where user_id = $1 and authentication_method = $2
     order by created_at desc limit 1 for update`,
    [userId, authenticationMethod],
  );
  const flow = r.rows[0];
  if (!flow)
    throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
  await c.query(
    'update auth.flow_state set auth_code_issued_at = now(), updated_at = now() where id = $1',
    [flow.id],
  );
  return flow.auth_code;
}
