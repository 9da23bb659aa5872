// The activity log (REQ-LOG-1, REQ-LOG-2): written by the database's triggers with the actor taken
// from the request's verified JWT, readable by admins only, append-only for everyone including
// admins and the service role. Everything goes through supabase-js over HTTP; the service role
// reads the log afterwards as the independent observer. The role-by-action cells are in
// rls-matrix.test.ts.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../stack/auth/jwt.ts';
import {
  clientWithToken,
  sql,
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { catalogueSnapshot, deleteUsers, productFields } from './db-test-helpers.ts';
import { uniqueId, uniqueEmail } from '../support/names.ts';

type Entry = {
  id: number;
  actor: string | null;
  actor_email: string | null;
  kind: string;
  product_id: string | null;
  subject: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

const service = serviceClient();
const users: TestUser[] = [];
let admin: TestUser;
let otherAdmin: TestUser;
let shopper: TestUser;
let adminClient: SupabaseClient;
let catalogueBefore: unknown;

/** Log entries about `subject`, oldest first, as the service role sees them. */
async function entriesAbout(subject: string): Promise<Entry[]> {
  const { data, error } = await service
    .from('activity_log')
    .select('id, actor, actor_email, kind, product_id, subject, before, after')
    .eq('subject', subject)
    .order('id');
  if (error) throw new Error(error.message);
  return data as Entry[];
}

async function logSize(): Promise<number> {
  const [row] = await sql<{ n: string }>('select count(*) as n from public.activity_log');
  return Number(row!.n);
}

async function newestEntryId(): Promise<number> {
  const [row] = await sql<{ id: string }>('select max(id) as id from public.activity_log');
  return Number(row!.id);
}

beforeAll(async () => {
  catalogueBefore = await catalogueSnapshot(service);
  admin = await createAdmin();
  otherAdmin = await createAdmin();
  shopper = await createConfirmedUser();
  users.push(admin, otherAdmin, shopper);
  adminClient = await signedInClient(admin);
});

afterAll(async () => {
  await deleteUsers(service, users);
  expect(await catalogueSnapshot(service)).toEqual(catalogueBefore);
});

describe('what the triggers write', () => {
  it('product add, change (only the changed fields, before → after) and delete, by the admin', async () => {
    const cat = uniqueId('Log Cat');
    const title = uniqueId('Log Product');
    expect((await adminClient.from('catagories').insert({ title: cat })).error).toBeNull();
    const { data, error } = await adminClient
      .from('products')
      .insert(productFields(cat, title, '£10.00'))
      .select('id')
      .single();
    expect(error).toBeNull();
    const id = (data as { id: string }).id;
    const upd = await adminClient
      .from('products')
      .update({ price: '£12.50', com: 'Changed comment' })
      .eq('id', id);
    expect(upd.error).toBeNull();
    // Writing the same values again changes nothing an admin sees: no entry.
    await adminClient.from('products').update({ price: '£12.50' }).eq('id', id);
    expect((await adminClient.from('products').delete().eq('id', id)).error).toBeNull();
    expect((await adminClient.from('catagories').delete().eq('title', cat)).error).toBeNull();

    const entries = await entriesAbout(title);
    expect(entries.map((e) => e.kind)).toEqual([
      'product_added',
      'product_changed',
      'product_deleted',
    ]);
    for (const e of entries) {
      expect(e.actor).toBe(admin.id);
      expect(e.actor_email).toBe(admin.email);
      expect(e.product_id).toBe(id);
    }
    const [added, changed, deleted] = entries as [Entry, Entry, Entry];
    expect(added.before).toBeNull();
    // gtin: REQ-FEED-3 (none for a product added by hand).
    expect(added.after).toEqual({ ...productFields(cat, title, '£10.00'), gtin: null });
    expect(changed.before).toEqual({ price: '£10.00', com: 'Integration test product' });
    expect(changed.after).toEqual({ price: '£12.50', com: 'Changed comment' });
    expect(deleted.before).toMatchObject({ title, price: '£12.50' });
    expect(deleted.after).toBeNull();

    const catKinds = (await entriesAbout(cat)).map((e) => [e.kind, e.actor, e.product_id]);
    expect(catKinds).toEqual([
      ['category_added', admin.id, null],
      ['category_deleted', admin.id, null],
    ]);
  });

  it('a category rename logs the category change and each product it carried along', async () => {
    const cat = uniqueId('Rename Cat');
    const renamed = uniqueId('Renamed Cat');
    const title = uniqueId('Carried Product');
    await adminClient.from('catagories').insert({ title: cat });
    await adminClient.from('products').insert(productFields(cat, title));
    expect(
      (await adminClient.from('catagories').update({ title: renamed }).eq('title', cat)).error,
    ).toBeNull();

    const [change] = await entriesAbout(renamed);
    expect(change).toMatchObject({
      kind: 'category_changed',
      actor: admin.id,
      before: { title: cat },
      after: { title: renamed },
    });
    const carried = (await entriesAbout(title)).find((e) => e.kind === 'product_changed');
    expect(carried).toMatchObject({ actor: admin.id, before: { cat }, after: { cat: renamed } });

    await service.from('products').delete().eq('title', title);
    await service.from('catagories').delete().eq('title', renamed);
  });

  it('a bulk insert of 200 products writes 200 entries in the same statement', async () => {
    const cat = uniqueId('Bulk Cat');
    await adminClient.from('catagories').insert({ title: cat });
    const rows = Array.from({ length: 200 }, (_, i) => productFields(cat, `${cat} item ${i}`));
    expect((await adminClient.from('products').insert(rows)).error).toBeNull();
    const [row] = await sql<{ n: string; actors: string[] }>(
      `select count(*) as n, array_agg(distinct actor::text) as actors
         from public.activity_log where kind = 'product_added' and after ->> 'cat' = $1`,
      [cat],
    );
    expect(Number(row!.n)).toBe(200);
    expect(row!.actors).toEqual([admin.id]);
    await service.from('products').delete().eq('cat', cat);
    await service.from('catagories').delete().eq('title', cat);
  });

  it('admin events: invited and withdrawn by the admin; invited, confirmed and removed by the system', async () => {
    const withdrawn = uniqueEmail('log-withdrawn');
    expect((await adminClient.from('admin_invites').insert({ email: withdrawn })).error).toBeNull();
    expect(
      (await adminClient.from('admin_invites').delete().eq('email', withdrawn)).error,
    ).toBeNull();
    expect((await entriesAbout(withdrawn)).map((e) => [e.kind, e.actor])).toEqual([
      ['admin_invited', admin.id],
      ['invite_withdrawn', admin.id],
    ]);

    // createAdmin invites with the service role; the Auth server confirms: no account acts.
    const newcomer = await createAdmin();
    await service.from('admins').delete().eq('user_id', newcomer.id);
    users.push(newcomer);
    expect((await entriesAbout(newcomer.email)).map((e) => [e.kind, e.actor])).toEqual([
      ['admin_invited', null],
      ['admin_confirmed', null],
      ['admin_removed', null],
    ]);
  });
});

describe('who can read and write it', () => {
  it('only admins read it: anon and a signed-in non-admin see no entry', async () => {
    const shopperClient = await signedInClient(shopper);
    for (const client of [anonClient(), shopperClient]) {
      const { data } = await client.from('activity_log').select('id').limit(5);
      expect(data ?? []).toEqual([]);
    }
    const { data } = await adminClient.from('activity_log').select('id').limit(5);
    expect(data).toHaveLength(5);
  });

  it('nobody writes it through the API: non-admin, admin and service role are all refused', async () => {
    const shopperClient = await signedInClient(shopper);
    const before = await logSize();
    const newest = await newestEntryId();
    const [newestRow] = await sql('select * from public.activity_log where id = $1', [newest]);
    for (const client of [anonClient(), shopperClient, adminClient, service]) {
      const forged = await client
        .from('activity_log')
        .insert({ kind: 'admin_removed', subject: 'forged', actor: otherAdmin.id });
      expect(forged.error).not.toBeNull();
      await client.from('activity_log').update({ subject: 'rewritten' }).eq('id', newest);
      await client.from('activity_log').delete().gte('id', 0);
    }
    expect(await logSize()).toBe(before);
    expect(await sql('select * from public.activity_log where id = $1', [newest])).toEqual([
      newestRow,
    ]);
  });

  it('TRUNCATE and UPDATE are refused even for the owner, by the append-only trigger', async () => {
    const before = await logSize();
    await expect(sql('truncate public.activity_log')).rejects.toThrow(/append-only/);
    await expect(sql('update public.activity_log set subject = $1', ['x'])).rejects.toThrow(
      /append-only/,
    );
    await expect(sql('delete from public.activity_log')).rejects.toThrow(/append-only/);
    expect(await logSize()).toBe(before);
  });
});

describe('the actor cannot be forged', () => {
  it('an actor column sent with a catalogue write is refused and nothing is written', async () => {
    const cat = uniqueId('Forge Cat');
    const before = await logSize();
    const { error } = await adminClient
      .from('catagories')
      .insert({ title: cat, actor: otherAdmin.id } as never);
    expect(error).not.toBeNull();
    expect(await logSize()).toBe(before);
    expect(await entriesAbout(cat)).toEqual([]);
  });

  it("a token whose sub was edited to another admin's id is rejected; a real one logs its own id", async () => {
    const { data } = await adminClient.auth.getSession();
    const token = data.session!.access_token;
    const [head, body, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const edited = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: otherAdmin.id })).toString('base64url')}.${sig}`;
    const resigned = signJwt(
      { ...claims, sub: otherAdmin.id },
      'not-the-stack-secret-but-at-least-32-characters-long',
    );
    for (const bad of [edited, resigned]) {
      const cat = uniqueId('Forged Sub Cat');
      const { error } = await clientWithToken(bad).from('catagories').insert({ title: cat });
      expect(error, 'a forged token is refused').not.toBeNull();
      expect(await entriesAbout(cat)).toEqual([]);
    }
    const cat = uniqueId('Real Sub Cat');
    await adminClient.from('catagories').insert({ title: cat });
    expect((await entriesAbout(cat)).map((e) => e.actor)).toEqual([admin.id]);
    await service.from('catagories').delete().eq('title', cat);
  });

  it('a client cannot set request.jwt.claims: set_config is not reachable through the API', async () => {
    const claims = JSON.stringify({ sub: otherAdmin.id, role: 'authenticated' });
    const { error } = await adminClient.rpc(
      'set_config' as never,
      {
        setting_name: 'request.jwt.claims',
        new_value: claims,
        is_local: false,
      } as never,
    );
    expect(error).not.toBeNull();
    // Nor through a request header PostgREST might pass on: the claims come from the JWT only.
    const cat = uniqueId('Header Claims Cat');
    const res = await fetch(`${stackEnv().REST_URL}/catagories`, {
      method: 'POST',
      headers: {
        apikey: stackEnv().ANON_KEY,
        authorization: `Bearer ${(await adminClient.auth.getSession()).data.session!.access_token}`,
        'content-type': 'application/json',
        'request.jwt.claims': claims,
        'x-request-jwt-claims': claims,
      },
      body: JSON.stringify({ title: cat }),
    });
    expect(res.status).toBe(201);
    expect((await entriesAbout(cat)).map((e) => e.actor)).toEqual([admin.id]);
    await service.from('catagories').delete().eq('title', cat);
  });
});
