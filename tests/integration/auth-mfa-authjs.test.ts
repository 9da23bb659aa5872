// auth-js's own MFA tests (supabase-js packages/core/auth-js/test: GoTrueClient.test.ts
// "MFA" and GoTrueApi.test.ts "MFA Admin"), ported to the auth stand-in (REQ-MFA-3): the same
// clients (auth-js's GoTrueClient and GoTrueAdminApi with only an apikey header, as upstream
// builds them) and the same expectations. Adapted: a confirmed account from the admin API
// instead of an auto-confirmed sign-up (the store's config.toml confirms e-mail); the cases
// upstream runs against a mocked getUser run against real accounts here; the gateway in front
// (as on hosted) makes the apikey the default bearer, which changes one message.
import { AuthAdminApi, AuthClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchFrom, randomLoopbackIp } from '../support/loopback.ts';
import { createConfirmedUser, serviceClient, stackEnv, type TestUser } from '../support/stack.ts';
import { signToken } from './auth-support.ts';
import { deleteUsers } from './db-test-helpers.ts';

const env = stackEnv();
const AUTH_URL = `${env.API_URL}/auth/v1`;
const NON_EXISTANT_USER_ID = '83fd9e20-7a80-46e4-bf29-a86e3d6bbf66';
const users: TestUser[] = [];
afterAll(() => deleteUsers(serviceClient(), users));

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

/** auth-js's test client: apikey header only, no auto refresh, its own address. */
const authClient = () =>
  new AuthClient({
    url: AUTH_URL,
    headers: { apikey: env.ANON_KEY },
    autoRefreshToken: false,
    persistSession: true,
    storage: memoryStorage(),
    fetch: fetchFrom(randomLoopbackIp()),
  });

const serviceRoleApiClient = new AuthAdminApi({
  url: AUTH_URL,
  headers: { apikey: env.SERVICE_ROLE_KEY, Authorization: `Bearer ${env.SERVICE_ROLE_KEY}` },
  fetch: fetchFrom(randomLoopbackIp()),
});

async function setupUserWithMFA(authWithSession: ReturnType<typeof authClient>) {
  const user = await createConfirmedUser();
  users.push(user);
  const { error } = await authWithSession.signInWithPassword(user);
  expect(error).toBeNull();
  return user;
}

async function setupUserWithMFAAndTOTP(authWithSession: ReturnType<typeof authClient>) {
  const user = await setupUserWithMFA(authWithSession);
  const { data, error } = await authWithSession.mfa.enroll({ factorType: 'totp' });
  expect(error).toBeNull();
  expect(data!.totp).not.toBeNull();
  return { ...user, factorId: data!.id, totp: data!.totp };
}

