// REQ-PATH-16: the owner's inbox state of contact messages (read, archived) lives in the database;
// admins change it with supabase-js over HTTP as the Messages tab does, anyone else changes
// nothing, and bad input (other columns, values that are not true or false) changes nothing.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonClient,
  createAdmin,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  sql,
  stackEnv,
  type TestUser,
} from '../support/stack.ts';
import { deleteUsers } from './db-test-helpers.ts';
import { uniqueEmail } from '../support/names.ts';

const env = stackEnv();
const service = serviceClient(env);
const users: TestUser[] = [];
let admin: SupabaseClient;
let shopper: SupabaseClient;
let rowId = '';

interface Stored {
  name: string;
  message: string;
  delivery_status: string;
  is_read: boolean;
  archived: boolean;
}

async function stored(): Promise<Stored> {
  const [row] = await sql<Stored>(
    'select name, message, delivery_status, is_read, archived from public.contact_messages where id = $1',
    [rowId],
    env,
  );
  return row!;
}

const FRESH = { is_read: false, archived: false };

beforeAll(async () => {
  const { data, error } = await service
    .from('contact_messages')
    .insert({ name: 'Inbox Test', email: uniqueEmail('inbox'), message: 'Do you ship to Cork?' })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  rowId = (data as { id: string }).id;
  const adminUser = await createAdmin();
  const shopperUser = await createConfirmedUser();
  users.push(adminUser, shopperUser);
  admin = await signedInClient(adminUser, env);
  shopper = await signedInClient(shopperUser, env);
});

afterAll(async () => {
  await service.from('contact_messages').delete().eq('id', rowId);
  await deleteUsers(service, users);
});

describe('REQ-PATH-16 contact inbox', () => {
  it('a new message is unread and in the inbox; the admin reads it and counts it unread', async () => {
    expect(await stored()).toMatchObject(FRESH);
    const list = await admin
      .from('contact_messages')
      .select('id,is_read,archived')
      .eq('id', rowId)
      .single();
    expect(list.error).toBeNull();
    expect(list.data).toMatchObject({ id: rowId, ...FRESH });
    const unread = await admin
      .from('contact_messages')
      .select('id', { count: 'exact', head: true })
      .eq('is_read', false)
      .eq('archived', false);
    expect(unread.error).toBeNull();
    expect(unread.count).toBeGreaterThanOrEqual(1);
  });

  it('a signed-in shopper and an anonymous visitor change nothing', async () => {
    const asShopper = await shopper
      .from('contact_messages')
      .update({ is_read: true, archived: true })
      .eq('id', rowId)
      .select('id');
    // RLS: the shopper sees no row, so none is updated.
    expect(asShopper.data ?? []).toEqual([]);
    const asAnon = await anonClient(env)
      .from('contact_messages')
      .update({ is_read: true })
      .eq('id', rowId)
      .select('id');
    expect(asAnon.error?.code).toBe('42501');
    expect(await stored()).toMatchObject(FRESH);
  });

  it('bad input changes nothing: other columns, or values that are not true or false', async () => {
    const before = await stored();
    const attempts: Record<string, unknown>[] = [
      { message: 'changed by an admin' },
      { is_read: true, name: 'Someone Else' },
      { archived: true, delivery_status: 'sent' },
      { is_read: 'maybe' },
      { archived: null },
    ];
    for (const change of attempts) {
      const { data, error } = await admin
        .from('contact_messages')
        .update(change)
        .eq('id', rowId)
        .select('id');
      expect(error, JSON.stringify(change)).not.toBeNull();
      expect(data).toBeNull();
    }
    expect(await stored()).toEqual(before);
  });

  it('the admin marks it read, archives it, and moves it back unread', async () => {
    const mark = (change: Partial<typeof FRESH>) =>
      admin.from('contact_messages').update(change).eq('id', rowId).select('id,is_read,archived');
    const read = await mark({ is_read: true });
    expect(read.error).toBeNull();
    expect(read.data).toEqual([{ id: rowId, is_read: true, archived: false }]);
    expect((await mark({ archived: true })).data).toEqual([
      { id: rowId, is_read: true, archived: true },
    ]);
    expect(await stored()).toMatchObject({ is_read: true, archived: true });
    const back = await mark({ is_read: false, archived: false });
    expect(back.data).toEqual([{ id: rowId, ...FRESH }]);
    // The visitor's words and the delivery record stay as the function stored them.
    expect(await stored()).toMatchObject({ name: 'Inbox Test', message: 'Do you ship to Cork?' });
  });
});
