// auth.users / auth.identities rows and their JSON form.
import pg from 'pg';

export type Json = Record<string, unknown>;

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_token: string | null;
  confirmation_sent_at: string | null;
  recovery_token: string | null;
  recovery_sent_at: string | null;
  email_change_token_new: string | null;
  email_change_token_current: string | null;
  email_change: string | null;
  email_change_sent_at: string | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Json | null;
  raw_user_meta_data: Json | null;
  created_at: string;
  updated_at: string;
  phone: string | null;
  phone_confirmed_at: string | null;
  phone_change: string | null;
  phone_change_sent_at: string | null;
  confirmed_at: string | null;
  banned_until: string | null;
  reauthentication_sent_at: string | null;
  deleted_at: string | null;
  is_anonymous: boolean;
  is_sso_user: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Json;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  email: string | null;
}

/**
 * Postgres timestamps as GoTrue prints them (RFC 3339, UTC, fractional seconds). The pool runs
 * with timezone=UTC, so the text form only needs its separator and offset rewritten.
 */
export function pgTimestampToRfc3339(value: string): string {
  const m =
    /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:([+-]\d{2})(?::?(\d{2}))?)?$/.exec(value);
  if (!m) return value;
  const offset = m[3];
  if (offset === undefined || (Number(offset) === 0 && (m[4] ?? '00') === '00'))
    return `${m[1]}T${m[2]}Z`;
  return `${m[1]}T${m[2]}${offset}:${m[4] ?? '00'}`;
}

const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ_OID || oid === TIMESTAMP_OID)
      return (v: string) => pgTimestampToRfc3339(v);
    if (oid === INT8_OID) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
} as pg.CustomTypesConfig;

export function identityJson(row: IdentityRow): Json {
  const out: Json = {
    identity_id: row.id,
    id: row.provider_id,
    user_id: row.user_id,
    identity_data: row.identity_data,
    provider: row.provider,
  };
  if (row.last_sign_in_at) out.last_sign_in_at = row.last_sign_in_at;
  out.created_at = row.created_at;
  out.updated_at = row.updated_at;
  if (row.email) out.email = row.email;
  return out;
}

/** The user object in GoTrue's key order, null-valued optional keys omitted; `factors` JSON. */
export function userJson(
  row: UserRow,
  identities: IdentityRow[] | null,
  factors: Json[] = [],
): Json {
  const out: Json = {
    id: row.id,
    aud: row.aud ?? '',
    role: row.role ?? '',
    email: row.email ?? '',
  };
  const opt = (key: string, value: unknown) => {
    if (value !== null && value !== undefined && value !== '') out[key] = value;
  };
  opt('email_confirmed_at', row.email_confirmed_at);
  opt('invited_at', row.invited_at);
  out.phone = row.phone ?? '';
  opt('phone_confirmed_at', row.phone_confirmed_at);
  opt('confirmation_sent_at', row.confirmation_sent_at);
  opt('confirmed_at', row.confirmed_at);
  opt('recovery_sent_at', row.recovery_sent_at);
  opt('new_email', row.email_change);
  if (row.email_change) opt('email_change_sent_at', row.email_change_sent_at);
  opt('new_phone', row.phone_change);
  if (row.phone_change) opt('phone_change_sent_at', row.phone_change_sent_at);
  opt('reauthentication_sent_at', row.reauthentication_sent_at);
  opt('last_sign_in_at', row.last_sign_in_at);
  out.app_metadata = row.raw_app_meta_data ?? {};
  out.user_metadata = row.raw_user_meta_data ?? {};
  // GoTrue's `factors,omitempty`: absent for an account without MFA factors.
  if (factors.length) out.factors = factors;
  if (identities !== null) out.identities = identities.map(identityJson);
  out.created_at = row.created_at;
  out.updated_at = row.updated_at;
  opt('banned_until', row.banned_until);
  opt('deleted_at', row.deleted_at);
  out.is_anonymous = row.is_anonymous;
  return out;
}

/** Key-by-key merge used for metadata updates: a null value deletes the key. */
export function mergeMetadata(current: Json | null, patch: Json): Json {
  const out: Json = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}
