// The local auth service end to end: supabase-js (and raw HTTP where the wire format itself is
// the point) through the gateway of the throwaway stack from global-setup.ts, the mail catcher
// for confirmation/recovery mail, and the database as the independent observer.
import {
  createClient,
  isAuthApiError,
  isAuthWeakPasswordError,
  type Session,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { createHmac, randomBytes } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServerOptions } from '../../stack/auth/server.ts';
import { fetchFrom, randomLoopbackIp } from '../support/loopback.ts';
import { extractLinks, listMail, waitForMail } from '../support/mail.ts';
import { serviceClient, sql, stackEnv, type StackEnv } from '../support/stack.ts';

const PASSWORD = 'Sup3r-secret-pw';
const SITE_URL = 'http://127.0.0.1:3000';

// Each client here connects from a loopback address of its own (the gateway takes the client IP
// from the socket), so this file neither uses up the per-IP auth limits of other test files nor
// runs into them itself.
const randomIp = randomLoopbackIp;

let env: StackEnv;

beforeAll(() => {
  env = stackEnv();
});

/** Node 20 has no WebSocket; no test here opens a realtime channel. */
class NoRealtime {
  constructor() {
    throw new Error('Realtime is not available in the integration tests');
  }
}

function anonClient(): SupabaseClient {
  return createClient(env.API_URL, env.ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
    global: { fetch: fetchFrom(randomIp()) },
  });
}

