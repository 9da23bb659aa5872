// The row-level-security matrix: every table in `public` × {anon, signed-in non-admin, admin,
// admin with a verified factor at aal1 and at aal2 (REQ-MFA-2), service_role} × {select, insert,
// update, delete}, each cell asserted through supabase-js over
// HTTP. Every write is checked afterwards with the service role, so a denied write is proven to
// have changed nothing and an allowed one to have really happened. The functions in `public` have
// their own matrix in security-function-matrix.test.ts.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers, productFields, catalogueSnapshot } from './db-test-helpers.ts';
import { click, visitor } from './click-support';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId, uniqueEmail } from '../support/names.ts';
import { cleanUpFeeds, FEED_TABLES } from './rls-matrix-feeds.ts';
import { factorAdmin, MATRIX_ROLES, rightsOf, type BaseRole } from './admin-mfa-support.ts';

let catalogueBefore: unknown;

type Role = BaseRole;
type Action = 'select' | 'insert' | 'update' | 'delete';
type Row = Record<string, unknown>;

const ACTIONS: Action[] = ['select', 'insert', 'update', 'delete'];

/** Allowed actions per role, as the migrations' policies and grants intend; the rest is denied. */
type Expectation = Record<Role, Action[]>;

const CATALOGUE: Expectation = {
  anon: ['select'],
  user: ['select'],
  admin: ['select', 'insert', 'update', 'delete'],
  service_role: ['select', 'insert', 'update', 'delete'],
};
/** Products: the storefront reads them only through its RPCs (docs/decisions/0202). */
const PRODUCTS: Expectation = {
  anon: [],
  user: [],
  admin: ['select', 'insert', 'update', 'delete'],
  service_role: ['select', 'insert', 'update', 'delete'],
};
const ADMIN_READS_SERVICE_WRITES: Expectation = {
  anon: [],
  user: [],
  admin: ['select'],
  service_role: ['select', 'insert', 'update', 'delete'],
};

interface Fixture {
  /** Column and value that identify the row for the service-role check. */
  key: string;
  value: unknown;
}

interface TableSpec {
  expect: Expectation;
  /** Creates a row (as service role) the action under test works on. */
  fixture(): Promise<Fixture>;
  /** A fresh row to insert, and how to find it afterwards. */
  newRow(): Promise<{ row: Row; key: string; value: unknown }>;
  /** A column change for the update test. */
  change(): { column: string; value: unknown };
}

const service = (): SupabaseClient => serviceClient();
const cleanups: (() => PromiseLike<unknown>)[] = [];
const users: TestUser[] = [];

async function must<T>(
  p: PromiseLike<{ data: T | null; error: { message: string } | null }>,
): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(error.message);
  return data as T; // null for writes without .select()
}

/** A category plus its cleanup by id (a matrix cell may rename it). */
async function newCategory(): Promise<{ id: string; title: string }> {
  const title = uniqueId('Matrix Cat');
  const [row] = await must(service().from('catagories').insert({ title }).select('id'));
  const id = (row as Row).id as string;
  cleanups.push(async () => {
    const current = await readAsService('catagories', 'id', id);
    if (!current) return;
    await service().from('products').delete().eq('cat', current.title);
    await service().from('catagories').delete().eq('id', id);
  });
  return { id, title };
}

async function newAuthUser(): Promise<TestUser> {
  const user = await createConfirmedUser();
  users.push(user);
  return user;
}

/** A new product in a new category with one counted Buy Now click (the counting path). */
async function clickedProduct(): Promise<{ id: string; cat: string }> {
  const { title: cat } = await newCategory();
  const [row] = await must(
    service()
      .from('products')
      .insert(productFields(cat, uniqueId('Matrix Clicked')))
      .select('id'),
  );
  const id = (row as Row).id as string;
  const { data, error } = await click(visitor(), {
    p_product_id: id,
    p_page: '/',
    p_page_view: randomUUID(),
  });
  if (data !== 'counted') throw new Error(`click not counted: ${error?.message ?? String(data)}`);
  return { id, cat };
}

