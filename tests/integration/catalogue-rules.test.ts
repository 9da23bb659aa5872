// Rules the database enforces on the catalogue whatever client writes, exercised as a signed-in
// admin through supabase-js (the admin is the only API role allowed to write, so these are the
// checks that matter). Every row is uniquely named and removed afterwards; the seeded catalogue is
// left untouched.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers, productFields, catalogueSnapshot } from './db-test-helpers.ts';
import { serviceClient, signedInClient, type TestUser, createAdmin } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

let catalogueBefore: unknown;

let admin: SupabaseClient;
let adminUser: TestUser;
const service = serviceClient();
const categoryIds: string[] = [];

/** Creates a category as the admin and registers it (by id) for cleanup. */
async function addCategory(title = uniqueId('Rules Cat')): Promise<{ id: string; title: string }> {
  const { data, error } = await admin
    .from('catagories')
    .insert({ title })
    .select('id, title')
    .single();
  if (error) throw new Error(`add category failed: ${error.message}`);
  categoryIds.push(data.id);
  return data;
}

beforeAll(async () => {
  catalogueBefore = await catalogueSnapshot(service);
  adminUser = await createAdmin();
  admin = await signedInClient(adminUser);
});

afterAll(async () => {
  for (const id of categoryIds) {
    const { data } = await service.from('catagories').select('title').eq('id', id).maybeSingle();
    if (!data) continue;
    await service.from('products').delete().eq('cat', data.title);
    await service.from('catagories').delete().eq('id', id);
  }
  await deleteUsers(service, [adminUser]);

  // The seeded catalogue (and anything other files created) is exactly as before.
  expect(await catalogueSnapshot(service)).toEqual(catalogueBefore);
});

describe('titles', () => {
  it('refuses a duplicate category title ignoring case and surrounding spaces', async () => {
    const cat = await addCategory();
    const { error } = await admin
      .from('catagories')
      .insert({ title: `  ${cat.title.toUpperCase()} ` });
    expect(error?.code).toBe('23505');
    const { count } = await service
      .from('catagories')
      .select('id', { count: 'exact', head: true })
      .ilike('title', cat.title);
    expect(count).toBe(1);
  });

  it('refuses renaming a category onto an existing title in another case', async () => {
    const a = await addCategory();
    const b = await addCategory();
    const { error } = await admin
      .from('catagories')
      .update({ title: a.title.toLowerCase() })
      .eq('id', b.id);
    expect(error?.code).toBe('23505');
  });

  it('refuses a duplicate product title ignoring case', async () => {
    const cat = await addCategory();
    const title = uniqueId('Rules Product');
    expect((await admin.from('products').insert(productFields(cat.title, title))).error).toBeNull();
    const { error } = await admin
      .from('products')
      .insert(productFields(cat.title, ` ${title.toUpperCase()}`));
    expect(error?.code).toBe('23505');
  });

  it('stores titles trimmed and refuses blank or over-long ones', async () => {
    const raw = uniqueId('Trimmed Cat');
    const cat = await addCategory(`   ${raw}   `);
    expect(cat.title).toBe(raw);

    expect((await admin.from('catagories').insert({ title: '   ' })).error?.code).toBe('23514');
    expect((await admin.from('catagories').insert({ title: 'x'.repeat(81) })).error?.code).toBe(
      '23514',
    );
    const long = productFields(cat.title, `${uniqueId('P')}${'x'.repeat(120)}`);
    expect((await admin.from('products').insert(long)).error?.code).toBe('23514');
  });

  it('limits the price as stored, padding included, and keeps it as typed', async () => {
    const cat = await addCategory(uniqueId('Price Cat'));
    const padded = productFields(cat.title, uniqueId('Padded'), `5${' '.repeat(5000)}`);
    expect((await admin.from('products').insert(padded)).error?.code).toBe('23514');
    expect(
      (await admin.from('products').insert(productFields(cat.title, uniqueId('Blank'), '   ')))
        .error?.code,
    ).toBe('23514');
    const longest = `£${'9'.repeat(39)}`;
    const { data, error } = await admin
      .from('products')
      .insert(productFields(cat.title, uniqueId('Forty'), longest))
      .select('price')
      .single();
    expect(error).toBeNull();
    expect(data!.price).toBe(longest);
  });
});

