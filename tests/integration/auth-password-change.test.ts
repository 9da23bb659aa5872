// "My account" on the auth service, through auth-js as the SPA calls it: a password change needs
// the current password (config.toml [auth.email] require_current_password, GoTrue's
// UpdatePasswordRequireCurrentPassword) unless the session came from an e-mailed recovery link;
// a display-name change lands in user_metadata; "sign out everywhere" ends every session, so the
// database's is_admin() turns false for all of them at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMailSubject, extractLinks, waitForMail } from '../support/mail.ts';
import { fragmentParams, openLink, SITE_URL, anonClientFromOwnIp } from './auth-support.ts';
import { deleteUsers } from './db-test-helpers.ts';
import {
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';

const service = serviceClient();
const users: TestUser[] = [];

beforeAll(async () => {
  users.push(await createAdmin(), await createAdmin());
});
afterAll(() => deleteUsers(service, users));

const canSignIn = async (email: string, password: string) =>
  (await anonClientFromOwnIp().auth.signInWithPassword({ email, password })).error === null;

describe('changing the password from a signed-in session', () => {
  it('asks for the current password, refuses a wrong one and keeps the old password', async () => {
    const user = users[0]!;
    const client = await signedInClient(user);
    const missing = await client.auth.updateUser({ password: 'A-new-pw-123' });
    expect(missing.error).toMatchObject({ code: 'current_password_required', status: 400 });
    const wrong = await client.auth.updateUser({
      password: 'A-new-pw-123',
      current_password: `${user.password}x`,
    });
    expect(wrong.error).toMatchObject({ code: 'current_password_invalid', status: 400 });
    expect(await canSignIn(user.email, 'A-new-pw-123')).toBe(false);
    expect(await canSignIn(user.email, user.password)).toBe(true);
  });

  it('with the right current password: changed, other sessions ended, the caller kept', async () => {
    const user = users[0]!;
    const other = await signedInClient(user);
    const client = await signedInClient(user);
    const { error } = await client.auth.updateUser({
      password: 'Changed-pw-456',
      current_password: user.password,
    });
    expect(error).toBeNull();
    expect(await canSignIn(user.email, user.password)).toBe(false);
    expect(await canSignIn(user.email, 'Changed-pw-456')).toBe(true);
    user.password = 'Changed-pw-456';
    expect((await client.rpc('is_admin')).data).toBe(true);
    expect((await other.rpc('is_admin')).data, 'the other session has ended').toBe(false);
  });

  it('a recovery-link session sets a new password without the current one', async () => {
    const user = users[0]!;
    const env = stackEnv();
    const sent = await anonClientFromOwnIp().auth.resetPasswordForEmail(user.email, {
      redirectTo: `${SITE_URL}/reset-password`,
    });
    expect(sent.error).toBeNull();
    const mail = await waitForMail(env.MAILPIT_URL, {
      to: user.email,
      subject: authMailSubject('recovery'),
    });
    const link = extractLinks(mail).find((l) => l.includes('type=recovery'))!;
    const res = await openLink(link);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${SITE_URL}/reset-password#`)).toBe(true);
    const params = fragmentParams(location);
    expect(params.get('type')).toBe('recovery');
    const client = anonClientFromOwnIp();
    await client.auth.setSession({
      access_token: params.get('access_token')!,
      refresh_token: params.get('refresh_token')!,
    });
    expect((await client.auth.updateUser({ password: 'Recovered-pw-789' })).error).toBeNull();
    expect(await canSignIn(user.email, 'Recovered-pw-789')).toBe(true);
    user.password = 'Recovered-pw-789';
    // The link was used: following it again fails the way GoTrue says so.
    const again = fragmentParams((await openLink(link)).headers.get('location')!);
    expect(again.get('error_code')).toBe('otp_expired');
  });
});

describe('display name and sign out everywhere', () => {
  it('updateUser({data:{display_name}}) changes the name the admin heading shows', async () => {
    const client = await signedInClient(users[1]!);
    const { data, error } = await client.auth.updateUser({ data: { display_name: 'Renamed' } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata.display_name).toBe('Renamed');
    const { data: stored } = await service.auth.admin.getUserById(users[1]!.id);
    expect(stored.user?.user_metadata.display_name).toBe('Renamed');
  });

  it("signOut({scope:'global'}) ends every session: no admin writes from any of them", async () => {
    const user = users[1]!;
    const [phone, laptop] = [await signedInClient(user), await signedInClient(user)];
    expect((await laptop.rpc('is_admin')).data).toBe(true);
    expect((await phone.auth.signOut({ scope: 'global' })).error).toBeNull();
    // The laptop still holds an unexpired access token; the database refuses it all the same.
    expect((await laptop.rpc('is_admin')).data).toBe(false);
    const write = await laptop
      .from('catagories')
      .insert({ title: `After global sign-out ${Date.now()}` })
      .select();
    expect(write.error).not.toBeNull();
    expect((await laptop.auth.refreshSession()).error).not.toBeNull();
  });
});