/** Click counts: written only by count_buy_now_click, so even the service role only reads. */
const COUNTS: Expectation = { anon: [], user: [], admin: ['select'], service_role: ['select'] };
const today = () => new Date().toISOString().slice(0, 10);

const TABLES: Record<string, TableSpec> = {
  // The search's word list: only the products' triggers write it and only the definer search
  // reads it; no API role but the service role may touch it (decision 0201: it held the words of
  // hidden products).
  catalogue_words: {
    expect: {
      anon: [],
      user: [],
      admin: [],
      service_role: ['select', 'insert', 'update', 'delete'],
    },
    async fixture() {
      const word = uniqueId('matrixword').toLowerCase();
      await must(service().from('catalogue_words').insert({ word, occurrences: 1 }));
      cleanups.push(() => service().from('catalogue_words').delete().eq('word', word));
      return { key: 'word', value: word };
    },
    async newRow() {
      const word = uniqueId('matrixnewword').toLowerCase();
      cleanups.push(() => service().from('catalogue_words').delete().eq('word', word));
      return { row: { word, occurrences: 1 }, key: 'word', value: word };
    },
    change: () => ({ column: 'occurrences', value: 7 }),
  },
  catagories: {
    expect: CATALOGUE,
    async fixture() {
      const { id } = await newCategory();
      return { key: 'id', value: id };
    },
    async newRow() {
      const title = uniqueId('Matrix New Cat');
      cleanups.push(() => service().from('catagories').delete().eq('title', title));
      return { row: { title }, key: 'title', value: title };
    },
    change: () => ({ column: 'title', value: uniqueId('Matrix Renamed') }),
  },
  products: {
    expect: PRODUCTS,
    async fixture() {
      const { title: cat } = await newCategory();
      const title = uniqueId('Matrix Product');
      const [row] = await must(
        service().from('products').insert(productFields(cat, title)).select('id'),
      );
      return { key: 'id', value: (row as Row).id };
    },
    async newRow() {
      const { title: cat } = await newCategory();
      const title = uniqueId('Matrix New Product');
      return { row: productFields(cat, title), key: 'title', value: title };
    },
    change: () => ({ column: 'price', value: '£99.99' }),
  },
  admins: {
    expect: ADMIN_READS_SERVICE_WRITES,
    async fixture() {
      const u = await newAuthUser();
      await must(service().from('admins').insert({ user_id: u.id, email: u.email }));
      return { key: 'user_id', value: u.id };
    },
    async newRow() {
      const u = await newAuthUser();
      return { row: { user_id: u.id, email: u.email }, key: 'user_id', value: u.id };
    },
    change: () => ({ column: 'email', value: uniqueEmail('changed') }),
  },
  admin_invites: {
    expect: {
      anon: [],
      user: [],
      // delete: withdrawing an open invite (a used one cannot be: admin-model.test.ts)
      admin: ['select', 'insert', 'delete'],
      service_role: ['select', 'insert', 'update', 'delete'],
    },
    async fixture() {
      const email = uniqueEmail('matrix-invite');
      await must(service().from('admin_invites').insert({ email }));
      cleanups.push(() => service().from('admin_invites').delete().eq('email', email));
      return { key: 'email', value: email };
    },
    async newRow() {
      const email = uniqueEmail('matrix-new-invite');
      cleanups.push(() => service().from('admin_invites').delete().eq('email', email));
      return { row: { email }, key: 'email', value: email };
    },
    change: () => ({ column: 'accepted_at', value: '2030-01-01T00:00:00+00:00' }),
  },
  contact_messages: {
    expect: ADMIN_READS_SERVICE_WRITES,
    async fixture() {
      const message = uniqueId('matrix fixture message');
      const [row] = await must(
        service()
          .from('contact_messages')
          .insert({ name: 'Matrix Test', email: 'matrix@example.test', message })
          .select('id'),
      );
      const id = (row as Row).id;
      cleanups.push(() => service().from('contact_messages').delete().eq('id', id));
      return { key: 'id', value: id };
    },
    async newRow() {
      const message = uniqueId('matrix new message');
      cleanups.push(() => service().from('contact_messages').delete().eq('message', message));
      return {
        row: { name: 'Matrix Test', email: 'matrix@example.test', message },
        key: 'message',
        value: message,
      };
    },
    change: () => ({ column: 'last_error', value: 'changed by the RLS matrix' }),
  },
  // REQ-INS-2: Buy Now click counts.
  buy_now_clicks_by_product: {
    expect: COUNTS,
    async fixture() {
      const { id } = await clickedProduct();
      return { key: 'product_id', value: id };
    },
    async newRow() {
      const { title: cat } = await newCategory();
      const [row] = await must(
        service()
          .from('products')
          .insert(productFields(cat, uniqueId('Matrix Forged')))
          .select('id'),
      );
      const id = (row as Row).id;
      return { row: { day: today(), product_id: id, clicks: 1000 }, key: 'product_id', value: id };
    },
    change: () => ({ column: 'clicks', value: 1000 }),
  },
  buy_now_clicks_by_page: {
    expect: COUNTS,
    async fixture() {
      const { cat } = await clickedProduct();
      return { key: 'category', value: cat };
    },
    async newRow() {
      const category = uniqueId('Matrix Forged Cat');
      return {
        row: { day: today(), category, page: '/', clicks: 1000 },
        key: 'category',
        value: category,
      };
    },
    change: () => ({ column: 'clicks', value: 1000 }),
  },
  // REQ-LOG-2 (activity log). Append-only: only the triggers write it, so even the
  // service role may only read; a fixture entry comes from a category the service role adds.
  activity_log: {
    expect: { anon: [], user: [], admin: ['select'], service_role: ['select'] },
    async fixture() {
      const { title } = await newCategory();
      const rows = await must(
        service()
          .from('activity_log')
          .select('id')
          .eq('kind', 'category_added')
          .eq('subject', title),
      );
      return { key: 'id', value: (rows as Row[])[0]?.id };
    },
    async newRow() {
      const subject = uniqueId('Matrix forged entry');
      return { row: { kind: 'admin_removed', subject }, key: 'subject', value: subject };
    },
    change: () => ({ column: 'subject', value: 'rewritten by the RLS matrix' }),
  },
  // REQ-INS-4 (link health). Results: admins read, only the service role writes (the
  // link-health function), so nobody can forge one through the API.
  link_checks: {
    expect: ADMIN_READS_SERVICE_WRITES,
    async fixture() {
      const productId = await newProduct();
      await must(
        service().from('link_checks').insert({
          product_id: productId,
          kind: 'link',
          url: 'https://shop.example.com/test',
          status: 'ok',
        }),
      );
      return { key: 'product_id', value: productId };
    },
    async newRow() {
      const productId = await newProduct();
      return {
        row: {
          product_id: productId,
          kind: 'link',
          url: 'https://shop.example.com/test',
          status: 'ok',
        },
        key: 'product_id',
        value: productId,
      };
    },
    change: () => ({ column: 'status', value: 'broken' }),
  },
  // REQ-OFF-6 (link triage): admins accept a redirect and withdraw it; nobody edits one (an
  // acceptance is replaced, not changed). Host pairs would touch every product: per link here.
  link_redirect_acceptances: {
    expect: {
      anon: [],
      user: [],
      admin: ['select', 'insert', 'delete'],
      service_role: ['select', 'insert', 'delete'],
    },
    async fixture() {
      const productId = await newProduct();
      const [row] = await must(
        service()
          .from('link_redirect_acceptances')
          .insert({
            product_id: productId,
            url: 'https://shop.example.com/test',
            to_host: 'a.example',
          })
          .select('id'),
      );
      return { key: 'id', value: (row as Row).id };
    },
    async newRow() {
      const productId = await newProduct();
      return {
        row: { product_id: productId, url: 'https://shop.example.com/test', to_host: 'b.example' },
        key: 'product_id',
        value: productId,
      };
    },
    change: () => ({ column: 'to_host', value: 'c.example' }),
  },
  // One row of store-wide settings: admins read and change it; nobody adds or removes rows.
  link_health_settings: {
    expect: {
      anon: [],
      user: [],
      admin: ['select', 'update'],
      service_role: ['select', 'update'],
    },
    async fixture() {
      cleanups.push(() =>
        service().from('link_health_settings').update({ hide_broken_links: false }).eq('id', true),
      );
      return { key: 'id', value: true };
    },
    async newRow() {
      // The one-row check refuses any second row; id false is the only other candidate.
      return { row: { id: false, hide_broken_links: true }, key: 'id', value: false };
    },
    change: () => ({ column: 'hide_broken_links', value: true }),
  },
  // The store's own details (docs/decisions/0211): one row everyone reads (the storefront, the
  // host function); only admins change it; nobody adds or removes rows.
  store_settings: {
    expect: {
      anon: ['select'],
      user: ['select'],
      admin: ['select', 'update'],
      service_role: ['select', 'update'],
    },
    async fixture() {
      const { data } = await service().from('store_settings').select('youtube_url').single();
      const before = (data as Row | null)?.youtube_url ?? null;
      cleanups.push(() =>
        service().from('store_settings').update({ youtube_url: before }).eq('id', true),
      );
      return { key: 'id', value: true };
    },
    async newRow() {
      // The one-row check refuses any second row; id false is the only other candidate.
      return { row: { id: false, store_name: 'Forged store' }, key: 'id', value: false };
    },
    change: () => ({ column: 'youtube_url', value: 'https://www.youtube.com/@matrix.test' }),
  },
  // The banner's slides and the About text (docs/decisions/0212): one row everyone reads (the
  // storefront); only admins change it; nobody adds or removes rows.
  storefront_content: {
    expect: {
      anon: ['select'],
      user: ['select'],
      admin: ['select', 'update'],
      service_role: ['select', 'update'],
    },
    async fixture() {
      const { data } = await service().from('storefront_content').select('slide_3_link').single();
      const before = (data as Row | null)?.slide_3_link ?? null;
      cleanups.push(() =>
        service().from('storefront_content').update({ slide_3_link: before }).eq('id', true),
      );
      return { key: 'id', value: true };
    },
    async newRow() {
      // The one-row check refuses any second row; id false is the only other candidate.
      return { row: { id: false, slide_1_heading: 'Forged' }, key: 'id', value: false };
    },
    change: () => ({ column: 'slide_3_link', value: '/about?matrix' }),
  },
  // REQ-OFF-1 (offers, docs/decisions/0230). Sellers: everyone reads, admins write.
  sellers: {
    expect: CATALOGUE,
    async fixture() {
      return { key: 'id', value: await newSeller() };
    },
    async newRow() {
      const name = uniqueId('Matrix New Seller');
      const site = `https://${randomUUID()}.matrix.example`;
      cleanups.push(() => service().from('sellers').delete().eq('site', site));
      return { row: { name, site }, key: 'site', value: site };
    },
    change: () => ({ column: 'network', value: 'Matrix network' }),
  },
  // Offers: everyone reads the current offers of products the storefront shows; admins write.
  offers: {
    expect: {
      anon: ['select'],
      user: ['select'],
      admin: ['select', 'insert', 'update', 'delete'],
      service_role: ['select', 'insert', 'update', 'delete'],
    },
    async fixture() {
      const [row] = await must(
        service()
          .from('offers')
          .insert({
            product_id: await newProduct(),
            seller_id: await newSeller(),
            link: 'https://seller.matrix.example/offer',
            price_gbp: 7.5,
          })
          .select('id'),
      );
      return { key: 'id', value: (row as Row).id };
    },
    async newRow() {
      const link = `https://seller.matrix.example/${randomUUID()}`;
      return {
        row: {
          product_id: await newProduct(),
          seller_id: await newSeller(),
          link,
          price_gbp: 8.25,
        },
        key: 'link',
        value: link,
      };
    },
    change: () => ({ column: 'delivery_gbp', value: 3.5 }),
  },
  // Price history (REQ-OFF-4): only the offers trigger writes it, so even the service role reads.
  offer_price_history: {
    expect: { anon: [], user: [], admin: ['select'], service_role: ['select'] },
    async fixture() {
      return { key: 'product_id', value: await newProduct() };
    },
    async newRow() {
      const productId = await newProduct();
      const offer = await readAsService('offers', 'product_id', productId);
      const price = 9000000 + Math.floor(Math.random() * 999999) / 100;
      return {
        row: {
          offer_id: offer!.id,
          product_id: productId,
          seller_id: offer!.seller_id,
          price_gbp: price,
        },
        key: 'price_gbp',
        value: price,
      };
    },
    change: () => ({ column: 'price_gbp', value: 1 }),
  },
  // Buy Now clicks per offer (REQ-OFF-2): written only by count_buy_now_click.
  buy_now_clicks_by_offer: {
    expect: COUNTS,
    async fixture() {
      const { id } = await clickedProduct();
      const offer = await readAsService('offers', 'product_id', id);
      const { data } = await click(visitor(), {
        p_product_id: id,
        p_page: '/',
        p_page_view: randomUUID(),
        p_offer_id: offer!.id as string,
      });
      if (data !== 'counted') throw new Error(`offer click not counted: ${String(data)}`);
      return { key: 'offer_id', value: offer!.id };
    },
    async newRow() {
      const offer = await readAsService('offers', 'product_id', await newProduct());
      return {
        row: { day: today(), offer_id: offer!.id, clicks: 1000 },
        key: 'offer_id',
        value: offer!.id,
      };
    },
    change: () => ({ column: 'clicks', value: 1000 }),
  },
  // REQ-FIND-4 (product pages). Old slugs of renamed products: readable as far as their
  // product is (the admins; product_page reads them past RLS, docs/decisions/0202); only the
  // rename trigger writes, the service role included.
  product_slug_history: {
    expect: { anon: [], user: [], admin: ['select'], service_role: ['select'] },
    async fixture() {
      const { title: cat } = await newCategory();
      const title = uniqueId('Matrix Slug Product');
      const [row] = await must(
        service().from('products').insert(productFields(cat, title)).select('id, slug'),
      );
      const { id, slug } = row as Row;
      await must(
        service()
          .from('products')
          .update({ title: uniqueId('Matrix Slug Renamed') })
          .eq('id', id),
      );
      return { key: 'slug', value: slug };
    },
    async newRow() {
      const { title: cat } = await newCategory();
      const [row] = await must(
        service()
          .from('products')
          .insert(productFields(cat, uniqueId('Matrix Slug Target')))
          .select('id'),
      );
      const slug = uniqueId('matrix-forged-slug').toLowerCase();
      return { row: { slug, product_id: (row as Row).id }, key: 'slug', value: slug };
    },
    change: () => ({ column: 'replaced_at', value: '2030-01-01T00:00:00+00:00' }),
  },
  ...FEED_TABLES,
};

