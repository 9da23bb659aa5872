// GoTrue's MFA API for TOTP factors (internal/api/mfa.go): POST /factors (enrol),
// POST /factors/{id}/challenge, POST /factors/{id}/verify, DELETE /factors/{id}. Beyond GoTrue
// (decision 0250, REQ-MFA-4): wrong codes are limited per account whatever the address, and a
// code that was accepted once is refused for the rest of its window.
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { clearFailures, countFailure, failureCount } from './account-failures.ts';
import { audit, loadUser } from './accounts.ts';
import { signedInUser } from './authenticate.ts';
import {
  AuthApiError,
  badRequest,
  forbidden,
  internalError,
  tooManyRequests,
  unprocessable,
} from './errors.ts';
import {
  downgradeSessions,
  type FactorRow,
  loadFactors,
  loadOwnedFactor,
  newTotpKey,
  TOTP_PERIOD_SECONDS,
  totpCodeValid,
} from './factors.ts';
import { type Ctx, type Reply, str } from './http.ts';
import { type AuthService, CommitThenThrow, type Db } from './service.ts';
import { stepUpSession } from './sessions.ts';
import { isUuid } from './validation.ts';

/** GoTrue's MFA defaults ([auth.mfa]): challenge and unverified-factor lifetime, limits. */
const CHALLENGE_EXPIRY_SECONDS = 300;
const UNVERIFIED_FACTOR_EXPIRY_SECONDS = 300;
const MAX_VERIFIED_FACTORS = 10;
/** REQ-MFA-4: wrong codes an account gets; the count is forgotten after 5 quiet minutes. */
export const MFA_FAILURE_LIMIT = 5;
export const MFA_FAILURE_QUIET_SECONDS = 300;
/** A TOTP code is accepted in its own step and the ones before and after it: 90 s at most. */
const CODE_LIFETIME_SECONDS = 3 * TOTP_PERIOD_SECONDS;

function mfaSettings(svc: AuthService) {
  const m = svc.opts.mfa;
  return {
    enrollEnabled: m?.totpEnrollEnabled ?? true,
    verifyEnabled: m?.totpVerifyEnabled ?? true,
    maxEnrolledFactors: m?.maxEnrolledFactors ?? 10,
  };
}

/** The signed-in session's id and its level as the session row records it (GoTrue's IsAAL2). */
async function currentSession(svc: AuthService, ctx: Ctx): Promise<{ id: string; aal2: boolean }> {
  const { sessionId } = signedInUser(ctx);
  if (!sessionId)
    throw internalError('A valid session and a registered user are required to enroll a factor');
  const r = await svc.pool.query<{ aal: string | null }>(
    'select aal from auth.sessions where id = $1',
    [sessionId],
  );
  return { id: sessionId, aal2: r.rows[0]?.aal === 'aal2' };
}

const requestIp = (ctx: Ctx) => (isIP(ctx.ip) ? ctx.ip : '0.0.0.0');

export async function enrollFactor(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const { user } = signedInUser(ctx);
  const settings = mfaSettings(svc);
  const factorType = str(ctx.body, 'factor_type');
  if (factorType === 'phone' || factorType === 'webauthn')
    throw unprocessable(
      `mfa_${factorType}_enroll_not_enabled`,
      `MFA enroll is disabled for ${factorType === 'phone' ? 'Phone' : 'WebAuthn'}`,
    );
  if (factorType !== 'totp')
    throw badRequest('validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  if (!settings.enrollEnabled)
    throw unprocessable('mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP');
  const friendlyName = str(ctx.body, 'friendly_name');
  let issuer = str(ctx.body, 'issuer');
  if (issuer === '') {
    try {
      issuer = new URL(svc.opts.siteUrl).host;
    } catch {
      throw internalError('site url is improperly formatted');
    }
  }
  const session = await currentSession(svc, ctx);
  const key = await newTotpKey(issuer, user.email ?? '');
  return svc.tx(async (c) => {
    await loadUser(c, user.id, true);
    await validateNewFactor(c, user.id, friendlyName, settings.maxEnrolledFactors, session.aal2);
    const id = randomUUID();
    await c.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
       values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
      [id, user.id, friendlyName, key.secret],
    );
    await audit(c, ctx, user, 'factor_in_progress', 'factor', { factor_id: id });
    return {
      status: 200,
      body: {
        id,
        type: 'totp',
        friendly_name: friendlyName,
        totp: { qr_code: key.qrCode, secret: key.secret, uri: key.uri },
      },
    };
  });
}

/** GoTrue's validateFactors: expired unverified factors go; name, count and level rules. */
async function validateNewFactor(
  c: Db,
  userId: string,
  friendlyName: string,
  maxEnrolled: number,
  aal2: boolean,
): Promise<void> {
  await c.query(
    `delete from auth.mfa_factors f where f.user_id = $1 and f.status <> 'verified'
       and not exists (select 1 from auth.mfa_challenges ch where ch.factor_id = f.id)
       and f.created_at + make_interval(secs => $2) < now()`,
    [userId, UNVERIFIED_FACTOR_EXPIRY_SECONDS],
  );
  const factors = await loadFactors(c, [userId]);
  if (factors.some((f) => (f.friendly_name ?? '') === friendlyName))
    throw unprocessable(
      'mfa_factor_name_conflict',
      `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`,
    );
  const verified = factors.filter((f) => f.status === 'verified').length;
  if (factors.length >= maxEnrolled || verified >= MAX_VERIFIED_FACTORS)
    throw unprocessable(
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    );
  if (verified > 0 && !aal2)
    throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
}

