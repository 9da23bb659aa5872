// REQ-MFA-5: telling a refusal because the session ended from any other refusal. Pure functions
// (no client), so the rules are unit-tested on their own.

/** PostgREST's JWT errors: PGRST301 (cannot be decoded / wrong), PGRST302 (none), PGRST303 (claims, e.g. expired). */
const JWT_CODES = new Set(['PGRST301', 'PGRST302', 'PGRST303']);

/** Auth's answers to GET /user that mean "this token's session is over" (not a network hiccup). */
const GONE_CODES = new Set([
  'session_not_found',
  'session_expired',
  'refresh_token_not_found',
  'refresh_token_already_used',
  'user_not_found',
  'bad_jwt',
  'no_authorization',
]);

interface ErrorShape {
  code?: unknown;
  status?: unknown;
  message?: unknown;
  name?: unknown;
}

const shape = (error: unknown): ErrorShape =>
  typeof error === 'object' && error !== null ? (error as ErrorShape) : {};

/**
 * How a failed or refused write reads: 'jwt' when PostgREST refused the token itself (401, a JWT
 * error code, "JWT expired"); 'refused' when the database answered but wrote nothing (RLS, an RPC
 * saying not admin or stale: with a dead session auth.uid() or its session row is gone, so these
 * look alike); 'unanswered' when nothing answered (offline), which never counts as an ended session.
 */
export type Refusal = 'jwt' | 'refused' | 'unanswered';

export function classifyRefusal(error: unknown): Refusal {
  if (error === undefined || error === null) return 'refused';
  const e = shape(error);
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.status === 401 || JWT_CODES.has(code) || /\bJWT\b.*\b(expired|invalid)\b/i.test(message))
    return 'jwt';
  // Postgres answers with a five-character SQLSTATE, PostgREST with PGRST…; a thrown fetch has none.
  if (/^([0-9A-Z]{5}|PGRST\d+)$/.test(code)) return 'refused';
  if (e.name === 'TypeError' || /failed to fetch|network|load failed/i.test(message))
    return 'unanswered';
  return 'refused';
}

/** What supabase.auth.getUser() answered. */
export interface GetUserAnswer {
  data: { user: unknown };
  error: unknown;
}

/**
 * Whether Auth's answer says the session is gone: a user means it lives; an Auth error of the
 * ended-session kind (or supabase-js's AuthSessionMissingError, no session left) means it is gone;
 * anything else (network, 5xx, rate limit) is unknown, so null.
 */
export function sessionGoneFrom(answer: GetUserAnswer): boolean | null {
  if (answer.data.user && !answer.error) return false;
  const e = shape(answer.error);
  if (e.name === 'AuthSessionMissingError') return true;
  if (typeof e.code === 'string' && GONE_CODES.has(e.code)) return true;
  if (e.status === 401 || e.status === 403) return true;
  return null;
}

/**
 * Whether my_admin_access() (the MFA contract: {admin, needs: 'none' | 'code' | 'enrol'}) says
 * this live session lacks the second factor for admin rights: it has to sign in again with the
 * code, so the write is refused for the same reason as for a session that ended.
 */
export function lacksSecondFactor(answer: { data: unknown; error: unknown }): boolean {
  if (answer.error || typeof answer.data !== 'object' || answer.data === null) return false;
  const access = answer.data as { admin?: unknown; needs?: unknown };
  return access.admin === true && (access.needs === 'code' || access.needs === 'enrol');
}

/** Drafts never keep these (passwords, codes, secrets), whatever form they come from. */
export function withoutSecrets<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([key]) => !/password|secret|code|token/i.test(key)),
  ) as Partial<T>;
}