function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.test`;
}

function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** HS256 token signed with the stack's secret, independent of the service's own JWT code. */
function signToken(claims: Record<string, unknown>, secret = env.JWT_SECRET): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const head = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Raw auth request through the gateway, as supabase-js sends it (2024-01-01 errors). */
async function authFetch(
  path: string,
  init: {
    method?: string;
    body?: unknown;
    token?: string;
    headers?: Record<string, string>;
    /** Loopback address to connect from (default: a fresh one). */
    ip?: string;
  } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const res = await fetchFrom(init.ip ?? randomIp())(`${env.API_URL}/auth/v1${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: env.ANON_KEY,
      Authorization: `Bearer ${init.token ?? env.ANON_KEY}`,
      'Content-Type': 'application/json',
      'X-Supabase-Api-Version': '2024-01-01',
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** Opens an e-mail link like a browser would, without following the redirect. */
function openLink(link: string): Promise<Response> {
  return fetchFrom(randomIp())(link, { redirect: 'manual' });
}

function fragmentParams(location: string): URLSearchParams {
  return new URLSearchParams(location.slice(location.indexOf('#') + 1));
}

async function confirmationLink(email: string): Promise<string> {
  const mail = await waitForMail(env.MAILPIT_URL, { to: email, subject: 'Confirm Your Signup' });
  const link = extractLinks(mail).find((l) => l.includes('/auth/v1/verify?'));
  if (!link) throw new Error(`no verify link in the mail to ${email}`);
  return link;
}

/** All mail to `email`, polling until at least `count` arrived (or 10 s passed). */
async function mailsTo(
  email: string,
  count: number,
): Promise<Awaited<ReturnType<typeof listMail>>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = (await listMail(env.MAILPIT_URL)).filter((m) =>
      m.to.some((t) => t.address === email),
    );
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Signs up through supabase-js and follows the confirmation link. */
async function signUpAndConfirm(email: string): Promise<void> {
  const { error } = await anonClient().auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  const res = await openLink(await confirmationLink(email));
  expect(res.status).toBe(303);
}

describe('sign-up with e-mail confirmation', () => {
  const email = uniqueEmail('SignUp');
  const redirectTo = `${SITE_URL}/welcome`;
  let client: SupabaseClient;
  let userId: string;
  let session: Session;

  it('creates an unconfirmed user, returns no session and sends the confirmation mail', async () => {
    client = anonClient();
    const { data, error } = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { display_name: 'Jo Bloggs' }, emailRedirectTo: redirectTo },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    const user = data.user!;
    userId = user.id;
    expect(user.email).toBe(email.toLowerCase());
    expect(user.email_confirmed_at).toBeUndefined();
    expect(user.confirmation_sent_at).toBeTruthy();
    expect(user.identities).toHaveLength(1);
    expect(user.identities![0]).toMatchObject({ provider: 'email', id: user.id, user_id: user.id });
    expect(user.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    expect(user.user_metadata).toEqual({
      display_name: 'Jo Bloggs',
      sub: user.id,
      email: email.toLowerCase(),
      email_verified: false,
      phone_verified: false,
    });

    const mail = await waitForMail(env.MAILPIT_URL, { to: email.toLowerCase() });
    expect(mail.subject).toBe('Confirm Your Signup');
    expect(mail.from).toEqual([
      { name: 'MAR Online Store', address: 'no-reply@mar-online-store.test' },
    ]);
    const link = extractLinks(mail)[0]!;
    expect(link).toMatch(
      new RegExp(
        `^${env.API_URL}/auth/v1/verify\\?token=[0-9a-f]{56}&type=signup&redirect_to=${redirectTo}$`,
      ),
    );

    const [row] = await sql<{ email_confirmed_at: Date | null; encrypted_password: string }>(
      'select email_confirmed_at, encrypted_password from auth.users where id = $1',
      [userId],
    );
    expect(row!.email_confirmed_at).toBeNull();
    expect(row!.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
  });

  it('refuses the password sign-in until the e-mail is confirmed', async () => {
    const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(data.session).toBeNull();
    expect(isAuthApiError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'email_not_confirmed',
      status: 400,
      message: 'Email not confirmed',
    });
  });

  it('confirms through the mailed link and redirects with a session in the fragment', async () => {
    const link = await confirmationLink(email.toLowerCase());
    const res = await openLink(link);
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${redirectTo}#`)).toBe(true);
    const params = fragmentParams(location);
    expect(params.get('token_type')).toBe('bearer');
    expect(params.get('type')).toBe('signup');
    expect(params.get('refresh_token')).toMatch(/^[a-z2-7]{12}$/);
    expect(Number(params.get('expires_in'))).toBeGreaterThan(3500);
    const claims = decodeJwt(params.get('access_token')!);
    expect(claims).toMatchObject({
      iss: `${env.API_URL}/auth/v1`,
      sub: userId,
      aud: 'authenticated',
      role: 'authenticated',
      email: email.toLowerCase(),
      aal: 'aal1',
      is_anonymous: false,
    });
    expect(claims.exp).toBe(Number(params.get('expires_at')));
    expect((claims.amr as Array<{ method: string }>)[0]!.method).toBe('otp');

    // A link works once.
    const again = await openLink(link);
    expect(again.status).toBe(303);
    const failure = fragmentParams(again.headers.get('location')!);
    expect(failure.get('error')).toBe('access_denied');
    expect(failure.get('error_code')).toBe('otp_expired');
    expect(failure.get('error_description')).toBe('Email link is invalid or has expired');
  });

  it('signs in with the password once confirmed and issues Supabase-shaped access tokens', async () => {
    const { data, error } = await client.auth.signInWithPassword({
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(error).toBeNull();
    session = data.session!;
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBeGreaterThanOrEqual(3599);
    expect(data.user!.email_confirmed_at).toBeTruthy();
    const [head, body, sig] = session.access_token.split('.');
    expect(createHmac('sha256', env.JWT_SECRET).update(`${head}.${body}`).digest('base64url')).toBe(
      sig,
    );
    const claims = decodeJwt(session.access_token);
    expect(Object.keys(claims)).toEqual([
      'iss',
      'sub',
      'aud',
      'exp',
      'iat',
      'email',
      'phone',
      'app_metadata',
      'user_metadata',
      'role',
      'aal',
      'amr',
      'session_id',
      'is_anonymous',
    ]);
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect((claims.amr as Array<{ method: string }>)[0]!.method).toBe('password');
    expect(claims.user_metadata).toMatchObject({ display_name: 'Jo Bloggs', email_verified: true });
    const sessions = await sql('select 1 from auth.sessions where id = $1 and user_id = $2', [
      claims.session_id,
      userId,
    ]);
    expect(sessions).toHaveLength(1);
    const audit = await sql<{ action: string }>(
      `select payload ->> 'action' as action from auth.audit_log_entries
       where payload ->> 'actor_id' = $1 order by created_at`,
      [userId],
    );
    expect(audit.map((r) => r.action)).toEqual(['user_confirmation_requested', 'login', 'login']);
  });

  it('returns the user from getUser', async () => {
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      id: userId,
      email: email.toLowerCase(),
      role: 'authenticated',
      user_metadata: { display_name: 'Jo Bloggs', email_verified: true },
    });
    expect(data.user!.identities![0]!.identity_data).toMatchObject({ email_verified: true });
  });

  it('merges metadata updates (null deletes a key) and shows them in the refreshed token', async () => {
    const { data, error } = await client.auth.updateUser({
      data: { display_name: 'Jo B', newsletter: true },
    });
    expect(error).toBeNull();
    expect(data.user!.user_metadata).toMatchObject({
      display_name: 'Jo B',
      newsletter: true,
      sub: userId,
    });
    const removed = await client.auth.updateUser({ data: { newsletter: null } });
    expect(removed.data.user!.user_metadata).not.toHaveProperty('newsletter');

    const before = (await client.auth.getSession()).data.session!;
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const next = refreshed.data.session!;
    expect(next.refresh_token).not.toBe(before.refresh_token);
    expect(decodeJwt(next.access_token).user_metadata).toMatchObject({ display_name: 'Jo B' });
    expect(decodeJwt(next.access_token).session_id).toBe(decodeJwt(before.access_token).session_id);
    const [raw] = await sql<{ raw_user_meta_data: Record<string, unknown> }>(
      'select raw_user_meta_data from auth.users where id = $1',
      [userId],
    );
    expect(raw!.raw_user_meta_data.display_name).toBe('Jo B');
    session = next;
  });

  it('signOut ends the session: its refresh token and access token stop working', async () => {
    const { error } = await client.auth.signOut();
    expect(error).toBeNull();
    const refresh = await anonClient().auth.refreshSession({
      refresh_token: session.refresh_token,
    });
    expect(refresh.error).toMatchObject({ code: 'refresh_token_not_found', status: 400 });
    const user = await authFetch('/user', { token: session.access_token });
    expect(user.status).toBe(403);
    expect(user.body).toEqual({
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
    });
    expect(await sql('select 1 from auth.sessions where user_id = $1', [userId])).toHaveLength(0);
  });
});

describe('refresh token rotation', () => {
  it('hands back the active token to a retried parent and refuses reuse outside the interval', async () => {
    const email = uniqueEmail('rotate');
    await signUpAndConfirm(email);
    const client = anonClient();
    const signIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
    const rt0 = signIn.data.session!.refresh_token;
    const rt1 = (await client.auth.refreshSession()).data.session!.refresh_token;
    const rt2 = (await client.auth.refreshSession()).data.session!.refresh_token;
    expect(new Set([rt0, rt1, rt2]).size).toBe(3);

    // rt1 is the parent of the active token: a client that lost the last response gets rt2 again.
    const retry = await anonClient().auth.refreshSession({ refresh_token: rt1 });
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
    const reuse = await anonClient().auth.refreshSession({ refresh_token: rt0 });
    expect(reuse.error).toMatchObject({
      code: 'refresh_token_already_used',
      status: 400,
      message: 'Invalid Refresh Token: Already Used',
    });
    const afterTheft = await anonClient().auth.refreshSession({ refresh_token: rt2 });
    expect(afterTheft.error).toMatchObject({ code: 'refresh_token_already_used' });
  }, 40_000);

  it('refuses unknown and malformed refresh tokens', async () => {
    const unknown = await anonClient().auth.refreshSession({ refresh_token: 'abcdefghijkl' });
    expect(unknown.error).toMatchObject({
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
    const short = await anonClient().auth.refreshSession({ refresh_token: 'short' });
    expect(short.error).toMatchObject({
      code: 'validation_failed',
      message: 'Refresh token is not valid',
    });
  });
});

describe("Supabase's errors", () => {
  it('weak password: AuthWeakPasswordError with reasons, 422', async () => {
    const { error } = await anonClient().auth.signUp({
      email: uniqueEmail('weak'),
      password: '12345',
    });
    expect(isAuthWeakPasswordError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'weak_password',
      status: 422,
      message: 'Password should be at least 6 characters.',
      reasons: ['length'],
    });
  });

  it('wrong password and unknown e-mail: invalid_credentials, 400', async () => {
    const email = uniqueEmail('wrongpw');
    await signUpAndConfirm(email);
    for (const attempt of [
      { email, password: 'not-the-password' },
      { email: uniqueEmail('nobody'), password: PASSWORD },
    ]) {
      const { error } = await anonClient().auth.signInWithPassword(attempt);
      expect(error).toMatchObject({
        code: 'invalid_credentials',
        status: 400,
        message: 'Invalid login credentials',
      });
    }
  });

  it('duplicate e-mail: email_exists for admin createUser, an obfuscated user for signUp', async () => {
    const email = uniqueEmail('dupe');
    await signUpAndConfirm(email);
    const [{ id: realId }] = (await sql<{ id: string }>(
      'select id from auth.users where email = $1',
      [email],
    )) as [{ id: string }];

    const created = await serviceClient().auth.admin.createUser({ email, password: PASSWORD });
    expect(created.error).toMatchObject({
      code: 'email_exists',
      status: 422,
      message: 'A user with this email address has already been registered',
    });

    const mailsBefore = (await listMail(env.MAILPIT_URL)).filter((m) =>
      m.to.some((t) => t.address === email),
    ).length;
    const { data, error } = await anonClient().auth.signUp({
      email,
      password: 'another-password',
      options: { data: { x: 1 } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user!.identities).toEqual([]);
    expect(data.user!.id).not.toBe(realId);
    expect(data.user!.role).toBe('');
    expect(data.user!.user_metadata).toEqual({ x: 1 });
    await new Promise((r) => setTimeout(r, 300));
    const mailsAfter = (await listMail(env.MAILPIT_URL)).filter((m) =>
      m.to.some((t) => t.address === email),
    ).length;
    expect(mailsAfter).toBe(mailsBefore);
    expect(await sql('select 1 from auth.users where email = $1', [email])).toHaveLength(1);
  });

  it('a failing trigger on auth.users: 500 "Database error saving new user", nothing saved', async () => {
    // Triggers from user migrations run inside the sign-up transaction (as on Supabase).
    await sql(`
      create function public.auth_test_reject() returns trigger language plpgsql as $$
      begin
        if new.email like 'trigger-reject-%' then raise exception 'rejected by test trigger'; end if;
        return new;
      end $$;
      create trigger auth_test_reject before insert on auth.users
        for each row execute function public.auth_test_reject();`);
    try {
      const email = uniqueEmail('trigger-reject');
      const res = await authFetch('/signup', {
        method: 'POST',
        body: { email, password: PASSWORD },
      });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        code: 'unexpected_failure',
        message: 'Database error saving new user',
      });
      expect(await sql('select 1 from auth.users where email = $1', [email])).toHaveLength(0);
      expect(
        await listMail(env.MAILPIT_URL).then((m) =>
          m.some((x) => x.to.some((t) => t.address === email)),
        ),
      ).toBe(false);
    } finally {
      // Dropping a trigger needs the table owner (supabase_auth_admin), as on Supabase.
      const owner = new pg.Client({ connectionString: authAdminUrl() });
      await owner.connect();
      try {
        await owner.query('drop trigger if exists auth_test_reject on auth.users');
      } finally {
        await owner.end();
      }
      await sql('drop function public.auth_test_reject()');
    }
  });

  it('malformed e-mail: validation_failed, 400', async () => {
    const { error } = await anonClient().auth.signUp({ email: 'not-an-email', password: PASSWORD });
    expect(error).toMatchObject({
      code: 'validation_failed',
      status: 400,
      message: 'Unable to validate email address: invalid format',
    });
  });

  it('tampered, foreign-signed and expired JWTs: 403 bad_jwt', async () => {
    const email = uniqueEmail('jwt');
    await signUpAndConfirm(email);
    const { data } = await anonClient().auth.signInWithPassword({ email, password: PASSWORD });
    const token = data.session!.access_token;
    const [head, , sig] = token.split('.');
    const claims = decodeJwt(token);
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url')}.${sig}`;

    const viaClient = await anonClient().auth.getUser(tampered);
    expect(viaClient.error).toMatchObject({ code: 'bad_jwt', status: 403 });

    const raw = await authFetch('/user', { token: tampered });
    expect(raw.status).toBe(403);
    expect(raw.headers.get('x-sb-error-code')).toBe('bad_jwt');
    expect(raw.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(raw.body.message).toBe(
      'invalid JWT: unable to parse or verify signature, token signature is invalid: signature is invalid',
    );

    const foreign = signToken({ ...claims }, 'a-completely-different-secret-of-32-chars');
    expect((await authFetch('/user', { token: foreign })).status).toBe(403);

    const now = Math.floor(Date.now() / 1000);
    const expired = signToken({ ...claims, iat: now - 7200, exp: now - 3600 });
    const old = await authFetch('/user', { token: expired });
    expect(old.status).toBe(403);
    expect(old.body).toEqual({
      code: 'bad_jwt',
      message:
        'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired',
    });

    // The anon key verifies but has no subject.
    const anon = await authFetch('/user');
    expect([anon.status, anon.body.code, anon.body.message]).toEqual([
      403,
      'bad_jwt',
      'invalid claim: missing sub claim',
    ]);
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

  it('non-admin tokens on the admin API: 403 not_admin; no token: 401 no_authorization', async () => {
    const res = await authFetch('/admin/users');
    expect([res.status, res.body.code, res.body.message]).toEqual([
      403,
      'not_admin',
      'User not allowed',
    ]);
    // The gateway fills Authorization from apikey, so ask the auth service on its internal
    // port (API port + 11, stack-interface.md) for a request that carries no bearer at all.
    const authPort = Number(new URL(env.API_URL).port) + 11;
    const none = await fetch(`http://127.0.0.1:${authPort}/user`, {
      headers: { 'X-Supabase-Api-Version': '2024-01-01' },
    });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      code: 'no_authorization',
      message: 'This endpoint requires a valid Bearer token',
    });
  });

  it('per-IP request limit: 429 over_request_rate_limit after sign_in_sign_ups requests', async () => {
    // A client IP of its own (a loopback address), so other tests keep their budget.
    const ip = randomIp();
    const limited = (i: number) =>
      authFetch('/signup', {
        method: 'POST',
        body: { email: `not-an-email-${i}`, password: PASSWORD },
        ip,
      });
    // config.toml [auth.rate_limit] sign_in_sign_ups = 30 per 5 minutes.
    for (let i = 0; i < 30; i++) expect((await limited(i)).status).toBe(400);
    const over = await limited(30);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
    // Other clients are unaffected.
    const other = await authFetch('/signup', {
      method: 'POST',
      body: { email: 'still-not-an-email', password: PASSWORD },
      ip: randomIp(),
    });
    expect(other.status).toBe(400);
  });
});

describe('resend, OTP codes and mail frequency', () => {
  it('limits resends by max_frequency, invalidates the old link and verifies the mailed code', async () => {
    const email = uniqueEmail('resend');
    const client = anonClient();
    expect((await client.auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    // config.toml [auth.email] max_frequency = "1s"
    const tooSoon = await client.auth.resend({ type: 'signup', email });
    expect(tooSoon.error).toMatchObject({ code: 'over_email_send_rate_limit', status: 429 });
    expect(tooSoon.error!.message).toMatch(
      /^For security purposes, you can only request this after \d+ seconds\.$/,
    );

    const firstLink = await confirmationLink(email);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await client.auth.resend({ type: 'signup', email })).error).toBeNull();
    const mails = await mailsTo(email, 2);
    expect(mails).toHaveLength(2);
    const latest = mails.sort((a, b) => Date.parse(b.date) - Date.parse(a.date))[0]!;
    const code = /enter the code: (\d{6})/.exec(latest.text ?? '')![1]!;

    const stale = await openLink(firstLink);
    expect(fragmentParams(stale.headers.get('location')!).get('error_code')).toBe('otp_expired');

    const wrong = await client.auth.verifyOtp({
      email,
      token: code === '000000' ? '111111' : '000000',
      type: 'signup',
    });
    expect(wrong.error).toMatchObject({
      code: 'otp_expired',
      status: 403,
      message: 'Token has expired or is invalid',
    });
    const ok = await client.auth.verifyOtp({ email, token: code, type: 'signup' });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.user.email_confirmed_at).toBeTruthy();

    // Confirmed addresses get 200 and no further mail.
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await client.auth.resend({ type: 'signup', email })).error).toBeNull();
    const after = (await listMail(env.MAILPIT_URL)).filter((m) =>
      m.to.some((t) => t.address === email),
    );
    expect(after).toHaveLength(2);
  });
});

