// Two-factor sign-in (TOTP) on the auth stand-in, through supabase-js over HTTP as the SPA and
// hosted Supabase Auth use it (REQ-MFA-3, REQ-MFA-4, decision 0250): enrol, challenge, verify,
// the aal claims, refresh, list, unenrol, the admin API, GET /user, the per-account limit on
// wrong codes and single-use codes, and `npm run admin:reset-mfa`. Codes are computed here with
// otpauth from the secret the enrolment returns, as an authenticator app would.
import type { SupabaseClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetMfa } from '../../scripts/admin-reset-mfa.ts';
import { nodeClient } from '../../stack/client.ts';
import { fetchFrom, randomLoopbackIp } from '../support/loopback.ts';
import pg from 'pg';
import {
  createConfirmedUser,
  serviceClient,
  sql,
  stackEnv,
  type TestUser,
} from '../support/stack.ts';
import { decodeJwt } from './auth-support.ts';
import { deleteUsers } from './db-test-helpers.ts';

const service = serviceClient();
const users: TestUser[] = [];
afterAll(() => deleteUsers(service, users));

async function newUser(): Promise<TestUser> {
  const user = await createConfirmedUser();
  users.push(user);
  return user;
}

/** A client of its own address (challenge and verify must come from the same one), signed in. */
async function signIn(user: TestUser): Promise<SupabaseClient> {
  const env = stackEnv();
  const client = nodeClient(env.API_URL, env.ANON_KEY, { fetch: fetchFrom(randomLoopbackIp()) });
  const { error } = await client.auth.signInWithPassword(user);
  if (error) throw new Error(`sign-in failed: ${error.message}`);
  return client;
}

const codeFor = (secret: string, offsetSeconds = 0) =>
  OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: Date.now() + offsetSeconds * 1000,
  });

/** A code that is not valid now (neither this step nor the ones beside it). */
function wrongCode(secret: string): string {
  const valid = new Set([-30, 0, 30].map((o) => codeFor(secret, o)));
  for (let n = 0; ; n++) {
    const guess = String(n).padStart(6, '0');
    if (!valid.has(guess)) return guess;
  }
}

/** SQL as the auth service's role (owner of the stand-in's own auth.account_failures). */
async function asAuthAdmin(text: string, params: unknown[]): Promise<void> {
  const url = new URL(stackEnv().DB_URL);
  url.username = 'supabase_auth_admin';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

async function accessClaims(client: SupabaseClient): Promise<Record<string, unknown>> {
  const { data } = await client.auth.getSession();
  return decodeJwt(data.session!.access_token);
}

/** Signs in, enrols a TOTP factor and verifies it: the client's session is then aal2. */
async function userWithFactor() {
  const user = await newUser();
  const client = await signIn(user);
  const { data, error } = await client.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: 'Phone',
  });
  if (error) throw error;
  const usedCode = codeFor(data.totp.secret);
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: data.id, code: usedCode });
  if (verified.error) throw verified.error;
  return { user, client, factorId: data.id, secret: data.totp.secret, usedCode };
}

