// The admin model end to end: admin rights come only from a confirmed, invited e-mail (decided by
// the database), never from a direct sign-up or from user-editable metadata. Accounts are signed
// up through the real Auth API and confirmed through the link in the captured e-mail.
import type { SupabaseClient } from '@supabase/supabase-js';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractLinks, waitForMail } from '../support/mail';
import { deleteUsers, isAdminRow, publicSignUp } from './db-test-helpers.ts';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId, uniqueEmail } from '../support/names.ts';

const execFileAsync = promisify(execFile);
const service = serviceClient();
const users: TestUser[] = [];
const invites: string[] = [];
let adminUser: TestUser;
let admin: SupabaseClient;

beforeAll(async () => {
  adminUser = await createAdmin();
  users.push(adminUser);
  admin = await signedInClient(adminUser);
});

afterAll(async () => {
  await deleteUsers(service, users);
  for (const email of invites) await service.from('admin_invites').delete().eq('email', email);
});

const signUp = (email: string, password: string, data: Record<string, unknown> = {}) =>
  publicSignUp(users, email, password, data);

/** Opens the confirmation link of the sign-up mail, like the recipient clicking it. */
async function confirmThroughMail(email: string): Promise<void> {
  const env = stackEnv();
  const mail = await waitForMail(env.MAILPIT_URL, { to: email }, 30_000);
  const link = extractLinks(mail).find((l) => l.includes('/verify'));
  expect(link, 'confirmation link in the mail').toBeTruthy();
  const res = await fetch(link!, { redirect: 'manual' });
  expect(res.status).toBeGreaterThanOrEqual(300);
  expect(res.status).toBeLessThan(400);
  expect(res.headers.get('location') ?? '').not.toContain('error=');
}

async function confirmedAt(userId: string): Promise<string | null | undefined> {
  const { data, error } = await service.auth.admin.getUserById(userId);
  if (error) throw new Error(error.message);
  return data.user.email_confirmed_at;
}

describe('direct sign-up', () => {
  it('an uninvited account never becomes an admin, even after confirming its e-mail', async () => {
    const email = uniqueEmail('mallory');
    // Metadata claiming admin rights must not matter.
    const mallory = await signUp(email, 'mallory-pass-1', { role: 'admin', is_admin: true });
    expect(await isAdminRow(mallory.id)).toBe(false);

    await confirmThroughMail(email);
    expect(await confirmedAt(mallory.id)).toBeTruthy();
    expect(await isAdminRow(mallory.id)).toBe(false);

    const client = await signedInClient(mallory);
    expect((await client.rpc('is_admin')).data).toBe(false);

    // Nor can it grant itself rights through the API.
    expect(
      (await client.from('admin_invites').insert({ email: uniqueEmail('accomplice') })).error,
    ).not.toBeNull();
    expect(
      (await client.from('admins').insert({ user_id: mallory.id, email })).error,
    ).not.toBeNull();
    await client.auth.updateUser({ data: { is_admin: true, role: 'admin' } });
    expect((await client.rpc('is_admin')).data).toBe(false);
    expect(
      (await client.from('catagories').insert({ title: uniqueId('Mallory Cat') })).error?.code,
    ).toBe('42501');
    expect(await isAdminRow(mallory.id)).toBe(false);
  });
});

describe('invited sign-up', () => {
  it('an invited account becomes an admin only once its e-mail is confirmed', async () => {
    const email = uniqueEmail('invitee');
    invites.push(email);
    const { error: inviteError } = await admin
      .from('admin_invites')
      .insert({ email: `  ${email.toUpperCase()} ` });
    expect(inviteError).toBeNull();
    const { data: invite } = await service
      .from('admin_invites')
      .select('*')
      .eq('email', email)
      .single();
    expect(invite).toMatchObject({ email, invited_by: adminUser.id, accepted_at: null });

    const invitee = await signUp(email, 'invitee-pass-1');
    expect(await confirmedAt(invitee.id)).toBeFalsy();
    expect(await isAdminRow(invitee.id), 'not an admin before confirming').toBe(false);

    await confirmThroughMail(email);
    expect(await isAdminRow(invitee.id), 'an admin after confirming').toBe(true);
    const { data: accepted } = await service
      .from('admin_invites')
      .select('accepted_at')
      .eq('email', email)
      .single();
    expect(accepted!.accepted_at).not.toBeNull();

    const client = await signedInClient(invitee);
    expect((await client.rpc('is_admin')).data).toBe(true);
    const { data: list } = await client.from('admins').select('user_id');
    expect(list!.map((r) => r.user_id)).toEqual(expect.arrayContaining([invitee.id, adminUser.id]));
  });

  it('an invite is used once: a later account with the same e-mail is not an admin', async () => {
    const email = uniqueEmail('once');
    invites.push(email);
    expect((await admin.from('admin_invites').insert({ email })).error).toBeNull();
    const first = await createConfirmedUser({ email });
    expect(await isAdminRow(first.id)).toBe(true);
    await service.auth.admin.deleteUser(first.id);
    expect(await isAdminRow(first.id)).toBe(false);

    const second = await createConfirmedUser({ email });
    users.push(second);
    expect(await isAdminRow(second.id)).toBe(false);

    // Inviting the address again (once it has no account) works like a first invite.
    await service.auth.admin.deleteUser(second.id);
    expect((await admin.from('admin_invites').insert({ email })).error).toBeNull();
    const third = await createConfirmedUser({ email });
    users.push(third);
    expect(await isAdminRow(third.id)).toBe(true);
  });

  it('a withdrawn invite grants nothing; a used invite cannot be withdrawn', async () => {
    // What the SignUP tab does when the sign-up after its invite fails: withdraw the invite, so a
    // stranger who later signs the address up gains nothing when the owner confirms the mail.
    const email = uniqueEmail('withdrawn');
    invites.push(email);
    expect((await admin.from('admin_invites').insert({ email })).error).toBeNull();
    const { data: gone, error } = await admin
      .from('admin_invites')
      .delete()
      .eq('email', email)
      .is('accepted_at', null)
      .select('email');
    expect(error).toBeNull();
    expect(gone).toEqual([{ email }]);
    const stranger = await signUp(email, 'stranger-pass-1');
    await confirmThroughMail(email);
    expect(await isAdminRow(stranger.id), 'no admin rights without an open invite').toBe(false);

    // A used invite is the record of how an admin came to be: it stays.
    const usedEmail = uniqueEmail('used');
    invites.push(usedEmail);
    expect((await admin.from('admin_invites').insert({ email: usedEmail })).error).toBeNull();
    const invitee = await createConfirmedUser({ email: usedEmail });
    users.push(invitee);
    expect(await isAdminRow(invitee.id)).toBe(true);
    const { data: kept } = await admin
      .from('admin_invites')
      .delete()
      .eq('email', usedEmail)
      .select('email');
    expect(kept, 'RLS hides a used invite from delete').toEqual([]);
    const { data: still } = await service
      .from('admin_invites')
      .select('accepted_at')
      .eq('email', usedEmail);
    expect(still).toHaveLength(1);
    expect(still![0]!.accepted_at).not.toBeNull();
  });

  it('refuses inviting an e-mail that already has an account', async () => {
    const existing = await createConfirmedUser();
    users.push(existing);
    const { error } = await admin.from('admin_invites').insert({ email: existing.email });
    expect(error?.message).toBe('Email already registered');
    expect(await isAdminRow(existing.id)).toBe(false);
  });
});

