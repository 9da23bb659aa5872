import type { Factor } from '@supabase/supabase-js';
import { loadSupabase } from './loadSupabase';

/**
 * Two-factor sign-in (TOTP, REQ-MFA-1) over supabase-js's `auth.mfa` API, and what the database
 * says this session lacks for admin rights (`my_admin_access()`, REQ-MFA-2). Decision 0252.
 */

/** What this session needs before the database grants admin rights. */
export type AdminNeeds = 'none' | 'code' | 'enrol';
export interface AdminAccess {
  admin: boolean;
  needs: AdminNeeds;
}

/** How checking a code ended; each maps to one message. */
/** 'locked': the per-account limit refused the code and ended the account's sessions. */
export type CodeOutcome = 'ok' | 'wrong' | 'too-many' | 'locked' | 'failed';

export interface Enrolment {
  factorId: string;
  /** data: URL of the QR code image (an SVG). */
  qrCode: string;
  /** The base32 secret, for apps and password managers that take it typed or pasted. */
  secret: string;
}

export type TotpFactor = Factor<'totp'>;

interface AuthErrorLike {
  status?: number;
  code?: string;
}

/**
 * Auth's answers to a code: wrong or expired codes, and its limits on attempts: per address
 * (HTTP 429, the session stays) and per account (the MFA verification attempt hook's 403
 * mfa_verification_rejected, decision 0253), which also ends the account's sessions, so another
 * code on the same page could never be checked.
 */
export function codeOutcome(error: AuthErrorLike | null): CodeOutcome {
  if (!error) return 'ok';
  if (error.code === 'mfa_verification_rejected') return 'locked';
  if (error.status === 429 || error.code === 'over_request_rate_limit') return 'too-many';
  if (error.code === 'mfa_verification_failed' || error.code === 'mfa_challenge_expired')
    return 'wrong';
  console.error('Checking the code failed', error);
  return 'failed';
}

/** The database's view of this session (REQ-MFA-2); never guessed in the browser. */
export async function fetchAdminAccess(): Promise<AdminAccess> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('my_admin_access');
  if (error) throw error;
  const value = (data ?? {}) as { admin?: unknown; needs?: unknown };
  const needs = value.needs === 'code' || value.needs === 'enrol' ? value.needs : 'none';
  return { admin: value.admin === true, needs };
}

/** True when the password is done but the account has a verified factor still to be used. */
export async function codeStillNeeded(): Promise<boolean> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  if (error) throw error;
  return data.currentLevel === 'aal1' && data.nextLevel === 'aal2';
}

/** The account's TOTP factors, verified and not (Auth's `GET /user`, not the stored session). */
export async function listTotpFactors(): Promise<TotpFactor[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  return data.all.filter((f): f is TotpFactor => f.factor_type === 'totp');
}

/** Checks a code against `factorId` (or the account's verified factor); on 'ok' the session is aal2. */
export async function verifyCode(code: string, factorId?: string): Promise<CodeOutcome> {
  const supabase = await loadSupabase();
  let id = factorId;
  if (!id) {
    const factors = await listTotpFactors();
    id = factors.find((f) => f.status === 'verified')?.id;
    if (!id) return 'failed';
  }
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId: id, code });
  return codeOutcome(error);
}

/**
 * Starts an enrolment. Unfinished ones from before (a closed tab) are removed first: Auth allows
 * only a few factors per account, and an unverified one is of no use.
 */
export async function startEnrolment(friendlyName: string): Promise<Enrolment> {
  const supabase = await loadSupabase();
  for (const stale of (await listTotpFactors()).filter((f) => f.status !== 'verified')) {
    await supabase.auth.mfa.unenroll({ factorId: stale.id });
  }
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName });
  if (error) throw error;
  return { factorId: data.id, qrCode: qrImageUrl(data.totp.qr_code), secret: data.totp.secret };
}

const SVG_PREFIX = 'data:image/svg+xml;utf-8,';

/**
 * auth-js hands the SVG on as `data:image/svg+xml;utf-8,<svg…>` unescaped: a `#` in it (a colour
 * such as fill="#000000") would end the URL there and the image would not load. Percent-encoded,
 * it loads whatever the SVG holds.
 */
export function qrImageUrl(qrCode: string): string {
  if (!qrCode.startsWith(SVG_PREFIX)) return qrCode;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrCode.slice(SVG_PREFIX.length))}`;
}

/** Removes a factor (an unverified one at any time; a verified one needs an aal2 session). */
export async function removeFactor(factorId: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) throw error;
}

/** Ends this browser's session only ("Use another account" on the code step). */
export async function signOutHere(): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.signOut({ scope: 'local' });
  if (error) console.error('Signing out failed', error);
}
