// The auth service's sign-up endpoint (POST /signup) end to end: the whole e-mail confirmation
// flow a shopper goes through, sign-up errors as supabase-js sees them, the per-IP limit, and
// sign-up under other configurations (a second auth service on the stack database).
import {
  isAuthApiError,
  isAuthWeakPasswordError,
  type Session,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { createHmac } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServerOptions } from '../../../stack/auth/server.ts';
import { TEST_PASSWORD_HASH_COST } from '../../../stack/stack.ts';
import { authAdminUrl, ownServerOptions } from './auth-own-server.ts';
import { nodeClient } from '../../../stack/client.ts';
import { authMailSubject, extractLinks, listMail, waitForMail } from '../../support/mail.ts';
import { serviceClient, sql, stackEnv } from '../../support/stack.ts';
import {
  PASSWORD,
  SITE_URL,
  decodeJwt,
  authFetch,
  openLink,
  fragmentParams,
  confirmationLink,
  signUpAndConfirm,
  randomIp,
  anonClientFromOwnIp,
} from '../auth-support.ts';
import { uniqueEmail } from '../../support/names.ts';

const env = stackEnv();

describe('sign-up with e-mail confirmation', () => {
  const email = uniqueEmail('SignUp');
  const redirectTo = `${SITE_URL}/welcome`;
  let client: SupabaseClient;
  let userId: string;
  let session: Session;

  it('creates an unconfirmed user, returns no session and sends the confirmation mail', async () => {
    client = anonClientFromOwnIp();
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
    expect(mail.subject).toBe(authMailSubject('signup'));
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
    // bcrypt, at the cost the test stack is told to use (the default is tested below).
    expect(row!.encrypted_password).toMatch(
      new RegExp(`^\\$2[aby]\\$${String(TEST_PASSWORD_HASH_COST).padStart(2, '0')}\\$`),
    );
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
    const refresh = await anonClientFromOwnIp().auth.refreshSession({
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

describe("Supabase's errors", () => {
  it('weak password: AuthWeakPasswordError with reasons, 422', async () => {
    const { error } = await anonClientFromOwnIp().auth.signUp({
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
    const { data, error } = await anonClientFromOwnIp().auth.signUp({
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
      // Dropped as the table owner (postgres may too, through hosted's drop_trigger_grants).
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
    const { error } = await anonClientFromOwnIp().auth.signUp({
      email: 'not-an-email',
      password: PASSWORD,
    });
    expect(error).toMatchObject({
      code: 'validation_failed',
      status: 400,
      message: 'Unable to validate email address: invalid format',
    });
  });

  it('per-IP request limit: 429 over_request_rate_limit after sign_in_sign_ups requests', async () => {
    // A client address of its own, so other tests keep their budget.
    const ip = randomIp();
    const limited = (i: number) =>
      authFetch('/signup', {
        method: 'POST',
        body: { email: `not-an-email-${i}`, password: PASSWORD },
        from: ip,
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
      from: randomIp(),
    });
    expect(other.status).toBe(400);
  });
});

/** A second auth service on the stack's database, with the stack's limits and test settings. */
function secondServiceOptions(overrides: Partial<AuthServerOptions>): AuthServerOptions {
  return ownServerOptions({
    rateLimits: { signInSignUps: 30, tokenRefresh: 150, tokenVerifications: 30, emailSent: 100 },
    ...overrides,
  });
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

  it('without a cost of its own, a password is hashed with bcrypt at GoTrue’s cost 10', async () => {
    const server = await startAuthServer(secondServiceOptions({ enableConfirmations: false }));
    try {
      const email = uniqueEmail('cost');
      const { error } = await nodeClient(server.url, env.ANON_KEY).auth.signUp({
        email,
        password: PASSWORD,
      });
      expect(error).toBeNull();
      const [row] = await sql<{ encrypted_password: string }>(
        'select encrypted_password from auth.users where email = $1',
        [email],
      );
      expect(row!.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
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
      const client = nodeClient(server.url, env.ANON_KEY);
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
