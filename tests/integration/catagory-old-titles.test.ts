// Old names of renamed categories (REQ-FIND-8; migration …2000): a shared `/?cat=Hockey` keeps
// working after Hockey is renamed. An admin renames through the API as the admin area does; the
// visitor resolves the old name through public.catagory_current_title, which answers only the
// current (public) name. Nobody writes the history directly, the service role included.
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers } from './db-test-helpers.ts';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
const anon = anonClient();
const users: TestUser[] = [];
let admin: SupabaseClient;
let shopper: SupabaseClient;
const created: string[] = [];

async function addCategory(client: SupabaseClient, title: string): Promise<string> {
  const { data, error } = await client.from('catagories').insert({ title }).select('id').single();
  if (error) throw new Error(`insert ${title}: ${error.message}`);
  created.push((data as { id: string }).id);
  return (data as { id: string }).id;
}

async function rename(id: string, title: string): Promise<void> {
  const { error } = await admin.from('catagories').update({ title }).eq('id', id);
  if (error) throw new Error(`rename to ${title}: ${error.message}`);
}

async function currentTitle(client: SupabaseClient, title: string): Promise<unknown> {
  const { data, error } = await client.rpc('catagory_current_title', { p_title: title });
  if (error) throw new Error(error.message);
  return data;
}

beforeAll(async () => {
  const adminUser = await createAdmin();
  const shopperUser = await createConfirmedUser();
  users.push(adminUser, shopperUser);
  admin = await signedInClient(adminUser);
  shopper = await signedInClient(shopperUser);
});

afterAll(async () => {
  if (created.length) await service.from('catagories').delete().in('id', created);
  await deleteUsers(service, users);
});

describe('catagory_current_title', () => {
  it('takes an old name to the category under its new name, for every visitor', async () => {
    const hockey = uniqueId('Hockey');
    const ice = uniqueId('Ice Hockey');
    const id = await addCategory(admin, hockey);
    await rename(id, ice);
    for (const client of [anon, shopper, admin, service]) {
      expect(await currentTitle(client, hockey)).toBe(ice);
      // Matched like the unique titles: case and surrounding spaces do not matter.
      expect(await currentTitle(client, ` ${hockey.toUpperCase()} `)).toBe(ice);
      expect(await currentTitle(client, ice)).toBe(ice);
    }
  });

  it('follows several renames, and a current title always wins over an old one', async () => {
    const a = uniqueId('Chain A');
    const b = uniqueId('Chain B');
    const c = uniqueId('Chain C');
    const id = await addCategory(admin, a);
    await rename(id, b);
    await rename(id, c);
    expect(await currentTitle(anon, a)).toBe(c);
    expect(await currentTitle(anon, b)).toBe(c);
    // A new category may take an old name: it is then that category.
    await addCategory(admin, a);
    expect(await currentTitle(anon, a)).toBe(a);
    expect(await currentTitle(anon, b)).toBe(c);
  });

  it('answers null for a name nobody had, and once the category is deleted', async () => {
    expect(await currentTitle(anon, uniqueId('Never'))).toBeNull();
    expect(await currentTitle(anon, 'x'.repeat(5000))).toBeNull();
    const old = uniqueId('Gone');
    const id = await addCategory(admin, old);
    await rename(id, uniqueId('Gone Renamed'));
    const { error } = await admin.from('catagories').delete().eq('id', id);
    expect(error).toBeNull();
    expect(await currentTitle(anon, old)).toBeNull();
  });

  it('a rename by the service role (scripts) is remembered too', async () => {
    const old = uniqueId('Script Old');
    const now = uniqueId('Script New');
    const id = await addCategory(service, old);
    const { error } = await service.from('catagories').update({ title: now }).eq('id', id);
    expect(error).toBeNull();
    expect(await currentTitle(anon, old)).toBe(now);
  });
});

describe('the history itself', () => {
  it('is not reachable through the API, for any role', async () => {
    for (const client of [anon, shopper, admin, service]) {
      const read = await client.schema('private').from('catagory_old_titles').select('*');
      expect(read.error, 'private is not an exposed schema').not.toBeNull();
      expect(read.data).toBeNull();
      const write = await client
        .schema('private')
        .from('catagory_old_titles')
        .insert({ old_key: 'tennis', old_title: 'Tennis', catagory_id: created[0] });
      expect(write.error).not.toBeNull();
    }
  });

  it('refuses direct reads and writes by every API role in the database too', async () => {
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    try {
      const old = uniqueId('Direct');
      const id = await addCategory(service, old);
      for (const role of ['anon', 'authenticated', 'service_role']) {
        for (const sql of [
          'select * from private.catagory_old_titles',
          `insert into private.catagory_old_titles (old_key, old_title, catagory_id)
             values ('direct-${role}', 'Direct', '${id}')`,
          `update private.catagory_old_titles set catagory_id = '${id}'`,
          'delete from private.catagory_old_titles',
          // The trigger function is not callable by itself either.
          'select private.catagories_remember_old_title()',
        ]) {
          await db.query('begin');
          try {
            await db.query(`set local role ${role}`);
            await expect(db.query(sql), `${role}: ${sql}`).rejects.toMatchObject({
              code: expect.stringMatching(/^(42501|0A000|42883)$/),
            });
          } finally {
            await db.query('rollback');
          }
        }
      }
    } finally {
      await db.end();
    }
  });
});
