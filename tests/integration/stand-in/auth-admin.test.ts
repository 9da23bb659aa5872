// The auth service's admin API (/admin/users, /invite, generate_link): who may use it, the
// new-style secret and publishable keys, and the user life cycle an admin drives.
import { describe, expect, it } from 'vitest';
import { nodeClient } from '../../../stack/client.ts';
import { fetchFrom } from '../../support/loopback.ts';
import { authMailSubject, extractLinks, waitForMail } from '../../support/mail.ts';
import { serviceClient, sql, stackEnv } from '../../support/stack.ts';
import {
  PASSWORD,
  randomIp,
  authFetch,
  openLink,
  fragmentParams,
  anonClientFromOwnIp,
} from '../auth-support.ts';
import { uniqueEmail } from '../../support/names.ts';

const env = stackEnv();

describe("Supabase's errors", () => {
  it('non-admin tokens on the admin API: 403 not_admin; no token: 401 no_authorization', async () => {
    const res = await authFetch('/admin/users');
    expect([res.status, res.body.code, res.body.message]).toEqual([
      403,
      'not_admin',
      'User not allowed',
    ]);
    // The gateway fills Authorization from apikey, so ask the auth service on its internal
    // port (API port + 11) for a request that carries no bearer at all.
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
});

describe('magic links and invites', () => {
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
      subject: authMailSubject('invite'),
    });
    const res = await openLink(extractLinks(mail).find((l) => l.includes('type=invite'))!);
    const params = fragmentParams(res.headers.get('location')!);
    expect(params.get('type')).toBe('invite');
    const user = await anonClientFromOwnIp().auth.getUser(params.get('access_token')!);
    expect(user.data.user?.email_confirmed_at).toBeTruthy();
    expect(user.data.user?.user_metadata).toMatchObject({ display_name: 'New Admin' });
  });
});

describe('new-style API keys', () => {
  it('works with the publishable key for users and the secret key for the admin API', async () => {
    const options = { fetch: fetchFrom(randomIp()) };
    const email = uniqueEmail('newkeys');
    const secret = nodeClient(env.API_URL, env.SECRET_KEY, options);
    const created = await secret.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const publishable = nodeClient(env.API_URL, env.PUBLISHABLE_KEY, options);
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
    const banned = await anonClientFromOwnIp().auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    expect(banned.error).toMatchObject({ code: 'user_banned' });
    await admin.auth.admin.updateUserById(user.id, { ban_duration: 'none' });

    const link = await admin.auth.admin.generateLink({ type: 'magiclink', email });
    expect(link.error).toBeNull();
    expect(link.data.properties!.verification_type).toBe('magiclink');
    const verified = await anonClientFromOwnIp().auth.verifyOtp({
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

// Details of GoTrue's admin API that auth-js' own suite checks (supabase/auth:
// internal/api/pagination.go, internal/api/mail.go).
describe('admin API details as GoTrue has them', () => {
  it('listUsers refuses a page or per-page that is not an unsigned integer', async () => {
    const admin = serviceClient();
    const bad = await admin.auth.admin.listUsers({ page: -1 });
    expect(bad.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax',
    });
    expect(bad.data.users).toEqual([]);
    for (const query of ['page=1.5', 'page=%2B1', 'per_page=x', 'per_page=-5']) {
      const res = await authFetch(`/admin/users?${query}`, { token: env.SERVICE_ROLE_KEY });
      expect([res.status, res.body.code], query).toEqual([400, 'validation_failed']);
    }
    const huge = await authFetch('/admin/users?page=18446744073709551616', {
      token: env.SERVICE_ROLE_KEY,
    });
    expect(huge.body.message).toMatch(/value out of range$/);
    expect((await admin.auth.admin.listUsers({ page: 1, perPage: 2 })).error).toBeNull();
  });

  it("generateLink signup stores only the caller's data as user_metadata", async () => {
    const admin = serviceClient();
    const email = uniqueEmail('genlink');
    const link = await admin.auth.admin.generateLink({
      type: 'signup',
      email,
      password: PASSWORD,
      options: { data: { display_name: 'Linked' } },
    });
    expect(link.error).toBeNull();
    expect(link.data.user!.user_metadata).toEqual({ display_name: 'Linked' });
    const bare = await admin.auth.admin.generateLink({
      type: 'signup',
      email: uniqueEmail('genlink-bare'),
      password: PASSWORD,
    });
    expect(bare.data.user!.user_metadata).toEqual({});
    // The identity keeps the claims, as GoTrue's createNewIdentity writes them.
    const [identity] = await sql<{ identity_data: Record<string, unknown> }>(
      'select identity_data from auth.identities where user_id = $1',
      [link.data.user!.id],
    );
    expect(identity!.identity_data).toMatchObject({ sub: link.data.user!.id, email });
    for (const id of [link.data.user!.id, bare.data.user!.id])
      await admin.auth.admin.deleteUser(id);
  });
});