/** A product in a category of its own (cleaned up with the category). */
async function newProduct(): Promise<string> {
  const { title: cat } = await newCategory();
  const [row] = await must(
    service()
      .from('products')
      .insert(productFields(cat, uniqueId('Matrix Link Product')))
      .select('id'),
  );
  return (row as Row).id as string;
}

/** A seller of its own (removed after its offers' products). */
async function newSeller(): Promise<string> {
  const [row] = await must(
    service()
      .from('sellers')
      .insert({ name: uniqueId('Matrix Seller'), site: `https://${randomUUID()}.matrix.example` })
      .select('id'),
  );
  const id = (row as Row).id as string;
  cleanups.unshift(() => service().from('sellers').delete().eq('id', id));
  return id;
}

let publicTables: { name: string; rls: boolean }[] = [];
const clients = {} as Record<(typeof MATRIX_ROLES)[number], SupabaseClient>;
let adminUser: TestUser;
let mfaAdminUser: TestUser;

beforeAll(async () => {
  catalogueBefore = await catalogueSnapshot(service());
  const db = new pg.Client({ connectionString: stackEnv().DB_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ name: string; rls: boolean }>(
      `select c.relname as name, c.relrowsecurity as rls
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p')
        order by 1`,
    );
    publicTables = rows;
  } finally {
    await db.end();
  }

  const plainUser = await newAuthUser();
  adminUser = await createAdmin();
  users.push(adminUser);
  clients.anon = anonClient();
  clients.user = await signedInClient(plainUser);
  clients.admin = await signedInClient(adminUser);
  clients.service_role = service();
  const mfa = await factorAdmin();
  users.push((mfaAdminUser = mfa.user));
  clients.admin_aal1 = mfa.aal1;
  clients.admin_aal2 = mfa.aal2;
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await cleanUpFeeds();
  await deleteUsers(service(), users);

  // The seeded catalogue (and anything other files created) is exactly as before.
  expect(await catalogueSnapshot(service())).toEqual(catalogueBefore);
});