describe('REQ-MFA-3 enrolling, challenging and verifying a TOTP factor', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await newUser();
  });

  it('enrol answers GoTrue’s shape: id, type, friendly_name, QR code (SVG data URL), secret, uri', async () => {
    const client = await signIn(user);
    const { data, error } = await client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Work phone',
      issuer: 'MAR Online Store',
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ type: 'totp', friendly_name: 'Work phone' });
    expect(data!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data!.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg[\s\S]*<\/svg>\s*$/);
    expect(data!.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(data!.totp.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(data!.totp.secret);
    expect(uri.searchParams.get('issuer')).toBe('MAR Online Store');
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    // Unverified: listed under `all`, not under `totp`; the session stays aal1.
    const list = await client.auth.mfa.listFactors();
    expect(list.data!.all).toHaveLength(1);
    expect(list.data!.all[0]).toMatchObject({ status: 'unverified', factor_type: 'totp' });
    expect(list.data!.totp).toHaveLength(0);
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });

  it('challenge answers id, type and expires_at; verify gives an aal2 session and a verified factor', async () => {
    const client = await signIn(user);
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Tablet' });
    const factorId = enrolled.data!.id;
    const challenge = await client.auth.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ type: 'totp' });
    const expiresIn = challenge.data!.expires_at - Date.now() / 1000;
    expect(expiresIn).toBeGreaterThan(250);
    expect(expiresIn).toBeLessThanOrEqual(301);
    const before = await accessClaims(client);
    const verified = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code: codeFor(enrolled.data!.totp.secret),
    });
    expect(verified.error).toBeNull();
    const claims = decodeJwt(verified.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect(claims.session_id, 'the same session steps up').toBe(before.session_id);
    expect(claims.amr).toEqual(
      expect.arrayContaining([
        { method: 'totp', timestamp: expect.any(Number) },
        { method: 'password', timestamp: expect.any(Number) },
      ]),
    );
    expect((claims.amr as Array<{ method: string }>)[0]!.method, 'most recent first').toBe('totp');
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const rows = await service.auth.admin.mfa.listFactors({ userId: user.id });
    const factor = rows.data!.factors.find((f) => f.id === factorId);
    expect(factor).toMatchObject({ status: 'verified', friendly_name: 'Tablet' });
    // GoTrue's DeleteUnverifiedFactors: the first test's half-enrolled factor is gone.
    expect(rows.data!.factors).toHaveLength(1);
  });

  it('a new sign-in is aal1 with next level aal2; a refresh of the aal2 session keeps aal2', async () => {
    const { user: u, client: stepped } = await userWithFactor();
    const fresh = await signIn(u);
    const aal = await fresh.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const refreshed = await stepped.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(decodeJwt(refreshed.data.session!.access_token)).toMatchObject({ aal: 'aal2' });
    const again = await stepped.auth.refreshSession();
    expect(decodeJwt(again.data.session!.access_token)).toMatchObject({ aal: 'aal2' });
  });

  it('GET /user lists the factors (absent without any); the sign-in answer carries them too', async () => {
    const plain = await signIn(await newUser());
    expect((await plain.auth.getUser()).data.user!.factors).toBeUndefined();
    const { user: u, factorId } = await userWithFactor();
    const client = await signIn(u);
    const { data } = await client.auth.getUser();
    expect(data.user!.factors).toEqual([
      expect.objectContaining({
        id: factorId,
        status: 'verified',
        factor_type: 'totp',
        friendly_name: 'Phone',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      }),
    ]);
    expect(JSON.stringify(data.user)).not.toContain('secret');
    const session = (await client.auth.getSession()).data.session!;
    expect(session.user.factors).toHaveLength(1);
  });

  it('a wrong code answers 422 mfa_verification_failed "Invalid TOTP code entered"', async () => {
    const { user: u, factorId, secret } = await userWithFactor();
    const client = await signIn(u);
    const { data, error } = await client.auth.mfa.challengeAndVerify({
      factorId,
      code: wrongCode(secret),
    });
    expect(data).toBeNull();
    expect(error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    expect(error!.message).toBe('Invalid TOTP code entered');
    expect((await accessClaims(client)).aal).toBe('aal1');
  });

  it('a second factor needs an aal2 session (403 insufficient_aal at aal1)', async () => {
    const { user: u, client: stepped } = await userWithFactor();
    const aal1 = await signIn(u);
    const refused = await aal1.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' });
    expect(refused.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    const ok = await stepped.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' });
    expect(ok.error).toBeNull();
    const clash = await stepped.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' });
    expect(clash.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });
  });

  it('a challenge from another address, or an unknown factor, is refused as GoTrue does', async () => {
    const { user: u, factorId, secret } = await userWithFactor();
    const client = await signIn(u);
    const challenge = await client.auth.mfa.challenge({ factorId });
    const session = (await client.auth.getSession()).data.session!;
    const env = stackEnv();
    const elsewhere = await fetchFrom(randomLoopbackIp())(
      `${env.API_URL}/auth/v1/factors/${factorId}/verify`,
      {
        method: 'POST',
        headers: {
          apikey: env.ANON_KEY,
          Authorization: `Bearer ${session.access_token}`,
          'Content-Type': 'application/json',
          'X-Supabase-Api-Version': '2024-01-01',
        },
        body: JSON.stringify({ challenge_id: challenge.data!.id, code: codeFor(secret) }),
      },
    );
    expect(elsewhere.status).toBe(422);
    expect(await elsewhere.json()).toMatchObject({ code: 'mfa_ip_address_mismatch' });
    const unknown = await client.auth.mfa.challenge({
      factorId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
  });
});

describe('REQ-MFA-3 challenges and sessions as GoTrue keeps them', () => {
  it('an expired challenge (over 5 minutes) answers 422 mfa_challenge_expired', async () => {
    const { user, factorId, secret } = await userWithFactor();
    const client = await signIn(user);
    const challenge = await client.auth.mfa.challenge({ factorId });
    await sql(
      `update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`,
      [challenge.data!.id],
    );
    const late = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code: codeFor(secret, 30),
    });
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
  });

  it('a verified code ends the account’s other aal1 sessions; aal2 ones stay', async () => {
    const { user, client: stepped, factorId, secret } = await userWithFactor();
    const bystander = await signIn(user);
    const verifier = await signIn(user);
    const { error } = await verifier.auth.mfa.challengeAndVerify({
      factorId,
      code: codeFor(secret, 30),
    });
    expect(error).toBeNull();
    // auth-js turns GoTrue's 403 session_not_found into AuthSessionMissingError.
    expect((await bystander.auth.getUser()).error?.name).toBe('AuthSessionMissingError');
    expect((await stepped.auth.getUser()).error).toBeNull();
  });
});

