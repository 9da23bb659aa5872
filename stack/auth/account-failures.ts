// Wrong tries per account (auth.account_failures), shared by the mailed one-time codes and the
// TOTP factors: a guess counts against the account, not the client address, so a brute force
// fails from any number of addresses (decisions 0030 and 0250). Callers hold the account's row
// lock (select … for update on auth.users), so a check and its count cannot interleave.
import type { Db } from './service.ts';

/** 'one_time_code': mailed 6-digit codes; 'mfa_verify': TOTP codes of the account's factors. */
export type FailureKind = 'one_time_code' | 'mfa_verify';

/**
 * Counts one wrong try of `kind` for each account in one atomic upsert (parallel tries all
 * count) and returns the accounts' counts. With `quietSeconds`, a count whose last wrong try is
 * older than that starts again at 1.
 */
export async function countFailure(
  c: Db,
  kind: FailureKind,
  userIds: string[],
  quietSeconds: number | null = null,
): Promise<Array<{ user_id: string; failures: number }>> {
  const r = await c.query<{ user_id: string; failures: number }>(
    `insert into auth.account_failures (user_id, kind, failures, updated_at)
     select id, $2, 1, now() from unnest($1::uuid[]) as id
     on conflict (user_id, kind) do update
       set failures = case
             when $3::float8 is not null
               and auth.account_failures.updated_at + make_interval(secs => $3::float8) <= now()
             then 1 else auth.account_failures.failures + 1 end,
           updated_at = now()
     returning user_id, failures`,
    [userIds, kind, quietSeconds],
  );
  return r.rows;
}

/**
 * The account's count of `kind` and the seconds until it is forgotten (null without
 * `quietSeconds`); 0 failures when none were counted or they are forgotten.
 */
export async function failureCount(
  c: Db,
  kind: FailureKind,
  userId: string,
  quietSeconds: number | null = null,
): Promise<{ failures: number; forgottenInSeconds: number | null }> {
  const r = await c.query<{ failures: number; left_seconds: number | null }>(
    `select failures,
       case when $3::float8 is null then null
            else ceil(extract(epoch from updated_at + make_interval(secs => $3::float8) - now()))::int
       end as left_seconds
     from auth.account_failures where user_id = $1 and kind = $2`,
    [userId, kind, quietSeconds],
  );
  const row = r.rows[0];
  if (!row || (row.left_seconds !== null && row.left_seconds <= 0))
    return { failures: 0, forgottenInSeconds: null };
  return { failures: row.failures, forgottenInSeconds: row.left_seconds };
}

/** Forgets the account's wrong tries of `kind` (a right code, or a new mailed code). */
export async function clearFailures(c: Db, kind: FailureKind, userId: string): Promise<void> {
  await c.query('delete from auth.account_failures where user_id = $1 and kind = $2', [
    userId,
    kind,
  ]);
}
