// The admin team (REQ-ACC-3, REQ-ACC-4), through supabase-js as the Admins tab and an attacker
// would call it: who may list, withdraw, resend and remove; what a withdrawal deletes; that nobody
// removes themselves; that two admins removing each other at the same moment leave one admin;
// and that a removed admin can be invited again.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMail } from '../support/mail';
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
import { uniqueEmail } from '../support/names.ts';

/** What admin_team() and open_admin_invites() answer (the test clients are untyped). */
type Row = Record<string, string | null>;

const service = serviceClient();
const users: TestUser[] = [];
let adminUser: TestUser;
let admin: SupabaseClient;
let plainUser: TestUser;
let plain: SupabaseClient;

beforeAll(async () => {
  adminUser = await createAdmin();
  plainUser = await createConfirmedUser();
  users.push(adminUser, plainUser);
  admin = await signedInClient(adminUser);
  plain = await signedInClient(plainUser);
});

afterAll(async () => {
  await deleteUsers(service, users);
});

/** An invite by the admin and the sign-up the SignUP tab makes for it: an unconfirmed account. */
async function inviteAndSignUp(email = uniqueEmail('invitee')): Promise<TestUser> {
  const { error } = await admin.from('admin_invites').insert({ email });
  expect(error?.message).toBeUndefined();
  return publicSignUp(users, email, 'invitee-password', { display_name: 'Invitee' });
}

async function accountExists(id: string): Promise<boolean> {
  const { data } = await service.auth.admin.getUserById(id);
  return Boolean(data.user);
}

async function openInvite(email: string) {
  const { data, error } = await service
    .from('admin_invites')
    .select('email, user_id, accepted_at, last_sent_at')
    .eq('email', email);
  if (error) throw new Error(error.message);
  return data[0] ?? null;
}

describe('listing the team', () => {
  it('shows an admin every admin with name and inviter, and every open invitation', async () => {
    const invitee = await inviteAndSignUp();
    const team = await admin.rpc('admin_team');
    expect(team.error?.message).toBeUndefined();
    const me = (team.data as Row[]).find((row) => row.user_id === adminUser.id);
    expect(me).toMatchObject({ email: adminUser.email, name: 'Test User' });
    expect(Date.parse(me!.admin_since!)).not.toBeNaN();
    const invites = await admin.rpc('open_admin_invites');
    expect(invites.error?.message).toBeUndefined();
    expect((invites.data as Row[]).find((row) => row.email === invitee.email)).toMatchObject({
      invited_by_email: adminUser.email,
      invited_by_name: 'Test User',
      account: 'unconfirmed',
    });
  });

  it('refuses visitors and signed-in non-admins', async () => {
    for (const client of [anonClient(), plain]) {
      for (const fn of ['admin_team', 'open_admin_invites'] as const) {
        const { data, error } = await client.rpc(fn);
        expect(error?.code, fn).toBe('42501');
        expect(data).toBeNull();
      }
    }
  });
});

describe('withdrawing an invitation', () => {
  it('deletes the invite and its unconfirmed account, so the address can be invited again', async () => {
    const invitee = await inviteAndSignUp();
    const registered = await admin.rpc('email_registered', { p_email: invitee.email });
    expect(registered.data).toBe(true);

    const { data, error } = await admin.rpc('withdraw_admin_invite', {
      p_email: ` ${invitee.email.toUpperCase()} `,
    });
    expect(error?.message).toBeUndefined();
    expect(data).toBe(true);
    expect(await openInvite(invitee.email)).toBeNull();
    expect(await accountExists(invitee.id)).toBe(false);
    expect((await admin.rpc('email_registered', { p_email: invitee.email })).data).toBe(false);

    const again = await admin.from('admin_invites').insert({ email: invitee.email });
    expect(again.error?.message).toBeUndefined();
    await service.from('admin_invites').delete().eq('email', invitee.email);
  });

  it('never deletes a confirmed account, and answers false when nothing is open', async () => {
    const none = await admin.rpc('withdraw_admin_invite', { p_email: plainUser.email });
    expect(none.data).toBe(false);
    expect(await accountExists(plainUser.id)).toBe(true);
    // An open invite whose account got confirmed some other way than the invite (service role).
    const invitee = await inviteAndSignUp();
    await service.auth.admin.updateUserById(invitee.id, { email_confirm: true });
    await service.from('admins').delete().eq('user_id', invitee.id);
    await service
      .from('admin_invites')
      .update({ accepted_at: null, user_id: invitee.id })
      .eq('email', invitee.email);
    const res = await admin.rpc('withdraw_admin_invite', { p_email: invitee.email });
    expect(res.data).toBe(true);
    expect(await accountExists(invitee.id), 'a confirmed account stays').toBe(true);
  });

  it('is refused to non-admins, who change nothing', async () => {
    const invitee = await inviteAndSignUp();
    for (const client of [anonClient(), plain]) {
      const { error } = await client.rpc('withdraw_admin_invite', { p_email: invitee.email });
      expect(error?.code).toBe('42501');
    }
    expect(await openInvite(invitee.email)).toMatchObject({ user_id: invitee.id });
    expect(await accountExists(invitee.id)).toBe(true);
  });
});