describe('links and images', () => {
  it('refuses javascript: and data: URLs and accepts http(s) and site paths', async () => {
    const cat = await addCategory();
    const refused = [
      { link: 'javascript:alert(1)' },
      { link: 'JavaScript:alert(document.cookie)' },
      { link: 'data:text/html,<script>alert(1)</script>' },
      { link: 'ftp://example.com/file' },
      { link: 'https://exa mple.com' },
      { image: 'javascript:alert(1)' },
      { image: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' },
      { image: '//evil.example.com/x.png' },
    ];
    for (const patch of refused) {
      const title = uniqueId('Bad Url');
      const { error } = await admin
        .from('products')
        .insert({ ...productFields(cat.title, title), ...patch });
      expect(error?.code, JSON.stringify(patch)).toBe('23514');
      const { data } = await service.from('products').select('id').eq('title', title);
      expect(data).toEqual([]);
    }

    const accepted = [
      { link: 'https://shop.example.com/item?id=1#top', image: 'https://cdn.example.com/a.png' },
      { link: 'http://example.org', image: '/products/match-football.svg' },
    ];
    for (const patch of accepted) {
      const { error } = await admin
        .from('products')
        .insert({ ...productFields(cat.title, uniqueId('Good Url')), ...patch });
      expect(error, JSON.stringify(patch)).toBeNull();
    }
  });

  it('refuses turning an existing link into javascript:', async () => {
    const cat = await addCategory();
    const { data: p } = await admin
      .from('products')
      .insert(productFields(cat.title, uniqueId('Link Update')))
      .select('id, link')
      .single();
    const { error } = await admin
      .from('products')
      .update({ link: 'javascript:alert(1)' })
      .eq('id', p!.id);
    expect(error?.code).toBe('23514');
    const { data: after } = await service.from('products').select('link').eq('id', p!.id).single();
    expect(after!.link).toBe(p!.link);
  });
});

describe('categories and their products', () => {
  it('renaming a category moves its products along', async () => {
    const cat = await addCategory();
    const titles = [uniqueId('Move A'), uniqueId('Move B')];
    for (const t of titles) {
      expect((await admin.from('products').insert(productFields(cat.title, t))).error).toBeNull();
    }
    const renamed = uniqueId('Renamed Cat');
    const { error } = await admin.from('catagories').update({ title: renamed }).eq('id', cat.id);
    expect(error).toBeNull();

    const { data } = await service.from('products').select('title, cat').in('title', titles);
    expect(data).toHaveLength(2);
    expect(data!.every((p) => p.cat === renamed)).toBe(true);
    const { count } = await service
      .from('products')
      .select('id', { count: 'exact', head: true })
      .eq('cat', cat.title);
    expect(count).toBe(0);
  });

  it('refuses deleting a category that still has products, saying why', async () => {
    const cat = await addCategory();
    const { data: p } = await admin
      .from('products')
      .insert(productFields(cat.title, uniqueId('Keeps Cat')))
      .select('id')
      .single();

    const { error } = await admin.from('catagories').delete().eq('id', cat.id);
    expect(error?.code).toBe('23503');
    expect(error?.message).toBe('Catagory still has products');
    const { data: still } = await service.from('catagories').select('id').eq('id', cat.id);
    expect(still).toHaveLength(1);

    // Once empty it can go.
    expect((await admin.from('products').delete().eq('id', p!.id)).error).toBeNull();
    expect((await admin.from('catagories').delete().eq('id', cat.id)).error).toBeNull();
    const { data: gone } = await service.from('catagories').select('id').eq('id', cat.id);
    expect(gone).toEqual([]);
  });

  it('refuses a product whose category does not exist', async () => {
    const { error } = await admin
      .from('products')
      .insert(productFields(uniqueId('No Such Cat'), uniqueId('Orphan')));
    expect(error?.code).toBe('23503');
  });
});

describe('database-assigned fields', () => {
  it('sets id and created_at on insert, ignoring values the client sends', async () => {
    const cat = await addCategory();
    const forgedId = '00000000-0000-4000-8000-000000000123';
    const { data, error } = await admin
      .from('products')
      .insert({
        ...productFields(cat.title, uniqueId('Forged')),
        id: forgedId,
        created_at: '2000-01-01T00:00:00Z',
      })
      .select('id, created_at')
      .single();
    expect(error).toBeNull();
    expect(data!.id).not.toBe(forgedId);
    expect(Date.now() - new Date(data!.created_at).getTime()).toBeLessThan(5 * 60_000);
  });

  it('refuses changing created_at of a product or a category', async () => {
    const cat = await addCategory();
    const { data: p } = await admin
      .from('products')
      .insert(productFields(cat.title, uniqueId('Immutable')))
      .select('id, created_at')
      .single();

    const { error } = await admin
      .from('products')
      .update({ created_at: '2001-01-01T00:00:00Z' })
      .eq('id', p!.id);
    expect(error?.code).toBe('23514');
    expect(error?.message).toBe('created_at cannot be changed');
    const { data: after } = await service
      .from('products')
      .select('created_at')
      .eq('id', p!.id)
      .single();
    expect(after!.created_at).toBe(p!.created_at);

    const { data: c } = await service
      .from('catagories')
      .select('created_at')
      .eq('id', cat.id)
      .single();
    const catUpdate = await admin
      .from('catagories')
      .update({ created_at: '2001-01-01T00:00:00Z' })
      .eq('id', cat.id);
    expect(catUpdate.error?.code).toBe('23514');
    const { data: cAfter } = await service
      .from('catagories')
      .select('created_at')
      .eq('id', cat.id)
      .single();
    expect(cAfter!.created_at).toBe(c!.created_at);

    // An ordinary edit keeps created_at as it was.
    expect(
      (await admin.from('products').update({ price: '£1.00' }).eq('id', p!.id)).error,
    ).toBeNull();
    const { data: edited } = await service
      .from('products')
      .select('created_at')
      .eq('id', p!.id)
      .single();
    expect(edited!.created_at).toBe(p!.created_at);
  });
});

describe('price order', () => {
  it('orders by the numeric value of the price text, no-number prices last', async () => {
    const cat = await addCategory();
    const prices: [string, string][] = [
      ['P 19.99', '19.99'],
      ['P no price', 'Price on request'],
      ['P 12.50', '£12.50'],
      ['P 9.99', '9.99'],
      ['P 5', '£5'],
      ['P 1299', '£1,299.00'],
      ['P 100', '100'],
    ];
    for (const [title, price] of prices) {
      const { error } = await admin
        .from('products')
        .insert(productFields(cat.title, `${title} ${cat.id}`, price));
      expect(error).toBeNull();
    }
    // The storefront's query (visitors read the same way).
    const { data, error } = await serviceClient()
      .from('products')
      .select('title, price, price_value')
      .eq('cat', cat.title)
      .order('price_value', { ascending: true, nullsFirst: false })
      .order('title', { ascending: true })
      .order('id', { ascending: true });
    expect(error).toBeNull();
    expect(data!.map((p) => p.price)).toEqual([
      '£5',
      '9.99',
      '£12.50',
      '19.99',
      '100',
      '£1,299.00',
      'Price on request',
    ]);
    expect(data!.at(-1)!.price_value).toBeNull();
  });
});
