// Supabase Auth's "MFA verification attempt" hook as GoTrue calls a Postgres one
// (internal/hooks/v0hooks, hookspgfunc): on every TOTP verify, after the code was checked and
// before the answer, `select "<schema>"."<function>"(event)` as the auth service's role with a
// 2 s statement timeout. {decision: 'reject'} ends all the account's sessions and answers 403
// mfa_verification_rejected with the hook's message. REQ-MFA-4's per-account limit on wrong codes
// is such a hook (supabase/schemas/012_mfa_hook.sql, decision 0253), so it holds on hosted too.
import { randomUUID } from 'node:crypto';
import { AuthApiError, forbidden } from './errors.ts';
import type { Db } from './service.ts';

/** GoTrue's v0hooks.DefaultMFAHookRejectionMessage. */
const DEFAULT_REJECTION_MESSAGE = 'Further MFA verification attempts will be rejected.';
const HOOK_TIMEOUT_MS = 2000;

/**
 * The quoted function name of a `pg-functions://<database>/<schema>/<function>` hook URI, as
 * GoTrue's PopulateExtensibilityPoint builds it; null for any other URI (HTTP hooks are not
 * implemented here).
 */
export function pgFunctionHookName(uri: string): string | null {
  const m = /^pg-functions:\/\/[^/]+\/([^/]+)\/([^/]+)$/.exec(uri);
  return m ? `${JSON.stringify(m[1])}.${JSON.stringify(m[2])}` : null;
}

export interface MfaAttempt {
  userId: string;
  factorId: string;
  factorType: string;
  valid: boolean;
  ip: string;
}

/**
 * Runs the hook `hookName` inside the caller's transaction; on reject ends every session of the
 * account and returns the error to answer after commit, else null.
 */
export async function runMfaVerificationHook(
  c: Db,
  hookName: string,
  attempt: MfaAttempt,
): Promise<AuthApiError | null> {
  const event = {
    metadata: {
      uuid: randomUUID(),
      time: new Date().toISOString(),
      name: 'mfa-verification',
      ip_address: attempt.ip,
    },
    user_id: attempt.userId,
    factor_id: attempt.factorId,
    factor_type: attempt.factorType,
    valid: attempt.valid,
  };
  await c.query(`set local statement_timeout to ${HOOK_TIMEOUT_MS}`);
  const r = await c.query<{ output: unknown }>(`select ${hookName}($1::jsonb) as output`, [
    JSON.stringify(event),
  ]);
  await c.query('set local statement_timeout to default');
  const output = (r.rows[0]?.output ?? {}) as {
    decision?: unknown;
    message?: unknown;
    error?: { http_code?: unknown; message?: unknown };
  };
  // hookserrors.Check: {error: {http_code, message}} from the hook is answered as it says.
  if (typeof output.error?.message === 'string' && output.error.message !== '') {
    const status = typeof output.error.http_code === 'number' ? output.error.http_code : 500;
    throw new AuthApiError(status, 'unexpected_failure', output.error.message);
  }
  if (output.decision !== 'reject') return null;
  // GoTrue's models.Logout: every session of the account ends.
  await c.query('delete from auth.sessions where user_id = $1', [attempt.userId]);
  const message =
    typeof output.message === 'string' && output.message !== ''
      ? output.message
      : DEFAULT_REJECTION_MESSAGE;
  return forbidden('mfa_verification_rejected', message);
}