describe('RPCs', () => {
  it('is_admin is false for visitors and ordinary users, true for admins', async () => {
    expect((await anonClient().rpc('is_admin')).data).toBe(false);
    const plain = await createConfirmedUser();
    users.push(plain);
    const client = await signedInClient(plain);
    expect((await client.rpc('is_admin')).data).toBe(false);
    expect((await admin.rpc('is_admin')).data).toBe(true);

    // email_registered is for admins only.
    expect((await admin.rpc('email_registered', { p_email: plain.email.toUpperCase() })).data).toBe(
      true,
    );
    expect((await admin.rpc('email_registered', { p_email: uniqueEmail('nobody') })).data).toBe(
      false,
    );
    expect((await client.rpc('email_registered', { p_email: plain.email })).error?.code).toBe(
      '42501',
    );
    expect(
      (await anonClient().rpc('email_registered', { p_email: plain.email })).error,
    ).not.toBeNull();
  });
});

describe('npm run admin:create', () => {
  const script = resolve(import.meta.dirname, '../../scripts/admin-create.ts');
  const tsx = resolve(import.meta.dirname, '../../node_modules/.bin/tsx');

  async function run(args: string[], env: Record<string, string | undefined>) {
    try {
      const { stdout, stderr } = await execFileAsync(tsx, [script, ...args], {
        env: {
          ...process.env,
          SUPABASE_URL: undefined,
          SUPABASE_SERVICE_ROLE_KEY: undefined,
          ...env,
        },
        timeout: 60_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  it('creates a confirmed admin that can sign in', async () => {
    const env = stackEnv();
    const email = uniqueEmail('cli-admin');
    invites.push(email);
    const result = await run(
      ['--email', email, '--password', 'cli-admin-pass', '--name', 'CLI Admin'],
      {
        SUPABASE_URL: env.API_URL,
        SUPABASE_SERVICE_ROLE_KEY: env.SERVICE_ROLE_KEY,
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Admin created: ${email}`);

    const { data } = await service.from('admins').select('user_id').eq('email', email).single();
    users.push({ id: data!.user_id, email, password: 'cli-admin-pass' });
    const client = await signedInClient({ email, password: 'cli-admin-pass' });
    expect((await client.rpc('is_admin')).data).toBe(true);
    const { data: me } = await client.auth.getUser();
    expect(me.user?.user_metadata.display_name).toBe('CLI Admin');

    // Running it again for the same e-mail fails clearly instead of doing anything.
    const again = await run(['--email', email, '--password', 'other-pass', '--name', 'Again'], {
      SUPABASE_URL: env.API_URL,
      SUPABASE_SERVICE_ROLE_KEY: env.SERVICE_ROLE_KEY,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already');
  });

  it('explains bad input and missing settings', async () => {
    const env = stackEnv();
    const keys = { SUPABASE_URL: env.API_URL, SUPABASE_SERVICE_ROLE_KEY: env.SERVICE_ROLE_KEY };
    const missingName = await run(['--email', uniqueEmail('x'), '--password', 'secret1'], keys);
    expect(missingName.code).toBe(2);
    expect(missingName.stderr).toContain('Missing --name');

    const badEmail = await run(
      ['--email', 'not-an-email', '--password', 'secret1', '--name', 'X'],
      keys,
    );
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr).toContain('not a valid e-mail');

    const shortPassword = await run(
      ['--email', uniqueEmail('x'), '--password', '123', '--name', 'X'],
      keys,
    );
    expect(shortPassword.code).toBe(2);
    expect(shortPassword.stderr).toContain('at least 6');

    const noEnv = await run(
      ['--email', uniqueEmail('x'), '--password', 'secret1', '--name', 'X'],
      {},
    );
    expect(noEnv.code).toBe(2);
    expect(noEnv.stderr).toContain('SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY');
  });
});