describe('REQ-MFA-3 removing factors', () => {
  it('unenrol of a verified factor needs aal2 (422 insufficient_aal at aal1); at aal2 it goes and the session drops to aal1', async () => {
    const { user, client: stepped, factorId } = await userWithFactor();
    const aal1 = await signIn(user);
    const refused = await aal1.auth.mfa.unenroll({ factorId });
    expect(refused.error).toMatchObject({ status: 422, code: 'insufficient_aal' });
    const removed = await stepped.auth.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factorId });
    const list = await stepped.auth.mfa.listFactors();
    expect(list.data!.all).toHaveLength(0);
    const refreshed = await stepped.auth.refreshSession();
    const claims = decodeJwt(refreshed.data.session!.access_token);
    expect(claims.aal).toBe('aal1');
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
  });

  it('an unverified factor can be removed from an aal1 session', async () => {
    const client = await signIn(await newUser());
    const { data } = await client.auth.mfa.enroll({ factorType: 'totp' });
    const removed = await client.auth.mfa.unenroll({ factorId: data!.id });
    expect(removed.error).toBeNull();
  });

  it('the admin API lists and deletes a user’s factors with the service role', async () => {
    const { user, client: stepped, factorId } = await userWithFactor();
    const listed = await service.auth.admin.mfa.listFactors({ userId: user.id });
    expect(listed.error).toBeNull();
    expect(listed.data!.factors.map((f) => f.id)).toEqual([factorId]);
    const deleted = await service.auth.admin.mfa.deleteFactor({ userId: user.id, id: factorId });
    expect(deleted.error).toBeNull();
    const after = await service.auth.admin.mfa.listFactors({ userId: user.id });
    expect(after.data!.factors).toEqual([]);
    const refreshed = await stepped.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal1');
    const gone = await service.auth.admin.mfa.deleteFactor({ userId: user.id, id: factorId });
    expect(gone.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const noUser = await service.auth.admin.mfa.listFactors({
      userId: '00000000-0000-4000-8000-000000000000',
    });
    expect(noUser.error).toMatchObject({ status: 404, code: 'user_not_found' });
    // A signed-in user's own key is no service role.
    const own = await stepped.auth.admin.mfa.listFactors({ userId: user.id });
    expect(own.error).toMatchObject({ status: 403 });
  });

  it('npm run admin:reset-mfa removes every factor of the account by e-mail', async () => {
    const { user, client: stepped } = await userWithFactor();
    await stepped.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Spare' });
    expect(await resetMfa(service, user.email.toUpperCase().toLowerCase())).toBe(2);
    const after = await service.auth.admin.mfa.listFactors({ userId: user.id });
    expect(after.data!.factors).toEqual([]);
    const fresh = await signIn(user);
    const aal = await fresh.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
    await expect(resetMfa(service, 'nobody-here@example.com')).rejects.toThrow(/No account/);
  });
});

