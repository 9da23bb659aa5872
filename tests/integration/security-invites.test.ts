// Invites grant admin only to the account they were made for, and tell non-admins nothing.
// 1. An open invite used to outlive its account: the account was deleted, a stranger signed the
//    address up with their own password, and the owner's click on "Confirm Your Signup" made the
//    stranger an admin.
// 2. A signed-in non-admin could learn whether an address has an account: the invite trigger
//    looked at auth.users (409 "Email already registered") before RLS refused the row (403).
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractLinks, listMail, type Mail } from '../support/mail';
import { deleteUsers, isAdminRow, publicSignUp } from './db-test-helpers.ts';
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

const signUp = (email: string, password: string) => publicSignUp(users, email, password);

const mailTo = async (email: string): Promise<Mail[]> =>
  (await listMail(stackEnv().MAILPIT_URL)).filter((m) => m.to.some((a) => a.address === email));

/** Opens the confirmation link of a mail to `email` not in `seen`, like its owner clicking it. */
async function confirmThroughNewMail(email: string, seen: Set<string>): Promise<void> {
  const deadline = Date.now() + 30_000;
  let mail: Mail | undefined;
  while (!(mail = (await mailTo(email)).find((m) => !seen.has(m.id)))) {
    if (Date.now() > deadline) throw new Error(`no new mail to ${email}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  const link = extractLinks(mail).find((l) => l.includes('/verify'));
  expect(link, 'confirmation link in the mail').toBeTruthy();
  const res = await fetch(link!, { redirect: 'manual' });
  expect(res.status).toBeGreaterThanOrEqual(300);
  expect(res.status).toBeLessThan(400);
}

async function openInvites(email: string) {
  const { data, error } = await service
    .from('admin_invites')
    .select('email, accepted_at')
    .eq('email', email);
  if (error) throw new Error(error.message);
  return data;
}

describe('an invite belongs to the account it was made for', () => {
  it('dies with that account: a stranger signing the address up later gains nothing', async () => {
    const email = uniqueEmail('gone');
    invites.push(email);
    expect((await admin.from('admin_invites').insert({ email })).error).toBeNull();
    const invitee = await signUp(email, 'invitee-pass-1');
    expect(await openInvites(email)).toHaveLength(1);

    await service.auth.admin.deleteUser(invitee.id);
    expect.soft(await openInvites(email), 'the invite went with its account').toEqual([]);

    const seen = new Set((await mailTo(email)).map((m) => m.id));
    const stranger = await signUp(email, 'stranger-pass-1');
    await confirmThroughNewMail(email, seen);
    expect(await isAdminRow(stranger.id), 'the stranger is no admin').toBe(false);
    const client = await signedInClient(stranger);
    expect((await client.rpc('is_admin')).data).toBe(false);
  });

  it('a used invite also goes with its account, and the address can be invited again', async () => {
    const email = uniqueEmail('used-gone');
    invites.push(email);
    expect((await admin.from('admin_invites').insert({ email })).error).toBeNull();
    const first = await createConfirmedUser({ email });
    expect(await isAdminRow(first.id)).toBe(true);
    await service.auth.admin.deleteUser(first.id);
    expect(await openInvites(email)).toEqual([]);

    expect((await admin.from('admin_invites').insert({ email })).error).toBeNull();
    const second = await createConfirmedUser({ email });
    users.push(second);
    expect(await isAdminRow(second.id)).toBe(true);
  });
});

describe('an invite is not taken by an e-mail change', () => {
  it('an existing account that moves to an invited address does not become an admin', async () => {
    const email = uniqueEmail('moved-to');
    invites.push(email);
    expect((await admin.from('admin_invites').insert({ email })).error).toBeNull();
    const mover = await createConfirmedUser();
    users.push(mover);
    const { error } = await service.auth.admin.updateUserById(mover.id, {
      email,
      email_confirm: true,
    });
    expect(error).toBeNull();
    expect(await isAdminRow(mover.id), 'the invite was made for a new account').toBe(false);
    expect(await openInvites(email)).toEqual([{ email, accepted_at: null }]);
  });
});

describe('inviting tells a non-admin nothing about accounts', () => {
  it('gives the same refusal for a registered and an unknown address', async () => {
    const plainUser = await createConfirmedUser();
    users.push(plainUser);
    const plain = await signedInClient(plainUser);
    const known = [adminUser.email, plainUser.email];
    const unknown = [uniqueEmail('nobody'), uniqueEmail('nobody')];
    const answers = [];
    for (const email of [...known, ...unknown]) {
      const res = await plain.from('admin_invites').insert({ email });
      answers.push({ status: res.status, error: res.error });
    }
    for (const answer of answers) {
      expect(answer).toEqual(answers[answers.length - 1]);
      expect(answer.status).toBe(403);
    }
    for (const email of unknown) expect(await openInvites(email)).toEqual([]);
  });

  it('still tells an admin and the service role that an address is registered', async () => {
    for (const client of [admin, service]) {
      const { error } = await client.from('admin_invites').insert({ email: adminUser.email });
      expect(error?.message).toBe('Email already registered');
    }
  });
});