describe('PKCE flow', () => {
  it('the confirmation link redirects with ?code= that exchangeCodeForSession trades for a session', async () => {
    const client = createClient(env.API_URL, env.ANON_KEY, {
      auth: {
        flowType: 'pkce',
        persistSession: false,
        autoRefreshToken: false,
        detectSessionInUrl: false,
      },
      realtime: { transport: NoRealtime as never },
      global: { fetch: fetchFrom(randomIp()) },
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

describe('e-mail change', () => {
  it('sends a link to the new address and switches the e-mail once it is followed', async () => {
    const email = uniqueEmail('change-old');
    const newEmail = uniqueEmail('change-new');
    await signUpAndConfirm(email);
    const taken = uniqueEmail('change-taken');
    await signUpAndConfirm(taken);
    const client = anonClient();
    await client.auth.signInWithPassword({ email, password: PASSWORD });

    const clash = await client.auth.updateUser({ email: taken });
    expect(clash.error).toMatchObject({ code: 'email_exists', status: 422 });

    const { data, error } = await client.auth.updateUser({ email: newEmail.toUpperCase() });
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.new_email).toBe(newEmail);
    const mail = await waitForMail(env.MAILPIT_URL, {
      to: newEmail,
      subject: 'Confirm Email Change',
    });
    const res = await openLink(extractLinks(mail).find((l) => l.includes('type=email_change'))!);
    expect(res.status).toBe(303);
    const params = fragmentParams(res.headers.get('location')!);
    expect(params.get('type')).toBe('email_change');
    const user = await anonClient().auth.getUser(params.get('access_token')!);
    expect(user.data.user?.email).toBe(newEmail);
    expect(user.data.user?.new_email).toBeUndefined();
    expect(
      (await anonClient().auth.signInWithPassword({ email: newEmail, password: PASSWORD })).error,
    ).toBeNull();
  });
});

describe('password recovery', () => {
  it('mails a recovery link that signs the user in, then updateUser sets a new password', async () => {
    const email = uniqueEmail('recover');
    await signUpAndConfirm(email);
    const { error } = await anonClient().auth.resetPasswordForEmail(email, {
      redirectTo: `${SITE_URL}/reset`,
    });
    expect(error).toBeNull();
    const mail = await waitForMail(env.MAILPIT_URL, { to: email, subject: 'Reset Your Password' });
    const link = extractLinks(mail).find((l) => l.includes('type=recovery'))!;
    const res = await openLink(link);
    expect(res.status).toBe(303);
    const params = fragmentParams(res.headers.get('location')!);
    expect(params.get('type')).toBe('recovery');

    const client = anonClient();
    const set = await client.auth.setSession({
      access_token: params.get('access_token')!,
      refresh_token: params.get('refresh_token')!,
    });
    expect(set.error).toBeNull();
    const same = await client.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({ code: 'same_password', status: 422 });
    expect((await client.auth.updateUser({ password: 'Brand-new-pw-1' })).error).toBeNull();
    expect(
      (await anonClient().auth.signInWithPassword({ email, password: 'Brand-new-pw-1' })).error,
    ).toBeNull();
    expect(
      (await anonClient().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toMatchObject({ code: 'invalid_credentials' });
  });

  it('answers 200 for unknown addresses without sending mail', async () => {
    const email = uniqueEmail('ghost');
    expect((await anonClient().auth.resetPasswordForEmail(email)).error).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(
      (await listMail(env.MAILPIT_URL)).some((m) => m.to.some((t) => t.address === email)),
    ).toBe(false);
  });
});

describe('magic links and invites', () => {
  it('signInWithOtp mails a magic link to a confirmed user that signs them in', async () => {
    const email = uniqueEmail('magic');
    await signUpAndConfirm(email);
    const { error } = await anonClient().auth.signInWithOtp({
      email,
      options: { emailRedirectTo: `${SITE_URL}/magic` },
    });
    expect(error).toBeNull();
    const mail = await waitForMail(env.MAILPIT_URL, { to: email, subject: 'Your Magic Link' });
    const res = await openLink(extractLinks(mail).find((l) => l.includes('type=magiclink'))!);
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${SITE_URL}/magic#`)).toBe(true);
    const claims = decodeJwt(fragmentParams(location).get('access_token')!);
    expect(claims.email).toBe(email);

    const noSignup = await anonClient().auth.signInWithOtp({
      email: uniqueEmail('nosignup'),
      options: { shouldCreateUser: false },
    });
    expect(noSignup.error).toMatchObject({ code: 'otp_disabled', status: 422 });
  });

  it('inviteUserByEmail creates an invited user whose link confirms and signs in', async () => {
    const email = uniqueEmail('invitee');
    const { data, error } = await serviceClient().auth.admin.inviteUserByEmail(email, {
      data: { display_name: 'New Admin' },
    });
    expect(error).toBeNull();
    expect(data.user!.invited_at).toBeTruthy();
    expect(data.user!.email_confirmed_at).toBeUndefined();
    const mail = await waitForMail(env.MAILPIT_URL, {
      to: email,
      subject: 'You have been invited',
    });
    const res = await openLink(extractLinks(mail).find((l) => l.includes('type=invite'))!);
    const params = fragmentParams(res.headers.get('location')!);
    expect(params.get('type')).toBe('invite');
    const user = await anonClient().auth.getUser(params.get('access_token')!);
    expect(user.data.user?.email_confirmed_at).toBeTruthy();
    expect(user.data.user?.user_metadata).toMatchObject({ display_name: 'New Admin' });
  });
});

describe('new-style API keys', () => {
  it('works with the publishable key for users and the secret key for the admin API', async () => {
    const options = {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: NoRealtime as never },
      global: { fetch: fetchFrom(randomIp()) },
    };
    const email = uniqueEmail('newkeys');
    const secret = createClient(env.API_URL, env.SECRET_KEY, options);
    const created = await secret.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const publishable = createClient(env.API_URL, env.PUBLISHABLE_KEY, options);
    expect(
      (await publishable.auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull();
    expect((await publishable.auth.getUser()).data.user?.id).toBe(created.data.user!.id);
    // The publishable key stands for anon: no admin rights.
    const denied = await publishable.auth.admin.listUsers();
    expect(denied.error).toMatchObject({ code: 'not_admin', status: 403 });
  });
});

describe('admin API', () => {
  it('creates, reads, lists, updates and deletes users; generate_link verifies via POST /verify', async () => {
    const admin = serviceClient();
    const email = uniqueEmail('admin');
    const created = await admin.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { display_name: 'Ad Min' },
      app_metadata: { roles: ['staff'] },
    });
    expect(created.error).toBeNull();
    const user = created.data.user!;
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.app_metadata).toEqual({
      provider: 'email',
      providers: ['email'],
      roles: ['staff'],
    });
    expect(user.user_metadata).toEqual({ display_name: 'Ad Min', email_verified: true });

    expect((await admin.auth.admin.getUserById(user.id)).data.user?.email).toBe(email);
    const list = await admin.auth.admin.listUsers({ page: 1, perPage: 1 });
    expect(list.error).toBeNull();
    expect(list.data.users).toHaveLength(1);
    expect((list.data as unknown as { total: number }).total).toBeGreaterThan(1);

    const updated = await admin.auth.admin.updateUserById(user.id, {
      user_metadata: { display_name: null, tier: 'gold' },
      ban_duration: '1h',
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user!.user_metadata).toEqual({ email_verified: true, tier: 'gold' });
    expect(updated.data.user!.banned_until).toBeTruthy();
    const banned = await anonClient().auth.signInWithPassword({ email, password: PASSWORD });
    expect(banned.error).toMatchObject({ code: 'user_banned' });
    await admin.auth.admin.updateUserById(user.id, { ban_duration: 'none' });

    const link = await admin.auth.admin.generateLink({ type: 'magiclink', email });
    expect(link.error).toBeNull();
    expect(link.data.properties!.verification_type).toBe('magiclink');
    const verified = await anonClient().auth.verifyOtp({
      token_hash: link.data.properties!.hashed_token,
      type: 'magiclink',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.id).toBe(user.id);

    expect((await admin.auth.admin.deleteUser(user.id)).error).toBeNull();
    expect(await sql('select 1 from auth.users where id = $1', [user.id])).toHaveLength(0);
    const gone = await admin.auth.admin.getUserById(user.id);
    expect(gone.error).toMatchObject({ code: 'user_not_found', status: 404 });
  });
});

describe('service endpoints', () => {
  it('serves settings, health and an empty JWKS (HS256 keys are never published)', async () => {
    const settings = await authFetch('/settings');
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: false,
      external: { email: true, phone: false, anonymous_users: false },
    });
    const health = await authFetch('/health');
    expect(health.body).toMatchObject({ name: 'GoTrue' });
    const jwks = await authFetch('/.well-known/jwks.json');
    expect(jwks.body).toEqual({ keys: [] });
  });

  it('answers CORS preflights and exposes the error headers to browsers', async () => {
    const authUrl = `http://127.0.0.1:${Number(new URL(env.API_URL).port) + 11}`;
    const preflight = await fetch(`${authUrl}/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers':
          'apikey, authorization, content-type, x-supabase-api-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const h of [
      'apikey',
      'authorization',
      'content-type',
      'x-supabase-api-version',
      'x-client-info',
    ]) {
      expect(allowed).toContain(h);
    }
    const failed = await fetch(`${authUrl}/token?grant_type=password`, {
      method: 'POST',
      headers: { Origin: 'http://localhost:5173', 'X-Supabase-Api-Version': '2024-01-01' },
      body: JSON.stringify({ email: uniqueEmail('cors'), password: PASSWORD }),
    });
    expect(failed.status).toBe(400);
    expect(failed.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
  });
});

/** The stack database as supabase_auth_admin (the role the auth service connects as). */
function authAdminUrl(): string {
  const dbUrl = new URL(env.DB_URL);
  dbUrl.username = 'supabase_auth_admin';
  return dbUrl.toString();
}

/** Options for a second auth service on the stack's database, with test-specific settings. */
function secondServiceOptions(overrides: Partial<AuthServerOptions>): AuthServerOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    dbUrl: authAdminUrl(),
    jwtSecret: env.JWT_SECRET,
    jwtExpiry: 3600,
    apiExternalUrl: env.API_URL,
    siteUrl: SITE_URL,
    additionalRedirectUrls: [],
    enableSignup: true,
    enableConfirmations: true,
    minimumPasswordLength: 6,
    passwordRequirements: '',
    maxFrequencySeconds: 1,
    refreshTokenRotation: true,
    refreshTokenReuseInterval: 10,
    rateLimits: { signInSignUps: 30, tokenRefresh: 150, tokenVerifications: 30, emailSent: 100 },
    otpExpiry: 3600,
    smtp: { host: '127.0.0.1', port: env.SMTP_PORT, adminEmail: 'a@b.test', senderName: 'Test' },
    log: () => undefined,
    ...overrides,
  };
}

describe('other configurations (a second auth service on the stack database)', () => {
  it('a failed confirmation mail leaves no half-created user', async () => {
    // SMTP pointed at a port nobody listens on.
    const server = await startAuthServer(
      secondServiceOptions({
        smtp: { host: '127.0.0.1', port: 9, adminEmail: 'a@b.test', senderName: 'Test' },
      }),
    );
    try {
      const email = uniqueEmail('nomail');
      const res = await fetch(`${server.url}/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        code: 'unexpected_failure',
        message: 'Error sending confirmation email',
      });
      expect(await sql('select 1 from auth.users where email = $1', [email])).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('autoconfirm (confirmations off): sign-up returns a session, a repeat gets user_already_exists', async () => {
    const server = await startAuthServer(
      secondServiceOptions({ enableConfirmations: false, passwordRequirements: 'letters_digits' }),
    );
    try {
      // supabase-js builds `<url>/auth/v1`; the service accepts that prefix too.
      const client = createClient(server.url, env.ANON_KEY, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        realtime: { transport: NoRealtime as never },
      });
      const email = uniqueEmail('autoconfirm');
      const weak = await client.auth.signUp({ email, password: 'onlyletters' });
      expect(weak.error).toMatchObject({ code: 'weak_password', reasons: ['characters'] });
      const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
      expect(error).toBeNull();
      expect(data.session?.user.email_confirmed_at).toBeTruthy();
      expect(decodeJwt(data.session!.access_token).amr).toEqual([
        { method: 'password', timestamp: expect.any(Number) as number },
      ]);
      const again = await client.auth.signUp({ email, password: PASSWORD });
      expect(again.error).toMatchObject({
        code: 'user_already_exists',
        status: 422,
        message: 'User already registered',
      });
    } finally {
      await server.close();
    }
  });
});