describe('resending the confirmation e-mail', () => {
  it('is recorded for an admin only, for an unconfirmed invited account only', async () => {
    const invitee = await inviteAndSignUp();
    for (const client of [anonClient(), plain]) {
      const { error } = await client.rpc('resend_admin_invite', { p_email: invitee.email });
      expect(error?.code).toBe('42501');
    }
    expect((await openInvite(invitee.email))?.last_sent_at).toBeNull();

    const ok = await admin.rpc('resend_admin_invite', { p_email: invitee.email });
    expect(ok.data).toBe(true);
    expect((await openInvite(invitee.email))?.last_sent_at).not.toBeNull();
    // Nothing to resend: a confirmed account, or an address without an open invitation.
    for (const email of [plainUser.email, adminUser.email, uniqueEmail('nobody')]) {
      expect((await admin.rpc('resend_admin_invite', { p_email: email })).data).toBe(false);
    }
  });

  it('then mails a fresh confirmation link to the invited address', async () => {
    const invitee = await inviteAndSignUp();
    const first = await waitForMail(stackEnv().MAILPIT_URL, { to: invitee.email });
    const ok = await admin.rpc('resend_admin_invite', { p_email: invitee.email });
    expect(ok.data).toBe(true);
    // Auth sends one mail per address per second here (60 s on hosted): wait it out.
    await new Promise((r) => setTimeout(r, 1100));
    const { error } = await anonClient().auth.resend({ type: 'signup', email: invitee.email });
    expect(error?.message).toBeUndefined();
    const deadline = Date.now() + 10_000;
    let second = first;
    while (second.id === first.id && Date.now() < deadline) {
      second = await waitForMail(stackEnv().MAILPIT_URL, { to: invitee.email });
    }
    expect(second.id).not.toBe(first.id);
  });
});

describe('removing an admin', () => {
  it('takes the rights at once; the account and its session stay', async () => {
    const other = await createAdmin();
    users.push(other);
    const otherClient = await signedInClient(other);
    expect((await otherClient.rpc('is_admin')).data).toBe(true);

    const { data, error } = await admin.rpc('remove_admin', { p_user_id: other.id });
    expect(error?.message).toBeUndefined();
    expect(data).toBe(true);
    expect(await isAdminRow(other.id)).toBe(false);
    expect(await accountExists(other.id)).toBe(true);
    expect((await otherClient.rpc('is_admin')).data).toBe(false);
    // Their next write is refused by RLS.
    const write = await otherClient.from('catagories').insert({ title: uniqueEmail('cat') });
    expect(write.error?.code).toBe('42501');
    // Removing them again changes nothing.
    expect((await admin.rpc('remove_admin', { p_user_id: other.id })).data).toBe(false);
  });

  it('refuses removing oneself', async () => {
    const { error } = await admin.rpc('remove_admin', { p_user_id: adminUser.id });
    expect(error?.hint).toBe('remove_self');
    expect(await isAdminRow(adminUser.id)).toBe(true);
  });

  it('is refused to non-admins, who change nothing', async () => {
    for (const client of [anonClient(), plain]) {
      const { error } = await client.rpc('remove_admin', { p_user_id: adminUser.id });
      expect(error?.code).toBe('42501');
    }
    expect(await isAdminRow(adminUser.id)).toBe(true);
  });

  it('a removed admin can be invited again and is an admin at once', async () => {
    const other = await createAdmin();
    users.push(other);
    const otherClient = await signedInClient(other);
    await admin.rpc('remove_admin', { p_user_id: other.id });
    expect((await admin.rpc('email_registered', { p_email: other.email })).data).toBe(true);

    const { error } = await admin.from('admin_invites').insert({ email: other.email });
    expect(error?.message).toBeUndefined();
    expect(await isAdminRow(other.id)).toBe(true);
    expect((await otherClient.rpc('is_admin')).data).toBe(true);
    const team = await admin.rpc('admin_team');
    expect((team.data as Row[]).find((row) => row.user_id === other.id)).toMatchObject({
      invited_by_email: adminUser.email,
    });
    // Any other existing account still cannot be invited.
    const shopper = await admin.from('admin_invites').insert({ email: plainUser.email });
    expect(shopper.error?.message).toBe('Email already registered');
  });
});

describe('two admins removing each other at the same moment', () => {
  const ROUNDS = 30;

  it(`leaves at least one of them an admin, ${ROUNDS} times in a row`, async () => {
    const a = await createAdmin();
    const b = await createAdmin();
    users.push(a, b);
    const clientA = await signedInClient(a);
    const clientB = await signedInClient(b);
    let bothSucceeded = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const [byA, byB] = await Promise.all([
        clientA.rpc('remove_admin', { p_user_id: b.id }),
        clientB.rpc('remove_admin', { p_user_id: a.id }),
      ]);
      if (byA.data === true && byB.data === true) bothSucceeded++;
      const remaining = [await isAdminRow(a.id), await isAdminRow(b.id)];
      expect(remaining.filter(Boolean).length, `round ${round}`).toBeGreaterThanOrEqual(1);
      // The loser was refused as no longer an admin, not with a generic failure.
      for (const res of [byA, byB]) {
        if (res.error) expect(res.error.code).toBe('42501');
      }
      // Both admins again for the next round: the service role invites the removed one back.
      for (const user of [a, b]) {
        if (!(await isAdminRow(user.id))) {
          const { error } = await service.from('admin_invites').insert({ email: user.email });
          expect(error?.message).toBeUndefined();
        }
      }
    }
    expect(bothSucceeded).toBe(0);
    const { count } = await service.from('admins').select('*', { count: 'exact', head: true });
    expect(count).toBeGreaterThanOrEqual(1);
  });
});