describe('REQ-MFA-4 guessing codes', () => {
  it('a code that was accepted once is refused again inside its window; the next code works', async () => {
    const { user, factorId, secret, usedCode } = await userWithFactor();
    // Still inside its window (it is accepted for 90 s at most), replayed from a new sign-in.
    const client = await signIn(user);
    const replay = await client.auth.mfa.challengeAndVerify({ factorId, code: usedCode });
    expect(replay.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    expect(replay.error!.message).toMatch(/already been used/);
    const next = await client.auth.mfa.challengeAndVerify({ factorId, code: codeFor(secret, 30) });
    expect(next.error).toBeNull();
    expect(decodeJwt(next.data!.access_token).aal).toBe('aal2');
  });

  it('5 wrong codes per account, then 429 from any address, even for the right code', async () => {
    const { user, factorId, secret } = await userWithFactor();
    const first = await signIn(user);
    for (let i = 0; i < 5; i++) {
      const { error } = await first.auth.mfa.challengeAndVerify({
        factorId,
        code: wrongCode(secret),
      });
      expect(error, `wrong code ${i + 1}`).toMatchObject({
        status: 422,
        code: 'mfa_verification_failed',
      });
    }
    const second = await signIn(user); // another address, another session
    const sixth = await second.auth.mfa.challengeAndVerify({ factorId, code: wrongCode(secret) });
    expect(sixth.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect(sixth.error!.message).toMatch(/Too many wrong codes for this account\. Try again in/);
    const right = await second.auth.mfa.challengeAndVerify({
      factorId,
      code: codeFor(secret, 30),
    });
    expect(right.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect((await accessClaims(second)).aal).toBe('aal1');
  });

  it('the count is forgotten 5 quiet minutes after the last wrong code; a right code clears it', async () => {
    const { user, factorId, secret } = await userWithFactor();
    const client = await signIn(user);
    for (let i = 0; i < 5; i++)
      await client.auth.mfa.challengeAndVerify({ factorId, code: wrongCode(secret) });
    const blocked = await client.auth.mfa.challengeAndVerify({
      factorId,
      code: codeFor(secret, 30),
    });
    expect(blocked.error).toMatchObject({ status: 429 });
    await asAuthAdmin(
      `update auth.account_failures set updated_at = now() - interval '301 seconds'
       where user_id = $1 and kind = 'mfa_verify'`,
      [user.id],
    );
    const later = await client.auth.mfa.challengeAndVerify({ factorId, code: codeFor(secret, 30) });
    expect(later.error).toBeNull();
    // Cleared: 5 more wrong codes are answered 422 again, not 429.
    const again = await signIn(user);
    for (let i = 0; i < 5; i++) {
      const { error } = await again.auth.mfa.challengeAndVerify({
        factorId,
        code: wrongCode(secret),
      });
      expect(error).toMatchObject({ status: 422 });
    }
  });
});
