// The auth service's token endpoint (POST /token): password grants and their errors, refresh
// token rotation with its reuse interval, and the PKCE code exchange.
import { describe, expect, it } from 'vitest';
import { nodeClient } from '../../../stack/client.ts';
import { fetchFrom } from '../../support/loopback.ts';
import { sql, stackEnv } from '../../support/stack.ts';
import {
  PASSWORD,
  SITE_URL,
  randomIp,
  authFetch,
  openLink,
  confirmationLink,
  signUpAndConfirm,
  anonClientFromOwnIp,
} from '../auth-support.ts';
import { uniqueEmail } from '../../support/names.ts';

const env = stackEnv();

describe('refresh token rotation', () => {
  it('hands back the active token to a retried parent and refuses reuse outside the interval', async () => {
    const email = uniqueEmail('rotate');
    await signUpAndConfirm(email);
    const client = anonClientFromOwnIp();
    const signIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
    const rt0 = signIn.data.session!.refresh_token;
    const rt1 = (await client.auth.refreshSession()).data.session!.refresh_token;
    const rt2 = (await client.auth.refreshSession()).data.session!.refresh_token;
    expect(new Set([rt0, rt1, rt2]).size).toBe(3);

    // rt1 is the parent of the active token: a client that lost the last response gets rt2 again.
    const retry = await anonClientFromOwnIp().auth.refreshSession({ refresh_token: rt1 });
    expect(retry.error).toBeNull();
    expect(retry.data.session!.refresh_token).toBe(rt2);

    // Outside the configured reuse interval (config.toml: 10 s) a rotated token is refused and
    // the whole session family is revoked.
    const [{ revoked_at }] = (await sql<{ revoked_at: Date }>(
      'select updated_at as revoked_at from auth.refresh_tokens where token = $1',
      [rt0],
    )) as [{ revoked_at: Date }];
    const wait = revoked_at.getTime() + 10_500 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const reuse = await anonClientFromOwnIp().auth.refreshSession({ refresh_token: rt0 });
    expect(reuse.error).toMatchObject({
      code: 'refresh_token_already_used',
      status: 400,
      message: 'Invalid Refresh Token: Already Used',
    });
    const afterTheft = await anonClientFromOwnIp().auth.refreshSession({ refresh_token: rt2 });
    expect(afterTheft.error).toMatchObject({ code: 'refresh_token_already_used' });
  }, 40_000);

  it('refuses unknown and malformed refresh tokens', async () => {
    const unknown = await anonClientFromOwnIp().auth.refreshSession({
      refresh_token: 'abcdefghijkl',
    });
    expect(unknown.error).toMatchObject({
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
    const short = await anonClientFromOwnIp().auth.refreshSession({ refresh_token: 'short' });
    expect(short.error).toMatchObject({
      code: 'validation_failed',
      message: 'Refresh token is not valid',
    });
  });
});

describe("Supabase's errors", () => {
  it('wrong password and unknown e-mail: invalid_credentials, 400', async () => {
    const email = uniqueEmail('wrongpw');
    await signUpAndConfirm(email);
    for (const attempt of [
      { email, password: 'not-the-password' },
      { email: uniqueEmail('nobody'), password: PASSWORD },
    ]) {
      const { error } = await anonClientFromOwnIp().auth.signInWithPassword(attempt);
      expect(error).toMatchObject({
        code: 'invalid_credentials',
        status: 400,
        message: 'Invalid login credentials',
      });
    }
  });

  it('uses the legacy body shape when the client sends no API version', async () => {
    const res = await fetch(`${env.API_URL}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: env.ANON_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('legacy'), password: PASSWORD }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-supabase-api-version')).toBeNull();
    expect(await res.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });
});

describe('PKCE flow', () => {
  it('the confirmation link redirects with ?code= that exchangeCodeForSession trades for a session', async () => {
    const client = nodeClient(env.API_URL, env.ANON_KEY, {
      flowType: 'pkce',
      fetch: fetchFrom(randomIp()),
    });
    const email = uniqueEmail('pkce');
    const signUp = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: `${SITE_URL}/auth/callback` },
    });
    expect(signUp.error).toBeNull();
    const link = await confirmationLink(email);
    expect(link).toMatch(/token=pkce_[0-9a-f]{56}&type=signup&/);
    const res = await openLink(link);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${SITE_URL}/auth/callback`);
    const code = location.searchParams.get('code')!;
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session!.user.email).toBe(email);
    expect(data.session!.user.email_confirmed_at).toBeTruthy();

    // The code is single-use.
    const again = await authFetch('/token?grant_type=pkce', {
      method: 'POST',
      body: { auth_code: code, code_verifier: 'x'.repeat(43) },
    });
    expect([again.status, again.body.code]).toEqual([404, 'flow_state_not_found']);
  });
});
