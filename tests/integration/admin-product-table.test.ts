// The admin product table served by the database (REQ-SCALE-1, REQ-SCALE-2): search (case, accents,
// typos) in title, category and comment, category filter, sort, pages, counts, and the bulk actions
// — as the admin area's own modules call them, with a real supabase-js client signed in as an admin
// (and as a non-admin, who is refused and changes nothing).
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedBulk } from '../../scripts/seed-bulk';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import {
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const session = vi.hoisted(() => ({ client: null as SupabaseClient | null }));
// The admin modules talk through the app's client module; here it holds a real signed-in client.
vi.mock('../../src/lib/infra/supabase', () => ({ supabase: session.client }));

const service = serviceClient();
const users: TestUser[] = [];
let adminClient: SupabaseClient;
let userClient: SupabaseClient;
let api: typeof import('../../src/features/admin/categories/categoryApi') &
  typeof import('../../src/features/admin/products/productApi');
let pq: typeof import('../../src/features/admin/products/productQuery');

/** A made-up word of letters only, so trigram search sees it as one word. */
function word(): string {
  return `zq${[...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join('')}`;
}

const cat = uniqueId('Table Cat');
const otherCat = uniqueId('Table Alt');
const token = word();
const commentToken = word();

beforeAll(async () => {
  const plain = await createConfirmedUser();
  const admin = await createAdmin();
  users.push(plain, admin);
  adminClient = await signedInClient(admin);
  userClient = await signedInClient(plain);
  session.client = adminClient;
  api = {
    ...(await import('../../src/features/admin/categories/categoryApi')),
    ...(await import('../../src/features/admin/products/productApi')),
  };
  pq = await import('../../src/features/admin/products/productQuery');
  const cats = await service.from('catagories').insert([{ title: cat }, { title: otherCat }]);
  expect(cats.error).toBeNull();
  const rows = [
    { ...productFields(cat, `Crème Brûlée ${token} Racket`, '£30.00') },
    { ...productFields(cat, `Plain ${token} Ball`, '£10.00') },
    { ...productFields(cat, `Zebra ${token} Cap`, 'ask us') },
    { ...productFields(cat, `Quiet Item ${word()}`, '£20.00'), com: `Hidden ${commentToken} note` },
  ];
  // One at a time, so created_at follows this order.
  for (const row of rows) expect((await service.from('products').insert(row)).error).toBeNull();
});

afterAll(async () => {
  await service.from('products').delete().in('cat', [cat, otherCat]);
  await service.from('catagories').delete().in('title', [cat, otherCat]);
  await deleteUsers(service, users);
});

const query = (
  over: Partial<import('../../src/features/admin/products/productQuery').ProductQuery>,
) => ({
  ...pq.DEFAULT_PRODUCT_QUERY,
  cat,
  ...over,
});
const titles = async (
  over: Partial<import('../../src/features/admin/products/productQuery').ProductQuery>,
  offset = 0,
  limit = 10,
) => (await pq.fetchAdminTablePage(query(over), offset, limit)).map((p) => p.title);

describe('search', () => {
  it('ignores case and accents and finds the title, the category and the comment', async () => {
    expect(await titles({ search: 'creme brulee' })).toEqual([`Crème Brûlée ${token} Racket`]);
    expect(await titles({ search: 'CRÈME' })).toEqual([`Crème Brûlée ${token} Racket`]);
    expect(await titles({ search: commentToken.toUpperCase() })).toHaveLength(1);
    // Everyone in the category matches its name (search runs over the category too).
    expect(await titles({ search: cat.toLowerCase(), cat: null })).toHaveLength(4);
  });

  it('tolerates a small typo', async () => {
    // One letter wrong in the middle, as in "footbsll".
    const typo = `${token.slice(0, 5)}${token[5] === 'x' ? 'y' : 'x'}${token.slice(6)}`;
    expect(typo).not.toBe(token);
    expect(await titles({ search: typo })).toHaveLength(3);
    expect(await titles({ search: token.slice(0, -1) })).toHaveLength(3); // last letter missing
    expect(await titles({ search: word() })).toEqual([]);
  });

  it('treats LIKE wildcards in the search as plain text', async () => {
    expect(await titles({ search: '%' })).toEqual([]);
    expect(await titles({ search: '_' })).toEqual([]);
  });
});

describe('filter, sort and pages', () => {
  it('filters by category', async () => {
    expect(await titles({ search: token, cat: otherCat })).toEqual([]);
    expect(await titles({ search: token, cat: null })).toHaveLength(3);
  });

  it('sorts by price both ways with prices without a number last, and by title and date', async () => {
    const byPrice = await titles({ search: token });
    expect(byPrice).toEqual([
      `Plain ${token} Ball`,
      `Crème Brûlée ${token} Racket`,
      `Zebra ${token} Cap`,
    ]);
    expect(await titles({ search: token, ascending: false })).toEqual([
      `Crème Brûlée ${token} Racket`,
      `Plain ${token} Ball`,
      `Zebra ${token} Cap`,
    ]);
    expect(await titles({ search: token, sort: 'title', ascending: false })).toEqual([
      `Zebra ${token} Cap`,
      `Plain ${token} Ball`,
      `Crème Brûlée ${token} Racket`,
    ]);
    const byDate = await titles({ sort: 'created_at' });
    expect(byDate[0]).toBe(`Crème Brûlée ${token} Racket`);
    expect(byDate[3]).toMatch(/^Quiet Item/);
    expect(await titles({ sort: 'created_at', ascending: false })).toEqual([...byDate].reverse());
  });

  it('pages do not overlap, together they are the whole result, and the count is exact', async () => {
    const all = await titles({ sort: 'title' });
    expect(all).toHaveLength(4);
    const pages = [
      ...(await titles({ sort: 'title' }, 0, 2)),
      ...(await titles({ sort: 'title' }, 2, 2)),
    ];
    expect(pages).toEqual(all);
    expect(await titles({ sort: 'title' }, 4, 2)).toEqual([]);
    expect(await pq.countProducts(query({}))).toEqual({ total: 4, exact: true });
    expect(await pq.countProducts(query({ search: token }))).toEqual({ total: 3, exact: true });
  });

  it('refuses an unknown sort column or a page size out of range, with a clear error', async () => {
    await expect(
      pq.fetchAdminTablePage(query({ sort: 'title; drop table x' as never }), 0, 10),
    ).rejects.toMatchObject({ code: '22023' });
    await expect(pq.fetchAdminTablePage(query({}), 0, 5000)).rejects.toMatchObject({
      code: '22023',
    });
    await expect(pq.fetchAdminTablePage(query({}), -1, 10)).rejects.toMatchObject({
      code: '22023',
    });
  });
});

describe('count above 1,000', () => {
  it('is the planner’s estimate, marked as not exact', async () => {
    await seedBulk(stackEnv().DB_URL, 1_100);
    try {
      const count = await pq.countProducts({ ...pq.DEFAULT_PRODUCT_QUERY });
      expect(count.exact).toBe(false);
      expect(count.total).toBeGreaterThan(1_000);
    } finally {
      await seedBulk(stackEnv().DB_URL, 0);
    }
  });
});

describe('category counts and titles', () => {
  it('counts every category’s products in one query', async () => {
    const counts = await api.categoryProductCounts();
    expect(counts.get(cat)).toBe(4);
    expect(counts.get(otherCat)).toBe(0);
  });

  it('title in use answers for look-alikes from the unique key', async () => {
    // Still an API function; the forms' writes ask it inside their RPCs (admin-writes.test.ts).
    const inUse = async (p_table: string, p_title: string) => {
      const { data, error } = await adminClient.rpc('catalogue_title_in_use', { p_table, p_title });
      if (error) throw new Error(error.message);
      return data as boolean;
    };
    expect(await inUse('products', `creme brulee ${token} racket`)).toBe(true);
    expect(await inUse('products', word())).toBe(false);
    expect(await inUse('catagories', cat.toUpperCase())).toBe(true);
  });
});

describe('bulk actions', () => {
  async function addProducts(n: number): Promise<string[]> {
    const prefix = uniqueId('Bulk');
    const { data, error } = await service
      .from('products')
      .insert(Array.from({ length: n }, (_, i) => productFields(cat, `${prefix} ${i}`)))
      .select('id');
    expect(error).toBeNull();
    return data!.map((r) => r.id as string);
  }
  const catsOf = async (ids: string[]) =>
    (await service.from('products').select('cat').in('id', ids)).data!.map((r) => r.cat);

  it('a non-admin cannot move, delete or read pages: refused, nothing changed', async () => {
    const ids = await addProducts(2);
    for (const [fn, args] of [
      ['admin_move_products', { p_ids: ids, p_cat: otherCat }],
      ['admin_delete_products', { p_ids: ids }],
      ['admin_product_page', { p_query: {} }],
    ] as const) {
      const { error } = await userClient.rpc(fn, args as never);
      expect(error?.code, fn).toBe('42501');
    }
    expect(await catsOf(ids)).toEqual([cat, cat]);
    await service.from('products').delete().in('id', ids);
  });

  it('an admin moves the selected products in one call, then deletes them', async () => {
    const ids = await addProducts(3);
    expect(await api.moveProducts(ids.slice(0, 2), otherCat)).toBe(2);
    expect((await catsOf(ids)).sort()).toEqual([cat, otherCat, otherCat].sort());
    await expect(api.moveProducts(ids, uniqueId('No Such Cat'))).rejects.toMatchObject({
      code: '23503',
    });
    expect(await api.deleteProducts(ids)).toBe(3);
    expect(await catsOf(ids)).toEqual([]);
  });

  it('deleting a category moves its products to another one first, in one transaction', async () => {
    const doomed = uniqueId('Doomed Cat');
    const { data: created } = await service
      .from('catagories')
      .insert({ title: doomed })
      .select('id')
      .single();
    const { data: inserted } = await service
      .from('products')
      .insert([
        productFields(doomed, uniqueId('Moved A')),
        productFields(doomed, uniqueId('Moved B')),
      ])
      .select('id');
    const ids = inserted!.map((r) => r.id as string);
    // Without a target it is refused as before; the category and its products stay.
    await expect(api.deleteCategory(created!.id as string)).rejects.toMatchObject({
      code: '23503',
    });
    // A non-admin cannot do it either.
    const refused = await userClient.rpc('admin_delete_catagory', {
      p_id: created!.id as string,
      p_move_to: otherCat,
    });
    expect(refused.error?.code).toBe('42501');
    expect(await catsOf(ids)).toEqual([doomed, doomed]);

    expect(await api.deleteCategory(created!.id as string, otherCat)).toBe(true);
    expect(await catsOf(ids)).toEqual([otherCat, otherCat]);
    const gone = await service.from('catagories').select('id').eq('title', doomed);
    expect(gone.data).toEqual([]);
    await service.from('products').delete().in('id', ids);
  });
});
