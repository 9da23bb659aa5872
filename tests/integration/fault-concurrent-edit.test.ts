// Two admins edit the same product: a write guarded by the updated_at loaded with Get leaves the
// slower admin's write out, instead of silently overwriting the first. Direct table writes,
// through supabase-js over HTTP, with two real admin sessions (the form's own write is the
// admin_update_product RPC, which answers "stale": admin-writes.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import { serviceClient, signedInClient, type TestUser, createAdmin } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
let admins: TestUser[] = [];
let cat: string;
let id: string;

beforeAll(async () => {
  admins = [await createAdmin(), await createAdmin()];
  cat = uniqueId('EditCat');
  await service.from('catagories').insert({ title: cat });
  const p = await service
    .from('products')
    .insert(productFields(cat, uniqueId('Edited')))
    .select('id')
    .single();
  if (p.error) throw new Error(p.error.message);
  id = (p.data as { id: string }).id;
});

afterAll(async () => {
  await service.from('products').delete().eq('cat', cat);
  await service.from('catagories').delete().eq('title', cat);
  await deleteUsers(service, admins);
});

describe('optimistic concurrency on products', () => {
  it('the second of two admins who loaded the same version writes nothing', async () => {
    const [a, b] = await Promise.all(admins.map((u) => signedInClient(u)));
    const loadA = await a!.from('products').select('updated_at').eq('id', id).single();
    const loadB = await b!.from('products').select('updated_at').eq('id', id).single();
    const version = (loadA.data as { updated_at: string }).updated_at;
    expect((loadB.data as { updated_at: string }).updated_at).toBe(version);

    const first = await a!
      .from('products')
      .update({ price: '£1 (A)' })
      .eq('id', id)
      .eq('updated_at', version)
      .select('updated_at');
    expect(first.error).toBeNull();
    expect(first.data).toHaveLength(1);
    expect(Date.parse((first.data![0] as { updated_at: string }).updated_at)).toBeGreaterThan(
      Date.parse(version),
    );

    const second = await b!
      .from('products')
      .update({ price: '£2 (B)' })
      .eq('id', id)
      .eq('updated_at', version)
      .select('updated_at');
    expect(second.error).toBeNull();
    expect(second.data).toEqual([]);
    const { data } = await service.from('products').select('price').eq('id', id).single();
    expect(data).toEqual({ price: '£1 (A)' });
  });

  it('clients cannot set updated_at themselves (so a stale version cannot be forged fresh)', async () => {
    const a = await signedInClient(admins[0]!);
    const before = (await service.from('products').select('updated_at').eq('id', id).single())
      .data as { updated_at: string };
    const res = await a
      .from('products')
      .update({ updated_at: '2000-01-01T00:00:00Z' })
      .eq('id', id)
      .select('updated_at')
      .single();
    expect(res.error).toBeNull();
    expect(Date.parse((res.data as { updated_at: string }).updated_at)).toBeGreaterThan(
      Date.parse(before.updated_at),
    );
    const ins = await a
      .from('products')
      .insert({ ...productFields(cat, uniqueId('Stamped')), updated_at: '2000-01-01T00:00:00Z' })
      .select('updated_at')
      .single();
    expect(Date.parse((ins.data as { updated_at: string }).updated_at)).toBeGreaterThan(
      Date.parse('2020-01-01'),
    );
  });
});