describe('REQ-MFA-3 auth-js GoTrueClient MFA tests against the stand-in', () => {
  it('enroll({factorType: "totp"}) returns totp', async () => {
    const auth = authClient();
    await setupUserWithMFA(auth);
    const { data, error } = await auth.mfa.enroll({ factorType: 'totp' });
    expect(error).toBeNull();
    expect(data!.totp.qr_code).not.toBeNull();
  });

  it('enroll({factorType: "totp"}) should fail without session', async () => {
    const auth = authClient();
    await auth.signOut();
    const { data, error } = await auth.mfa.enroll({ factorType: 'totp' });
    expect(error).not.toBeNull();
    // Upstream talks to GoTrue directly ("…requires a valid Bearer token"); through the gateway,
    // as through hosted's, the apikey becomes the default bearer and it has no subject.
    expect(error?.message).toBe('invalid claim: missing sub claim');
    expect(data).toBeNull();
  });

  it('challenge should create MFA challenge', async () => {
    const auth = authClient();
    const { factorId } = await setupUserWithMFAAndTOTP(auth);
    const { data, error } = await auth.mfa.challenge({ factorId });
    expect(error).toBeNull();
    expect(data!.id).not.toBeNull();
    expect(data!.expires_at).not.toBeNull();
  });

  it('verify should verify MFA challenge (a wrong code: Invalid TOTP code)', async () => {
    const auth = authClient();
    const { factorId } = await setupUserWithMFAAndTOTP(auth);
    const challenge = await auth.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    const { data, error } = await auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code: '123456',
    });
    expect(error).not.toBeNull();
    expect(error?.message).toContain('Invalid TOTP code');
    expect(data).toBeNull();
  });

  it('challengeAndVerify should handle MFA challenge and verification in one call', async () => {
    const auth = authClient();
    const { factorId } = await setupUserWithMFAAndTOTP(auth);
    const { data, error } = await auth.mfa.challengeAndVerify({ factorId, code: '123456' });
    expect(error).not.toBeNull();
    expect(error?.message).toContain('Invalid TOTP code');
    expect(data).toBeNull();
  });

  it('unenroll should remove MFA factor', async () => {
    const auth = authClient();
    const { factorId } = await setupUserWithMFAAndTOTP(auth);
    const { error } = await auth.mfa.unenroll({ factorId });
    expect(error).toBeNull();
    const { data } = await auth.mfa.listFactors();
    expect(data!.all).toHaveLength(0);
    expect(data!.totp).toHaveLength(0);
  });

  it('getAuthenticatorAssuranceLevel should return current AAL', async () => {
    const auth = authClient();
    await setupUserWithMFAAndTOTP(auth);
    const { data, error } = await auth.mfa.getAuthenticatorAssuranceLevel();
    expect(error).toBeNull();
    expect(data!.currentLevel).toBeDefined();
    expect(data!.nextLevel).toBeDefined();
    expect(data!.currentAuthenticationMethods).toBeDefined();
  });

  it('getAuthenticatorAssuranceLevel(jwt): aal1 and no verified factors returns aal1/aal1', async () => {
    const auth = authClient();
    await setupUserWithMFAAndTOTP(auth); // unverified: not counted
    const jwt = (await auth.getSession()).data.session!.access_token;
    const { data, error } = await authClient().mfa.getAuthenticatorAssuranceLevel(jwt);
    expect(error).toBeNull();
    expect(data!.currentLevel).toBe('aal1');
    expect(data!.nextLevel).toBe('aal1');
    expect(data!.currentAuthenticationMethods).toHaveLength(1);
  });

  it('getAuthenticatorAssuranceLevel(jwt): aal1 and verified factors returns aal1/aal2', async () => {
    const auth = authClient();
    const user = await setupUserWithMFAAndTOTP(auth);
    const verified = await auth.mfa.challengeAndVerify({
      factorId: user.factorId,
      code: code(user.totp.secret),
    });
    expect(verified.error).toBeNull();
    const other = authClient();
    await other.signInWithPassword(user);
    const jwt = (await other.getSession()).data.session!.access_token;
    const { data, error } = await authClient().mfa.getAuthenticatorAssuranceLevel(jwt);
    expect(error).toBeNull();
    expect(data!.currentLevel).toBe('aal1');
    expect(data!.nextLevel).toBe('aal2');
    expect(data!.currentAuthenticationMethods).toHaveLength(1);
  });

  it('getAuthenticatorAssuranceLevel(jwt): invalid JWT returns error', async () => {
    const { data, error } = await authClient().mfa.getAuthenticatorAssuranceLevel('invalid-jwt');
    expect(error).not.toBeNull();
    expect(error!.message).toContain('Invalid JWT');
    expect(data).toBeNull();
  });

  it('getAuthenticatorAssuranceLevel(jwt): JWT where getUser fails returns error', async () => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = signToken({
      sub: NON_EXISTANT_USER_ID,
      aud: 'authenticated',
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: now }],
      exp: now + 3600,
      iat: now,
    });
    const { data, error } = await authClient().mfa.getAuthenticatorAssuranceLevel(jwt);
    expect(error).not.toBeNull();
    expect(data).toBeNull();
  });

  it('listFactors returns correct factor lists (all, verified totp)', async () => {
    const auth = authClient();
    const user = await setupUserWithMFAAndTOTP(auth);
    await auth.mfa.challengeAndVerify({ factorId: user.factorId, code: code(user.totp.secret) });
    await auth.mfa.enroll({ factorType: 'totp', friendlyName: 'second' });
    const { data, error } = await auth.mfa.listFactors();
    expect(error).toBeNull();
    expect(data!.all).toHaveLength(2);
    expect(data!.totp).toHaveLength(1);
    expect(data!.phone).toHaveLength(0);
  });

  it('should handle MFA enroll without session', async () => {
    const auth = authClient();
    await auth.signOut();
    const { data, error } = await auth.mfa.enroll({ factorType: 'totp' });
    expect(error).toBeDefined();
    expect(data?.id).toBeUndefined();
  });

  it('should handle MFA challenge without session', async () => {
    const { data, error } = await authClient().mfa.challenge({ factorId: 'test-factor-id' });
    expect(error).toBeDefined();
    expect(data?.id).toBeUndefined();
  });

  it('should handle MFA verify without session', async () => {
    const { data, error } = await authClient().mfa.verify({
      factorId: 'test-factor-id',
      challengeId: 'f7850041-ba10-4eb3-851c-8ceb7ff8463d',
      code: '123456',
    });
    expect(error).toBeDefined();
    expect(data?.access_token).toBeUndefined();
  });

  it('should handle MFA unenroll without session', async () => {
    const { data, error } = await authClient().mfa.unenroll({ factorId: 'test-factor-id' });
    expect(error).toBeDefined();
    expect(data?.id).toBeUndefined();
  });
});

describe('REQ-MFA-3 auth-js GoTrueApi "MFA Admin" tests against the stand-in', () => {
  it('mfa factor management: add, list and delete', async () => {
    const auth = authClient();
    const user = await setupUserWithMFA(auth);
    const { error: enrollError } = await auth.mfa.enroll({ factorType: 'totp' });
    expect(enrollError).toBeNull();
    const { data, error } = await serviceRoleApiClient.mfa.listFactors({ userId: user.id });
    expect(error).toBeNull();
    expect(Array.isArray(data?.factors)).toBe(true);
    expect(data!.factors.length).toBeGreaterThan(0);
    const factorId = data!.factors[0]!.id;
    const deleted = await serviceRoleApiClient.mfa.deleteFactor({ userId: user.id, id: factorId });
    expect(deleted.error).toBeNull();
    expect(deleted.data).not.toBeNull();
    expect((deleted.data as unknown as { data?: { id?: string } }).data?.id).toEqual(factorId);
    const latest = await serviceRoleApiClient.mfa.listFactors({ userId: user.id });
    expect(latest.error).toBeNull();
    expect(Array.isArray(latest.data?.factors)).toBe(true);
    expect(latest.data!.factors).toHaveLength(0);
  });

  it('mfa.listFactors returns AuthError for invalid user', async () => {
    const { data, error } = await serviceRoleApiClient.mfa.listFactors({
      userId: NON_EXISTANT_USER_ID,
    });
    expect(data).toBeNull();
    expect(error).not.toBeNull();
  });

  it('mfa.deleteFactors returns AuthError for invalid user', async () => {
    const { data, error } = await serviceRoleApiClient.mfa.deleteFactor({
      userId: NON_EXISTANT_USER_ID,
      id: NON_EXISTANT_USER_ID,
    });
    expect(data).toBeNull();
    expect(error).not.toBeNull();
  });
});

/** The authenticator app's current code. */
function code(secret: string): string {
  return OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
}
