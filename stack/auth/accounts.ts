// Reading and writing accounts: users with their identities, and the audit log.
import { randomUUID } from 'node:crypto';
import { internalError, notFound } from './errors.ts';
import { factorJson, loadFactors } from './factors.ts';
import type { Ctx } from './http.ts';
import {
  AUDIENCE,
  type AuthService,
  type Db,
  DEFAULT_ROLE,
  emailExists,
  isUniqueViolation,
  NIL_UUID,
} from './service.ts';
import { type IdentityRow, type Json, type UserRow, userJson } from './users.ts';

export async function loadUser(c: Db, id: string, lock = false): Promise<UserRow | null> {
  const r = await c.query<UserRow>(
    `select * from auth.users where id = $1${lock ? ' for update' : ''}`,
    [id],
  );
  return r.rows[0] ?? null;
}

export async function findUserByEmail(c: Db, email: string, lock = false): Promise<UserRow | null> {
  const r = await c.query<UserRow>(
    `select * from auth.users where lower(email) = $1 and aud = $2 and is_sso_user = false
     order by created_at limit 1${lock ? ' for update' : ''}`,
    [email, AUDIENCE],
  );
  return r.rows[0] ?? null;
}

export async function loadIdentities(c: Db, userId: string): Promise<IdentityRow[]> {
  const r = await c.query<IdentityRow>(
    'select * from auth.identities where user_id = $1 order by created_at, id',
    [userId],
  );
  return r.rows;
}

export async function userResponse(c: Db, id: string): Promise<Json> {
  const user = await loadUser(c, id);
  if (!user) throw notFound('user_not_found', 'User not found');
  return userJson(user, await loadIdentities(c, id), await loadFactorsJson(c, id));
}

/** The account's MFA factors as the user JSON carries them. */
export async function loadFactorsJson(c: Db, userId: string): Promise<Json[]> {
  return (await loadFactors(c, [userId])).map(factorJson);
}

export interface NewUser {
  id?: string;
  email: string | null;
  phone?: string | null;
  passwordHash: string;
  role?: string;
  appMetadata: Json;
  userMetadata: Json;
  emailConfirmed: boolean;
  phoneConfirmed?: boolean;
  invited?: boolean;
  bannedUntilSeconds?: number | null;
}

/** Inserts a user row plus its `email` identity. Triggers on auth.users run here. */
export async function insertUser(svc: AuthService, c: Db, args: NewUser): Promise<string> {
  const id = args.id ?? randomUUID();
  try {
    await c.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
         invited_at, confirmation_token, recovery_token, email_change_token_new, email_change,
         email_change_token_current, email_change_confirm_status, raw_app_meta_data, raw_user_meta_data,
         is_super_admin, created_at, updated_at, phone, phone_confirmed_at, phone_change, phone_change_token,
         reauthentication_token, banned_until, is_sso_user, is_anonymous)
       values ($1, $2, $3, $4, $5, $6, case when $7 then now() end, case when $8 then now() end, '', '', '', '',
         '', 0, $9, $10, false, now(), now(), $11, case when $12 then now() end, '', '', '',
         case when $13::float8 is not null then now() + make_interval(secs => $13::float8) end, false, false)`,
      [
        NIL_UUID,
        id,
        AUDIENCE,
        args.role ?? DEFAULT_ROLE,
        args.email,
        args.passwordHash,
        args.emailConfirmed,
        args.invited ?? false,
        JSON.stringify(args.appMetadata),
        JSON.stringify(args.userMetadata),
        args.phone || null,
        args.phoneConfirmed ?? false,
        args.bannedUntilSeconds ?? null,
      ],
    );
    if (args.email) {
      const identityData = {
        sub: id,
        email: args.email,
        email_verified: args.emailConfirmed,
        phone_verified: false,
      };
      await c.query(
        `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
         values ($1, $2, $3, 'email', now(), now(), now())`,
        [id, id, JSON.stringify(identityData)],
      );
    }
  } catch (e) {
    if (isUniqueViolation(e)) throw emailExists();
    // Usually a failing trigger from a user migration; GoTrue reports it like this.
    svc.log(`insert user failed: ${e instanceof Error ? e.message : String(e)}`);
    throw internalError('Database error saving new user');
  }
  return id;
}

/** GoTrue-style row in auth.audit_log_entries (who did what, from which IP). */
export async function audit(
  c: Db,
  ctx: Ctx,
  actor: { id: string; email: string | null },
  action: string,
  logType: 'account' | 'token' | 'user' | 'team' | 'factor',
  traits?: Json,
): Promise<void> {
  const payload: Json = {
    actor_id: actor.id,
    actor_username: actor.email ?? '',
    actor_via_sso: false,
    log_type: logType,
    action,
  };
  if (traits) payload.traits = traits;
  await c.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
     values ($1, $2, $3, now(), $4)`,
    [NIL_UUID, randomUUID(), JSON.stringify(payload), ctx.ip.slice(0, 64)],
  );
}
