// MFA factors (auth.mfa_factors, GoTrue's shape): rows and their JSON, TOTP secrets and codes,
// what removing a factor does to sessions, and the admin API's factor routes
// (GET /admin/users/{id}/factors, DELETE /admin/users/{id}/factors/{factor_id}).
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { adminActor } from './authenticate.ts';
import { audit, loadUser } from './accounts.ts';
import { notFound } from './errors.ts';
import type { Ctx, Reply } from './http.ts';
import type { AuthService, Db } from './service.ts';
import type { Json } from './users.ts';
import { isUuid } from './validation.ts';

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: 'totp' | 'phone' | 'webauthn';
  status: 'unverified' | 'verified';
  created_at: string;
  updated_at: string;
  secret: string | null;
  phone: string | null;
  last_challenged_at: string | null;
}

/** AMR methods that make a session aal2 (GoTrue's AMRClaim.IsAAL2Claim). */
export const AAL2_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);

/** RFC 6238 as GoTrue (pquerna/otp) uses it: SHA1, 6 digits, 30 s steps, ±1 step accepted. */
const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
export const TOTP_PERIOD_SECONDS = TOTP_PARAMS.period;

/** A factor as GoTrue's models.Factor marshals it (secret never leaves the server). */
export function factorJson(f: FactorRow): Json {
  const out: Json = {
    id: f.id,
    created_at: f.created_at,
    updated_at: f.updated_at,
    status: f.status,
  };
  if (f.friendly_name) out.friendly_name = f.friendly_name;
  out.factor_type = f.factor_type;
  out.phone = f.phone ?? '';
  out.last_challenged_at = f.last_challenged_at;
  return out;
}

export async function loadFactors(c: Db, userIds: string[]): Promise<FactorRow[]> {
  if (userIds.length === 0) return [];
  const r = await c.query<FactorRow>(
    'select * from auth.mfa_factors where user_id = any($1::uuid[]) order by created_at, id',
    [userIds],
  );
  return r.rows;
}

/** GoTrue's loadFactor: the factor of the path, owned by `userId`, else 404. */
export async function loadOwnedFactor(
  c: Db,
  userId: string,
  factorId: string,
  lock = false,
): Promise<FactorRow> {
  if (!isUuid(factorId)) throw notFound('validation_failed', 'factor_id must be an UUID');
  const r = await c.query<FactorRow>(
    `select * from auth.mfa_factors where user_id = $1 and id = $2${lock ? ' for update' : ''}`,
    [userId, factorId.toLowerCase()],
  );
  const factor = r.rows[0];
  if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
  return factor;
}

/** A new TOTP key: 20 random bytes (base32, as pquerna/otp), its otpauth:// URI and QR code. */
export async function newTotpKey(
  issuer: string,
  accountName: string,
): Promise<{ secret: string; uri: string; qrCode: string }> {
  const totp = new OTPAuth.TOTP({
    issuer,
    label: accountName,
    secret: new OTPAuth.Secret({ size: 20 }),
    ...TOTP_PARAMS,
  });
  const uri = totp.toString();
  // GoTrue answers the SVG itself; auth-js turns it into a data: URL for an <img>.
  const qrCode = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H' });
  return { secret: totp.secret.base32, uri, qrCode };
}

/** True when `code` is the factor's code of this 30 s step or the one before or after. */
export function totpCodeValid(secret: string, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const delta = OTPAuth.TOTP.validate({
    token: code,
    secret: OTPAuth.Secret.fromBase32(secret),
    window: 1,
    ...TOTP_PARAMS,
  });
  return delta !== null;
}

/**
 * GoTrue's DowngradeSessionsToAAL1: sessions that reached aal2 with this factor lose its AMR
 * claim and go back to aal1 (their next access token says so; the current one runs out).
 */
export async function downgradeSessions(c: Db, factor: FactorRow): Promise<void> {
  const method = factor.factor_type === 'totp' ? 'totp' : `mfa/${factor.factor_type}`;
  await c.query(
    `delete from auth.mfa_amr_claims where authentication_method = $2
       and session_id in (select id from auth.sessions where factor_id = $1)`,
    [factor.id, method],
  );
  await c.query(
    `update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1 and factor_id = $2`,
    [factor.user_id, factor.id],
  );
}

function adminPathUser(ctx: Ctx): string {
  const id = ctx.params[0] ?? '';
  if (!isUuid(id)) throw notFound('validation_failed', 'user_id must be an UUID');
  return id.toLowerCase();
}

/** auth.admin.mfa.listFactors: every factor of the user, verified or not. */
export async function adminListFactors(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const userId = adminPathUser(ctx);
  if (!(await loadUser(svc.pool, userId))) throw notFound('user_not_found', 'User not found');
  return { status: 200, body: (await loadFactors(svc.pool, [userId])).map(factorJson) };
}

/** auth.admin.mfa.deleteFactor: removes one factor (a lost phone); answers the removed factor. */
export async function adminDeleteFactor(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const userId = adminPathUser(ctx);
  const admin = adminActor(ctx);
  return svc.tx(async (c) => {
    const user = await loadUser(c, userId, true);
    if (!user) throw notFound('user_not_found', 'User not found');
    const factor = await loadOwnedFactor(c, userId, ctx.params[1] ?? '', true);
    await audit(c, ctx, admin, 'factor_deleted', 'factor', {
      user_id: userId,
      factor_id: factor.id,
    });
    await c.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    await downgradeSessions(c, factor);
    return { status: 200, body: factorJson(factor) };
  });
}
