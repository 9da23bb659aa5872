// The Auth e-mails the store sends (decision 0213), each triggered through supabase-js on the local
// stack as the store's pages trigger it and read from the mail catcher: the subject and the body
// carry the store's name as public.store_settings holds it, say what to do next, how long the
// link works and what to do if unasked, carry nothing the account's owner typed, and their link
// works. The stand-in renders the template files config.toml gives hosted Supabase, so this is
// what hosted sends.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractLinks, type Mail, waitForMail } from '../support/mail.ts';
import { fragmentParams, openLink, SITE_URL, anonClientFromOwnIp } from './auth-support.ts';
import { deleteUsers, isAdminRow } from './db-test-helpers.ts';
import {
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueEmail } from '../support/names.ts';

const service = serviceClient();
const users: TestUser[] = [];
let admin: SupabaseClient;
let storeName: string;

/** A display name an attacker would choose: it must never reach a mail. */
const HOSTILE_NAME = 'Mallory <a href="https://evil.example/">claim your prize</a>';

beforeAll(async () => {
  const adminUser = await createAdmin();
  users.push(adminUser);
  admin = await signedInClient(adminUser);
  const { data, error } = await service.from('store_settings').select('store_name').single();
  if (error) throw error;
  storeName = (data as { store_name: string }).store_name;
});

afterAll(async () => {
  await deleteUsers(service, users);
});

/** The text a reader sees, as a plain-text client would show the HTML. */
const visibleText = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The newest mail to `to` and its link of `type`; checks what every store mail must say. */
async function storeMail(to: string, type: string, nextStep: string) {
  const mail: Mail = await waitForMail(stackEnv().MAILPIT_URL, { to });
  const text = visibleText(mail.html ?? '');
  expect(mail.subject).toContain(storeName);
  expect(text).toContain(storeName);
  expect(text).toContain('What to do next');
  expect(text).toContain(nextStep);
  expect(text).toContain('The link works once, for 1 hour.');
  expect(text).toMatch(/If you did not (ask for|expect) this/);
  expect(mail.html).not.toContain('Mallory');
  expect(mail.html).not.toContain('evil.example');
  const link = extractLinks(mail).find(
    (l) => l.includes('/auth/v1/verify?') && l.includes(`type=${type}`),
  );
  expect(link, `a ${type} link in: ${extractLinks(mail).join(', ')}`).toBeTruthy();
  // Written out too, for a client that shows no links.
  expect(text).toContain(link);
  return { mail, link: link! };
}

/** Follows a mail's link like its owner's browser: the page it lands on and the fragment. */
async function follow(link: string) {
  const res = await openLink(link);
  expect(res.status).toBe(303);
  const location = res.headers.get('location')!;
  return { location, params: fragmentParams(location) };
}

describe('Auth e-mails carry the store name and the next step', () => {
  it('invitation of a new admin (SignUP tab): confirm, land on /login signed in, be an admin', async () => {
    const email = uniqueEmail('invited');
    expect((await admin.from('admin_invites').insert({ email })).error).toBeNull();
    const { data, error } = await anonClientFromOwnIp().auth.signUp({
      email,
      password: 'invitee-password',
      options: { data: { display_name: HOSTILE_NAME }, emailRedirectTo: `${SITE_URL}/login` },
    });
    expect(error).toBeNull();
    users.push({ id: data.user!.id, email, password: 'invitee-password' });

    const { mail, link } = await storeMail(email, 'signup', 'Confirm my e-mail address');
    expect(mail.subject).toBe(`Confirm your e-mail address for ${storeName}`);
    expect(visibleText(mail.html!)).toContain('the password the admin who invited you chose');
    const { location, params } = await follow(link);
    expect(location.startsWith(`${SITE_URL}/login#`)).toBe(true);
    expect(params.get('access_token')).toBeTruthy();
    expect(await isAdminRow(data.user!.id)).toBe(true);
  });

  it('password reset (Forgot password?): set a new password on /reset-password', async () => {
    const user = await createConfirmedUser({ email: uniqueEmail('forgot') });
    users.push(user);
    const { error } = await anonClientFromOwnIp().auth.resetPasswordForEmail(user.email, {
      redirectTo: `${SITE_URL}/reset-password`,
    });
    expect(error).toBeNull();

    const { mail, link } = await storeMail(user.email, 'recovery', 'Set a new password');
    expect(mail.subject).toBe(`Reset your ${storeName} password`);
    expect(visibleText(mail.html!)).toContain('your password stays as it is');
    const { location, params } = await follow(link);
    expect(location.startsWith(`${SITE_URL}/reset-password#`)).toBe(true);
    expect(params.get('type')).toBe('recovery');
    expect(params.get('access_token')).toBeTruthy();
  });

  it('invitation through the Auth admin API (the dashboard\'s "Invite user")', async () => {
    const email = uniqueEmail('dash-invite');
    const { data, error } = await service.auth.admin.inviteUserByEmail(email, {
      data: { display_name: HOSTILE_NAME },
      redirectTo: SITE_URL,
    });
    expect(error).toBeNull();
    users.push({ id: data.user!.id, email, password: '' });

    const { mail, link } = await storeMail(email, 'invite', 'Accept the invitation');
    expect(mail.subject).toBe(`You have been invited to ${storeName}`);
    const { params } = await follow(link);
    expect(params.get('access_token')).toBeTruthy();
  });

  it('sign-in link (magic link) for a confirmed account', async () => {
    const user = await createConfirmedUser({ email: uniqueEmail('magic') });
    users.push(user);
    const { error } = await anonClientFromOwnIp().auth.signInWithOtp({
      email: user.email,
      options: { shouldCreateUser: false, emailRedirectTo: `${SITE_URL}/login` },
    });
    expect(error).toBeNull();

    const { mail, link } = await storeMail(user.email, 'magiclink', 'Sign in');
    expect(mail.subject).toBe(`Your ${storeName} sign-in link`);
    const { location, params } = await follow(link);
    expect(location.startsWith(`${SITE_URL}/login#`)).toBe(true);
    expect(params.get('access_token')).toBeTruthy();
  });

  it('e-mail change: both addresses get the mail, each link counts once', async () => {
    const user = await createConfirmedUser({ email: uniqueEmail('move-old') });
    users.push(user);
    const newEmail = uniqueEmail('move-new');
    const client = await signedInClient(user);
    const { error } = await client.auth.updateUser(
      { email: newEmail },
      { emailRedirectTo: `${SITE_URL}/admin` },
    );
    expect(error).toBeNull();

    const current = await storeMail(user.email, 'email_change', 'Confirm the change');
    const next = await storeMail(newEmail, 'email_change', 'Confirm the change');
    expect(current.mail.subject).toBe(
      `Confirm the new e-mail address of your ${storeName} account`,
    );
    expect(visibleText(current.mail.html!)).not.toContain(newEmail);
    expect((await follow(current.link)).params.get('message')).toMatch(/other email/);
    expect((await follow(next.link)).params.get('access_token')).toBeTruthy();
  });
});
