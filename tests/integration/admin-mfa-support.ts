// Two-factor sessions for the database tests (REQ-MFA-2): the database decides admin rights from
// the access token's aal claim and auth.mfa_factors, so these tests make both directly. An aal2
// token is the token of a real signed-in session with only aal (and amr) changed, signed with
// the stack's JWT secret as Auth signs its own; a verified factor is a row as Auth stores it.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { signJwt } from '../../stack/auth/jwt.ts';
import {
  clientWithToken,
  createAdmin,
  signedInClient,
  sql,
  stackEnv,
  type TestUser,
} from '../support/stack.ts';

/** The access token of a client's current session. */
export async function accessToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return data.session.access_token;
}

/** The same session's token as Auth issues it after a verified TOTP code (aal2). */
export function withAal2(token: string): string {
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
    amr?: { method: string; timestamp: number }[];
  };
  const amr = [{ method: 'totp', timestamp: Math.floor(Date.now() / 1000) }, ...(claims.amr ?? [])];
  return signJwt({ ...claims, aal: 'aal2', amr }, stackEnv().JWT_SECRET);
}

/** Clients of one real session: as signed in with the password (aal1), and after the code. */
export async function sessionPair(user: {
  email: string;
  password: string;
}): Promise<{ aal1: SupabaseClient; aal2: SupabaseClient }> {
  const aal1 = await signedInClient(user);
  return { aal1, aal2: clientWithToken(withAal2(await accessToken(aal1))) };
}

/** A verified TOTP factor for the account, as Auth stores it; its id. */
export async function addVerifiedFactor(userId: string, name = 'Phone'): Promise<string> {
  const id = randomUUID();
  await sql(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
                                   updated_at, secret)
     values ($1, $2, $3, 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP')`,
    [id, userId, `${name} ${id.slice(0, 8)}`],
  );
  return id;
}

/** store_settings.admins_require_mfa, set as the owner (tests restore it). */
export async function setRequireMfa(on: boolean): Promise<void> {
  await sql('update public.store_settings set admins_require_mfa = $1 where id', [on]);
}

/**
 * The matrices' two-factor dimension (rls-matrix, security-function-matrix): an admin with a
 * verified factor, signed in with the password only (aal1: no admin rights, as a signed-in
 * non-admin) and after the code (aal2: every admin right).
 */
export type BaseRole = 'anon' | 'user' | 'admin' | 'service_role';
export type MatrixRole = BaseRole | 'admin_aal1' | 'admin_aal2';
export const MATRIX_ROLES: MatrixRole[] = [
  'anon',
  'user',
  'admin',
  'admin_aal1',
  'admin_aal2',
  'service_role',
];
/** Whose rights a matrix role has. */
export const rightsOf = (role: MatrixRole): BaseRole =>
  role === 'admin_aal1' ? 'user' : role === 'admin_aal2' ? 'admin' : role;

export async function factorAdmin(): Promise<{
  user: TestUser;
  aal1: SupabaseClient;
  aal2: SupabaseClient;
}> {
  const user = await createAdmin();
  await addVerifiedFactor(user.id);
  return { user, ...(await sessionPair(user)) };
}