async function readAsService(table: string, key: string, value: unknown): Promise<Row | null> {
  const rows = await must(service().from(table).select('*').eq(key, value));
  return ((rows as Row[])[0] ?? null) as Row | null;
}

describe('public schema coverage', () => {
  it('every table in public has RLS enabled and an entry in the matrix', () => {
    expect(publicTables.length).toBeGreaterThan(0);
    for (const t of publicTables) {
      expect.soft(t.rls, `RLS on public.${t.name}`).toBe(true);
      expect.soft(Object.keys(TABLES), `matrix covers public.${t.name}`).toContain(t.name);
    }
  });
});

for (const [table, spec] of Object.entries(TABLES)) {
  describe(`public.${table}`, () => {
    for (const role of MATRIX_ROLES) {
      for (const action of ACTIONS) {
        const allowed = spec.expect[rightsOf(role)].includes(action);
        it(`${role} ${action}: ${allowed ? 'allowed' : 'denied'}`, async (ctx) => {
          if (!publicTables.some((t) => t.name === table)) {
            ctx.skip(`public.${table} does not exist in this database`);
          }
          const client = clients[role];

          if (action === 'select') {
            const f = await spec.fixture();
            const { data, error } = await client.from(table).select('*').eq(f.key, f.value);
            const seen = !error && (data ?? []).length === 1;
            expect(seen, error?.message).toBe(allowed);
            return;
          }

          if (action === 'insert') {
            const { row, key, value } = await spec.newRow();
            const { error } = await client.from(table).insert(row);
            const stored = await readAsService(table, key, value);
            if (allowed) {
              expect(error?.message).toBeUndefined();
              expect(stored).not.toBeNull();
              if (table === 'admin_invites' && rightsOf(role) === 'admin') {
                expect(stored?.invited_by).toBe(role === 'admin' ? adminUser.id : mfaAdminUser.id);
              }
            } else {
              expect(error, 'a denied insert reports an error').not.toBeNull();
              expect(stored, 'a denied insert stored nothing').toBeNull();
            }
            return;
          }

          const f = await spec.fixture();
          const before = await readAsService(table, f.key, f.value);
          expect(before).not.toBeNull();

          if (action === 'update') {
            const { column, value } = spec.change();
            const { error } = await client
              .from(table)
              .update({ [column]: value })
              .eq(f.key, f.value);
            const after = await readAsService(table, f.key, f.value);
            if (allowed) {
              expect(error?.message).toBeUndefined();
              expect(after?.[column]).toBe(value);
            } else {
              expect(after, 'a denied update changed nothing').toEqual(before);
            }
            return;
          }

          const { error } = await client.from(table).delete().eq(f.key, f.value);
          const after = await readAsService(table, f.key, f.value);
          if (allowed) {
            expect(error?.message).toBeUndefined();
            expect(after).toBeNull();
          } else {
            expect(after, 'a denied delete removed nothing').toEqual(before);
          }
        });
      }
    }
  });
}
