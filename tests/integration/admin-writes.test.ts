// The admin forms' writes, one RPC each (docs/decisions/0223), over HTTP with supabase-js as the
// SPA calls them: only admins; the title check, the version check and the write in one
// transaction, so a look-alike title or a newer version is an answer ("title_in_use", "stale"),
// never a half-done write; and what the browser must clean up afterwards (an uploaded picture
// nothing shows any more). The service role observes what really changed.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texts } from '../../src/adminTexts';
import { deleteUsers, productFields } from './db-test-helpers.ts';
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
const users: TestUser[] = [];
let admin: SupabaseClient;
let otherAdmin: SupabaseClient;
let plain: SupabaseClient;
const cat = uniqueId('Writes Cat');

/** A URL of the shape an upload to the product-images bucket has. */
const uploadUrl = () =>
  `${stackEnv().API_URL}/storage/v1/object/public/product-images/${crypto.randomUUID()}/1200.webp`;

const args = (title: string, image = '/products/match-football.svg') => {
  const f = productFields(cat, title);
  return {
    p_title: f.title,
    p_cat: f.cat,
    p_price: f.price,
    p_com: f.com,
    p_image: image,
    p_link: f.link,
  };
};

async function product(title: string, image?: string): Promise<{ id: string; version: string }> {
  const { data, error } = await service
    .from('products')
    .insert({ ...productFields(cat, title), ...(image ? { image } : {}) })
    .select('id, updated_at')
    .single();
  if (error) throw new Error(error.message);
  return { id: data.id as string, version: data.updated_at as string };
}

async function row(id: string) {
  const { data } = await service.from('products').select('title, price, image').eq('id', id);
  return data?.[0] ?? null;
}

beforeAll(async () => {
  const a = await createAdmin();
  const b = await createAdmin();
  const u = await createConfirmedUser();
  users.push(a, b, u);
  [admin, otherAdmin, plain] = await Promise.all([a, b, u].map((x) => signedInClient(x)));
  expect((await service.from('catagories').insert({ title: cat })).error).toBeNull();
});

afterAll(async () => {
  await service.from('products').delete().eq('cat', cat);
  await service.from('catagories').delete().ilike('title', `${cat}%`);
  await deleteUsers(service, users);
});

describe('admin_update_product', () => {
  it('refuses anyone but an admin (42501) and changes nothing', async () => {
    const p = await product(uniqueId('Refused'));
    const before = await row(p.id);
    for (const caller of [anonClient(), plain]) {
      const { data, error } = await caller.rpc('admin_update_product', {
        p_id: p.id,
        p_loaded_updated_at: p.version,
        ...args(uniqueId('Taken over')),
      });
      expect(data).toBeNull();
      expect(error?.code).toBe('42501');
    }
    expect(await row(p.id)).toEqual(before);
  });

  it('writes the loaded version: "changed", and the unused upload to remove', async () => {
    const picture = uploadUrl();
    const p = await product(uniqueId('Pictured'), picture);
    const title = uniqueId('Renamed');
    const { data, error } = await admin.rpc('admin_update_product', {
      p_id: p.id,
      p_loaded_updated_at: p.version,
      ...args(title, '/products/match-football.svg'),
    });
    expect(error).toBeNull();
    expect(data).toEqual({ result: 'changed', unused_image: picture });
    expect(await row(p.id)).toEqual({
      title,
      price: '£10.00',
      image: '/products/match-football.svg',
    });
  });

  it('keeps an upload another product still shows, and a link or site path is never "unused"', async () => {
    const shared = uploadUrl();
    const p = await product(uniqueId('Shared A'), shared);
    await product(uniqueId('Shared B'), shared);
    const first = await admin.rpc('admin_update_product', {
      p_id: p.id,
      p_loaded_updated_at: p.version,
      ...args(uniqueId('Shared A2'), 'https://example.com/picture.jpg'),
    });
    expect(first.data).toEqual({ result: 'changed', unused_image: null });
    const q = await product(uniqueId('Linked'), 'https://example.com/other.jpg');
    const second = await admin.rpc('admin_update_product', {
      p_id: q.id,
      p_loaded_updated_at: q.version,
      ...args(uniqueId('Linked 2')),
    });
    expect(second.data).toEqual({ result: 'changed', unused_image: null });
  });

  it('a version changed since Get is "stale" and nothing is written', async () => {
    const p = await product(uniqueId('Stale'));
    const first = await otherAdmin.rpc('admin_update_product', {
      p_id: p.id,
      p_loaded_updated_at: p.version,
      ...args(uniqueId('First wins')),
    });
    expect(first.data).toMatchObject({ result: 'changed' });
    const afterFirst = await row(p.id);
    const second = await admin.rpc('admin_update_product', {
      p_id: p.id,
      p_loaded_updated_at: p.version,
      ...args(uniqueId('Second loses')),
    });
    expect(second.error).toBeNull();
    expect(second.data).toEqual({ result: 'stale' });
    expect(await row(p.id)).toEqual(afterFirst);
  });

  it('a product that is gone is "not_found"', async () => {
    const p = await product(uniqueId('Gone'));
    await service.from('products').delete().eq('id', p.id);
    const { data, error } = await admin.rpc('admin_update_product', {
      p_id: p.id,
      p_loaded_updated_at: p.version,
      ...args(uniqueId('Ghost')),
    });
    expect(error).toBeNull();
    expect(data).toEqual({ result: 'not_found' });
  });

  it(`a look-alike of another product's title is "title_in_use" ("${texts.validation.titleInUse}")`, async () => {
    const taken = uniqueId('Crème Taken');
    await product(taken);
    const p = await product(uniqueId('Wants it'));
    const before = await row(p.id);
    const { data, error } = await admin.rpc('admin_update_product', {
      p_id: p.id,
      p_loaded_updated_at: p.version,
      ...args(`  ${taken.toUpperCase().replace('CRÈME', 'CREME')} `),
    });
    expect(error).toBeNull();
    expect(data).toEqual({ result: 'title_in_use' });
    expect(await row(p.id)).toEqual(before);
  });

  it('two admins renaming two products to one new title at once: one "changed", one "title_in_use"', async () => {
    const [p, q] = [await product(uniqueId('Race A')), await product(uniqueId('Race B'))];
    const title = uniqueId('Raced title');
    const answers = await Promise.all(
      [
        [admin, p],
        [otherAdmin, q],
      ].map(([client, target]) =>
        (client as SupabaseClient).rpc('admin_update_product', {
          p_id: (target as typeof p).id,
          p_loaded_updated_at: (target as typeof p).version,
          ...args(title),
        }),
      ),
    );
    expect(answers.map((a) => a.error)).toEqual([null, null]);
    expect(answers.map((a) => (a.data as { result: string }).result).sort()).toEqual([
      'changed',
      'title_in_use',
    ]);
    const { data } = await service.from('products').select('id').eq('title', title);
    expect(data).toHaveLength(1);
  });
});

