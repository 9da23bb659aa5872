// REQ-MFA-2 (docs/decisions/0251): the database decides admin rights with the second factor. An
// admin with a verified factor has admin rights only in an aal2 session (the code was entered);
// with store_settings.admins_require_mfa on, an admin without a factor has none until enrolling.
// my_admin_access() tells the SPA what a session lacks; admin_remove_colleague_factor() is the
// lost-phone way out, logged. Over HTTP with supabase-js against the throwaway stack; tokens are
// those of real sessions (admin-mfa-support.ts).
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers } from './db-test-helpers.ts';
import { BUCKET, objectName, png } from './storage-support.ts';
import { addVerifiedFactor, sessionPair, setRequireMfa } from './admin-mfa-support.ts';
import {
  anonClient,
  createAdmin,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  sql,
  type TestUser,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
const users: TestUser[] = [];
const categories: string[] = [];

let withFactor: TestUser; // an admin who turned on two-factor sign-in
let plainAdmin: TestUser; // an admin without a factor
let shopper: TestUser;
let factorAdmin: { aal1: SupabaseClient; aal2: SupabaseClient };
let plain: { aal1: SupabaseClient; aal2: SupabaseClient };
let shopperClient: SupabaseClient;

beforeAll(async () => {
  withFactor = await createAdmin();
  plainAdmin = await createAdmin();
  shopper = await createConfirmedUser();
  users.push(withFactor, plainAdmin, shopper);
  await addVerifiedFactor(withFactor.id);
  factorAdmin = await sessionPair(withFactor);
  plain = await sessionPair(plainAdmin);
  shopperClient = await signedInClient(shopper);
});

afterEach(async () => {
  await setRequireMfa(false);
});

afterAll(async () => {
  await setRequireMfa(false);
  for (const title of categories) await service.from('catagories').delete().eq('title', title);
  await deleteUsers(service, users);
});

/** Adds a category as `client`; whether it was stored (checked with the service role). */
async function addsCategory(client: SupabaseClient): Promise<boolean> {
  const title = uniqueId('MFA Cat');
  categories.push(title);
  await client.from('catagories').insert({ title });
  const { data } = await service.from('catagories').select('id').eq('title', title);
  return (data ?? []).length === 1;
}

async function access(client: SupabaseClient): Promise<unknown> {
  const { data, error } = await client.rpc('my_admin_access');
  expect(error).toBeNull();
  return data;
}

describe('REQ-MFA-2 an admin with a verified factor', () => {
  it('has no admin rights with the password alone (aal1): reads and writes nothing', async () => {
    expect(await addsCategory(factorAdmin.aal1)).toBe(false);
    expect((await factorAdmin.aal1.rpc('is_admin')).data).toBe(false);
    const log = await factorAdmin.aal1.from('activity_log').select('id').limit(1);
    expect(log.data ?? []).toEqual([]);
    const team = await factorAdmin.aal1.rpc('admin_team');
    expect(team.error?.code).toBe('42501');
    const settings = await factorAdmin.aal1
      .from('store_settings')
      .update({ store_name: 'Taken over' })
      .eq('id', true)
      .select('store_name');
    expect(settings.data ?? []).toEqual([]);
  });

  it('has admin rights once the code was entered (aal2)', async () => {
    expect(await addsCategory(factorAdmin.aal2)).toBe(true);
    expect((await factorAdmin.aal2.rpc('is_admin')).data).toBe(true);
    const team = await factorAdmin.aal2.rpc('admin_team');
    expect(team.error).toBeNull();
  });

  it('uploads product pictures only with the code (storage policies use is_admin too)', async () => {
    const refused = objectName('mfa-aal1');
    const stored = objectName('mfa-aal2');
    expect(
      (await factorAdmin.aal1.storage.from(BUCKET).upload(refused, png())).error,
    ).not.toBeNull();
    expect((await factorAdmin.aal2.storage.from(BUCKET).upload(stored, png())).error).toBeNull();
    const exists = async (name: string) =>
      (await service.storage.from(BUCKET).download(name)).error === null;
    expect(await exists(refused)).toBe(false);
    expect(await exists(stored)).toBe(true);
    await service.storage.from(BUCKET).remove([stored]);
  });

  it('my_admin_access says the session needs the code, then nothing', async () => {
    expect(await access(factorAdmin.aal1)).toEqual({ admin: true, needs: 'code' });
    expect(await access(factorAdmin.aal2)).toEqual({ admin: true, needs: 'none' });
  });

  it('an unverified factor (enrolment not finished) changes nothing', async () => {
    const user = await createAdmin();
    users.push(user);
    await sql(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
                                     updated_at, secret)
       values (gen_random_uuid(), $1, 'Half done', 'totp', 'unverified', now(), now(), 'x')`,
      [user.id],
    );
    const client = await signedInClient(user);
    expect(await access(client)).toEqual({ admin: true, needs: 'none' });
    expect(await addsCategory(client)).toBe(true);
  });
});

describe('REQ-MFA-2 admins without a factor', () => {
  it('keep admin rights while the store does not require two-factor sign-in', async () => {
    expect(await access(plain.aal1)).toEqual({ admin: true, needs: 'none' });
    expect(await addsCategory(plain.aal1)).toBe(true);
  });

  it('have none once the store requires it, until they enrol (my_admin_access: enrol)', async () => {
    // An admin turns it on like any store setting; it is logged like the others.
    const { error } = await factorAdmin.aal2
      .from('store_settings')
      .update({ admins_require_mfa: true })
      .eq('id', true);
    expect(error).toBeNull();
    const { data: row } = await service.from('store_settings').select('admins_require_mfa');
    expect(row).toEqual([{ admins_require_mfa: true }]);
    const { data: logged } = await service
      .from('activity_log')
      .select('after')
      .eq('kind', 'settings_changed')
      .order('id', { ascending: false })
      .limit(1);
    expect(logged?.[0]?.after).toEqual({ admins_require_mfa: true });

    expect(await access(plain.aal1)).toEqual({ admin: true, needs: 'enrol' });
    expect(await addsCategory(plain.aal1)).toBe(false);
    expect((await plain.aal1.rpc('is_admin')).data).toBe(false);
    // With a factor and the code, admin rights again.
    expect(await access(factorAdmin.aal1)).toEqual({ admin: true, needs: 'code' });
    expect(await addsCategory(factorAdmin.aal2)).toBe(true);
  });

  it('non-admins cannot change whether it is required', async () => {
    const res = await shopperClient
      .from('store_settings')
      .update({ admins_require_mfa: true })
      .eq('id', true)
      .select('id');
    expect(res.data ?? []).toEqual([]);
    const res2 = await factorAdmin.aal1
      .from('store_settings')
      .update({ admins_require_mfa: true })
      .eq('id', true)
      .select('id');
    expect(res2.data ?? []).toEqual([]);
    const { data: row } = await service.from('store_settings').select('admins_require_mfa');
    expect(row).toEqual([{ admins_require_mfa: false }]);
  });
});

describe('REQ-MFA-2 my_admin_access', () => {
  it('a non-admin is no admin and needs nothing; a visitor may not ask', async () => {
    expect(await access(shopperClient)).toEqual({ admin: false, needs: 'none' });
    await setRequireMfa(true);
    expect(await access(shopperClient)).toEqual({ admin: false, needs: 'none' });
    const anon = await anonClient().rpc('my_admin_access');
    expect(anon.error?.code).toBe('42501');
  });
});

describe('REQ-MFA-2 removing a colleague’s factor (lost phone)', () => {
  async function colleagueWithFactor(): Promise<{ user: TestUser; factor: string }> {
    const user = await createAdmin();
    users.push(user);
    const factor = await addVerifiedFactor(user.id, 'Lost phone');
    await sql(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
       values (gen_random_uuid(), $1, now(), '127.0.0.1')`,
      [factor],
    );
    return { user, factor };
  }
  const factorRows = async (id: string) =>
    (await sql('select id from auth.mfa_factors where id = $1', [id])).length;

  it('an aal2 admin removes it with its challenges; the log names both', async () => {
    const { user, factor } = await colleagueWithFactor();
    const { data, error } = await factorAdmin.aal2.rpc('admin_remove_colleague_factor', {
      p_factor_id: factor,
    });
    expect(error).toBeNull();
    expect(data).toBe(user.id);
    expect(await factorRows(factor)).toBe(0);
    expect(await sql('select 1 from auth.mfa_challenges where factor_id = $1', [factor])).toEqual(
      [],
    );
    const { data: log } = await service
      .from('activity_log')
      .select('actor, actor_email, subject, before')
      .eq('kind', 'admin_factor_removed')
      .eq('subject', user.email);
    expect(log).toHaveLength(1);
    expect(log![0]).toMatchObject({ actor: withFactor.id, actor_email: withFactor.email });
    expect(JSON.stringify(log![0]!.before)).not.toContain('JBSWY3DPEHPK3PXP');
    // The colleague signs in with the password and has admin rights again (no factor left).
    expect(await access(await signedInClient(user))).toEqual({ admin: true, needs: 'none' });
  });

  it('is refused to an aal1 admin with a factor, to non-admins, and changes nothing', async () => {
    const { user, factor } = await colleagueWithFactor();
    for (const client of [factorAdmin.aal1, shopperClient]) {
      const { error } = await client.rpc('admin_remove_colleague_factor', { p_factor_id: factor });
      expect(error?.code).toBe('42501');
    }
    await setRequireMfa(true);
    const refused = await plain.aal1.rpc('admin_remove_colleague_factor', { p_factor_id: factor });
    expect(refused.error?.code).toBe('42501');
    expect(await factorRows(factor)).toBe(1);
    const { data: log } = await service
      .from('activity_log')
      .select('id')
      .eq('kind', 'admin_factor_removed')
      .eq('subject', user.email);
    expect(log).toEqual([]);
  });

  it('refuses one’s own factor (Auth removes it with an aal2 session) and non-admins’ factors', async () => {
    const own = await addVerifiedFactor(withFactor.id, 'Second phone');
    const self = await factorAdmin.aal2.rpc('admin_remove_colleague_factor', { p_factor_id: own });
    expect(self.error?.hint).toBe('own_factor');
    expect(await factorRows(own)).toBe(1);
    await sql('delete from auth.mfa_factors where id = $1', [own]);

    const shoppers = await addVerifiedFactor(shopper.id);
    const other = await factorAdmin.aal2.rpc('admin_remove_colleague_factor', {
      p_factor_id: shoppers,
    });
    expect(other.error?.hint).toBe('factor_not_found');
    expect(await factorRows(shoppers)).toBe(1);
  });
});

describe('REQ-MFA-2 admin_factors (which colleagues use two-factor sign-in)', () => {
  it('lists verified factors of admins only, without secrets, to admins with admin rights', async () => {
    const colleague = await createAdmin();
    users.push(colleague);
    const verified = await addVerifiedFactor(colleague.id, 'Colleague phone');
    const unverified = await addVerifiedFactor(colleague.id, 'Half set up');
    await sql(`update auth.mfa_factors set status = 'unverified' where id = $1`, [unverified]);
    const shoppers = await addVerifiedFactor(shopper.id, 'Shopper phone');

    const { data, error } = await factorAdmin.aal2.rpc('admin_factors');
    expect(error).toBeNull();
    const rows = data as { user_id: string; factor_id: string; created_at: string }[];
    const ids = rows.map((r) => r.factor_id);
    expect(ids).toContain(verified);
    expect(ids).not.toContain(unverified);
    expect(ids).not.toContain(shoppers);
    expect(rows.find((r) => r.factor_id === verified)).toEqual({
      user_id: colleague.id,
      factor_id: verified,
      created_at: expect.any(String),
    });
    expect(JSON.stringify(rows)).not.toContain('JBSWY3DPEHPK3PXP');

    for (const client of [factorAdmin.aal1, shopperClient, anonClient()]) {
      const refused = await client.rpc('admin_factors');
      expect(refused.error?.code).toBe('42501');
    }
    await setRequireMfa(true);
    expect((await plain.aal1.rpc('admin_factors')).error?.code).toBe('42501');
    await sql('delete from auth.mfa_factors where id = any($1)', [
      [verified, unverified, shoppers],
    ]);
  });
});