function assertTotp(svc: AuthService, factor: FactorRow): void {
  if (factor.factor_type !== 'totp')
    throw badRequest('validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  if (!mfaSettings(svc).verifyEnabled)
    throw unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP');
}

export async function challengeFactor(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const { user } = signedInUser(ctx);
  const factor = await loadOwnedFactor(svc.pool, user.id, ctx.params[0] ?? '');
  assertTotp(svc, factor);
  return svc.tx(async (c) => {
    const id = randomUUID();
    const r = await c.query<{ expires_at: number }>(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, now(), $3)
       returning floor(extract(epoch from created_at))::bigint + $4 as expires_at`,
      [id, factor.id, requestIp(ctx), CHALLENGE_EXPIRY_SECONDS],
    );
    await c.query('update auth.mfa_factors set last_challenged_at = now() where id = $1', [
      factor.id,
    ]);
    await audit(c, ctx, user, 'challenge_created', 'factor', {
      factor_id: factor.id,
      factor_status: factor.status,
    });
    return { status: 200, body: { id, type: 'totp', expires_at: r.rows[0]!.expires_at } };
  });
}

export async function verifyFactor(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const { user, sessionId } = signedInUser(ctx);
  const challengeId = str(ctx.body, 'challenge_id');
  const code = str(ctx.body, 'code').trim();
  if (!isUuid(challengeId))
    throw badRequest('bad_json', 'Could not parse request body as JSON: invalid challenge_id');
  if (code === '') throw badRequest('validation_failed', 'Code needs to be non-empty');
  if (!sessionId) throw internalError('Cannot read SessionId claim as UUID');
  return svc.tx(async (c) => {
    // The account's row lock: tries at one account run one after the other (REQ-MFA-4).
    await loadUser(c, user.id, true);
    const factor = await loadOwnedFactor(c, user.id, ctx.params[0] ?? '', true);
    assertTotp(svc, factor);
    const tries = await failureCount(c, 'mfa_verify', user.id, MFA_FAILURE_QUIET_SECONDS);
    if (tries.failures >= MFA_FAILURE_LIMIT) {
      const minutes = Math.max(1, Math.ceil((tries.forgottenInSeconds ?? 0) / 60));
      throw tooManyRequests(
        'over_request_rate_limit',
        `Too many wrong codes for this account. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
    const ch = await c.query<{ id: string; verified: boolean; same_ip: boolean; expired: boolean }>(
      `select id, verified_at is not null as verified, ip_address = $3::inet as same_ip,
         created_at + make_interval(secs => $4) < now() as expired
       from auth.mfa_challenges where id = $1 and factor_id = $2 for update`,
      [challengeId.toLowerCase(), factor.id, requestIp(ctx), CHALLENGE_EXPIRY_SECONDS],
    );
    const challenge = ch.rows[0];
    if (!challenge)
      throw unprocessable(
        'mfa_factor_not_found',
        'MFA factor with the provided challenge ID not found',
      );
    if (challenge.verified || !challenge.same_ip)
      throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
    if (challenge.expired) {
      await c.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
      throw new CommitThenThrow(
        unprocessable(
          'mfa_challenge_expired',
          `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
        ),
      );
    }
    const wrong = async (error: AuthApiError): Promise<never> => {
      await countFailure(c, 'mfa_verify', [user.id], MFA_FAILURE_QUIET_SECONDS);
      throw new CommitThenThrow(error);
    };
    if (!factor.secret || !totpCodeValid(factor.secret, code))
      return wrong(unprocessable('mfa_verification_failed', 'Invalid TOTP code entered'));
    // Single use: the accepted code is kept on its challenge for the code's lifetime.
    const used = await c.query(
      `select 1 from auth.mfa_challenges where factor_id = $1 and otp_code = $2
         and verified_at + make_interval(secs => $3) > now()`,
      [factor.id, code, CODE_LIFETIME_SECONDS],
    );
    if (used.rowCount)
      return wrong(
        unprocessable(
          'mfa_verification_failed',
          'This TOTP code has already been used. Wait for the next code and enter it.',
        ),
      );
    await clearFailures(c, 'mfa_verify', user.id);
    await audit(c, ctx, user, 'verification_attempted', 'factor', {
      factor_id: factor.id,
      challenge_id: challenge.id,
      factor_type: factor.factor_type,
    });
    await c.query(
      'update auth.mfa_challenges set verified_at = now(), otp_code = $2 where id = $1',
      [challenge.id, code],
    );
    if (factor.status !== 'verified')
      await c.query(
        `update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`,
        [factor.id],
      );
    const body = await stepUpSession(svc, c, user.id, sessionId, factor.id, 'totp');
    // GoTrue's DeleteUnverifiedFactors: the other half-enrolled TOTP factors go.
    await c.query(
      `delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = 'totp'`,
      [user.id],
    );
    return { status: 200, body };
  });
}

export async function unenrollFactor(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const { user } = signedInUser(ctx);
  const session = await currentSession(svc, ctx);
  return svc.tx(async (c) => {
    const factor = await loadOwnedFactor(c, user.id, ctx.params[0] ?? '', true);
    if (factor.status === 'verified' && !session.aal2)
      throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
    await c.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    await audit(c, ctx, user, 'factor_unenrolled', 'factor', {
      factor_id: factor.id,
      factor_status: factor.status,
      session_id: session.id,
    });
    await downgradeSessions(c, factor);
    return { status: 200, body: { id: factor.id } };
  });
}