describe('admin_add_product and admin_delete_product', () => {
  it('add: "added", or "title_in_use" for a look-alike; non-admins refused', async () => {
    const title = uniqueId('Added');
    const added = await admin.rpc('admin_add_product', args(title));
    expect(added.error).toBeNull();
    expect(added.data).toMatchObject({ result: 'added', id: expect.any(String) });
    const again = await admin.rpc('admin_add_product', args(title.toLowerCase()));
    expect(again.data).toEqual({ result: 'title_in_use' });
    const refused = await plain.rpc('admin_add_product', args(uniqueId('Not mine')));
    expect(refused.error?.code).toBe('42501');
    const { data } = await service.from('products').select('id').ilike('title', title);
    expect(data).toHaveLength(1);
  });

  it('delete: "deleted" with the unused upload, then "not_found"; non-admins refused', async () => {
    const picture = uploadUrl();
    const p = await product(uniqueId('Deleted'), picture);
    const refused = await plain.rpc('admin_delete_product', { p_id: p.id });
    expect(refused.error?.code).toBe('42501');
    expect(await row(p.id)).not.toBeNull();
    const deleted = await admin.rpc('admin_delete_product', { p_id: p.id });
    expect(deleted.data).toEqual({ result: 'deleted', unused_image: picture });
    expect(await row(p.id)).toBeNull();
    const again = await admin.rpc('admin_delete_product', { p_id: p.id });
    expect(again.data).toEqual({ result: 'not_found' });
  });
});

describe('admin_add_catagory and admin_update_catagory', () => {
  it('add, rename (products follow), look-alike, missing, non-admin', async () => {
    const title = `${cat} New`;
    const added = await admin.rpc('admin_add_catagory', { p_title: title });
    expect(added.data).toMatchObject({ result: 'added' });
    const id = (added.data as { id: string }).id;
    expect((await admin.rpc('admin_add_catagory', { p_title: title.toUpperCase() })).data).toEqual({
      result: 'title_in_use',
    });
    expect(
      (await admin.rpc('admin_update_catagory', { p_id: id, p_title: cat.toLowerCase() })).data,
    ).toEqual({ result: 'title_in_use' });
    const refused = await plain.rpc('admin_update_catagory', { p_id: id, p_title: `${cat} X` });
    expect(refused.error?.code).toBe('42501');
    const renamed = await admin.rpc('admin_update_catagory', {
      p_id: id,
      p_title: `${cat} Renamed`,
    });
    expect(renamed.data).toEqual({ result: 'changed' });
    const missing = await admin.rpc('admin_update_catagory', {
      p_id: crypto.randomUUID(),
      p_title: uniqueId('Nowhere'),
    });
    expect(missing.data).toEqual({ result: 'not_found' });
    const { data } = await service.from('catagories').select('title').eq('id', id);
    expect(data).toEqual([{ title: `${cat} Renamed` }]);
  });
});
