// The function half of the RLS matrix (rls-matrix.test.ts covers the tables): every function in
// `public` × {anon, signed-in non-admin, admin, admin with a verified factor at aal1 and aal2,
// service_role}, called through PostgREST's /rpc as
// the SPA or a script would. Each cell is either allowed (and answers what that role should see)
// or refused with 42501 and changes nothing. A function the matrix does not list fails the
// coverage check, so a new RPC cannot ship without its row here.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { FEED_FUNCTIONS } from './security-function-matrix-feeds.ts';
import { PAGE_FUNCTIONS } from './security-function-matrix-pages.ts';
import { mfaFunctions, type FunctionSpec } from './security-function-matrix-mfa.ts';
import { factorAdmin, MATRIX_ROLES, rightsOf, type MatrixRole } from './admin-mfa-support.ts';

const service = serviceClient();
const users: TestUser[] = [];
const clients = {} as Record<MatrixRole, SupabaseClient>;
let adminUser: TestUser;
let publicFunctions: string[] = [];
/** Functions of public and private whose search_path is not fixed (the lint sees public only). */
let unpinned: string[] = [];

async function messagesWith(message: string): Promise<{ id: string }[]> {
  const { data, error } = await service
    .from('contact_messages')
    .select('id')
    .eq('message', message);
  if (error) throw new Error(error.message);
  return data;
}

/** The storefront's first Tennis product (its primary offer current). */
const seedProductId = async () =>
  (
    (await service.rpc('storefront_page', { p_cat: 'Tennis', p_limit: 1 })).data as { id: string }[]
  )[0]!.id;

/** Keyed by regprocedure text, as pg_proc names them. */
const FUNCTIONS: Record<string, FunctionSpec> = {
  'is_admin()': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({}),
    expected: (role) => role === 'admin',
  },
  'email_registered(text)': {
    allowed: ['admin'],
    args: async () => ({ p_email: adminUser.email }),
    expected: () => true,
  },
  'contact_submit(text,text,text,text,integer,integer,boolean,integer,integer)': {
    allowed: ['service_role'],
    args: async () => ({
      p_name: 'Function Matrix',
      p_email: 'function-matrix@example.test',
      p_message: uniqueId('function matrix message'),
      p_ip: null,
      p_max: 1000,
      p_window_seconds: 60,
      p_claim: false,
      p_global_max: 1000,
      p_daily_mail_cap: null,
    }),
    expected: () => expect.objectContaining({ status: 'stored' }),
    async after(_role, allowed, args) {
      const rows = await messagesWith(args.p_message as string);
      expect(rows, 'messages stored by this call').toHaveLength(allowed ? 1 : 0);
      for (const row of rows) await service.from('contact_messages').delete().eq('id', row.id);
    },
  },
  // p_limit 0: an allowed call claims nothing, so other tests' messages stay as they are.
  'contact_claim_undelivered(integer,integer)': {
    allowed: ['service_role'],
    args: async () => ({ p_limit: 0, p_lease_seconds: 60 }),
    expected: () => [],
  },
  'contact_record_delivery(uuid,boolean,text)': {
    allowed: ['service_role'],
    args: async () => ({ p_id: randomUUID(), p_sent: true, p_error: null }),
    expected: () => false,
  },
  // The daily mail cap's digest (docs/decisions/0203): claims nothing, records nothing.
  'contact_claim_digest(integer,integer)': {
    allowed: ['service_role'],
    args: async () => ({ p_limit: 0, p_lease_seconds: 60 }),
    expected: () => [],
  },
  'contact_record_digest(uuid[],boolean,text)': {
    allowed: ['service_role'],
    args: async () => ({ p_ids: [randomUUID()], p_sent: true, p_error: null }),
    expected: () => 0,
  },
  // REQ-ACC-4 (the admin team)
  'admin_team()': {
    allowed: ['admin'],
    args: async () => ({}),
    expected: () => expect.arrayContaining([expect.objectContaining({ user_id: adminUser.id })]),
  },
  // The deployment check's view of the CLI's migration history (docs/decisions/0205).
  'applied_migrations()': {
    allowed: ['admin'],
    args: async () => ({}),
    expected: () =>
      expect.arrayContaining([
        { version: '20260101002540', name: 'deployment_check' },
        { version: '20260101000100', name: 'admin_model' },
      ]),
  },
  'open_admin_invites()': {
    allowed: ['admin'],
    args: async () => ({}),
    expected: () => expect.any(Array),
  },
  // Addresses and ids that match nothing: an allowed call answers false and changes nothing.
  'withdraw_admin_invite(text)': {
    allowed: ['admin'],
    args: async () => ({ p_email: `nobody-${randomUUID()}@example.test` }),
    expected: () => false,
  },
  'resend_admin_invite(text)': {
    allowed: ['admin'],
    args: async () => ({ p_email: `nobody-${randomUUID()}@example.test` }),
    expected: () => false,
  },
  'remove_admin(uuid)': {
    allowed: ['admin'],
    args: async () => ({ p_user_id: randomUUID() }),
    expected: () => false,
  },
  // REQ-SCALE-1, REQ-SCALE-2 (admin table, bulk actions). Arguments that match or change nothing.
  'admin_product_page(jsonb,integer,integer)': {
    allowed: ['admin'],
    args: async () => ({
      p_query: { search: uniqueId('no such product') },
      p_offset: 0,
      p_limit: 10,
    }),
    expected: () => [],
  },
  'admin_product_count(jsonb)': {
    allowed: ['admin'],
    args: async () => ({ p_query: { search: uniqueId('no such product') } }),
    expected: () => ({ total: 0, exact: true }),
  },
  'catagory_product_counts()': {
    allowed: ['admin'],
    args: async () => ({}),
    expected: () => expect.arrayContaining([expect.objectContaining({ cat: expect.any(String) })]),
  },
  // A non-admin reads no product rows, so for them no product title is in use.
  'catalogue_title_in_use(text,text,uuid)': {
    allowed: ['user', 'admin', 'service_role'],
    args: async () => ({
      p_table: 'products',
      p_title: uniqueId('no such product'),
      p_except_id: null,
    }),
    expected: () => false,
  },
  'admin_move_products(uuid[],text)': {
    allowed: ['admin'],
    args: async () => {
      const { data } = await service.from('catagories').select('title').limit(1).single();
      return { p_ids: [randomUUID()], p_cat: data!.title };
    },
    expected: () => 0,
  },
  'admin_delete_products(uuid[])': {
    allowed: ['admin'],
    args: async () => ({ p_ids: [randomUUID()] }),
    expected: () => 0,
  },
  'admin_delete_catagory(uuid,text)': {
    allowed: ['admin'],
    args: async () => ({ p_id: randomUUID(), p_move_to: null }),
    expected: () => null,
  },
  // The admin forms' writes, one RPC each (docs/decisions/0223): on a missing record an
  // allowed call changes nothing.
  'admin_update_product(uuid,timestamp with time zone,text,text,text,text,text,text)': {
    allowed: ['admin'],
    args: async () => ({
      p_id: randomUUID(),
      p_loaded_updated_at: new Date().toISOString(),
      p_title: uniqueId('no such product'),
      p_cat: 'Football',
      p_price: '£1.00',
      p_com: 'Matrix',
      p_image: '/products/match-football.svg',
      p_link: 'https://example.com/matrix',
    }),
    expected: () => ({ result: 'not_found' }),
  },
  'admin_delete_product(uuid)': {
    allowed: ['admin'],
    args: async () => ({ p_id: randomUUID() }),
    expected: () => ({ result: 'not_found' }),
  },
  'admin_update_catagory(uuid,text)': {
    allowed: ['admin'],
    args: async () => ({ p_id: randomUUID(), p_title: uniqueId('no such catagory') }),
    expected: () => ({ result: 'not_found' }),
  },
  'admin_add_catagory(text)': {
    allowed: ['admin'],
    args: async () => ({ p_title: uniqueId('Matrix Cat') }),
    expected: () => ({ result: 'added', id: expect.any(String) }),
    async after(_role, allowed, args) {
      const { data } = await service
        .from('catagories')
        .delete()
        .eq('title', args.p_title as string)
        .select('id');
      expect(data).toHaveLength(allowed ? 1 : 0);
    },
  },
  'admin_add_product(text,text,text,text,text,text)': {
    allowed: ['admin'],
    args: async () => {
      const { data } = await service.from('catagories').select('title').limit(1).single();
      return {
        p_title: uniqueId('Matrix Product'),
        p_cat: data!.title,
        p_price: '£1.00',
        p_com: 'Matrix',
        p_image: '/products/match-football.svg',
        p_link: 'https://example.com/matrix',
      };
    },
    expected: () => ({ result: 'added', id: expect.any(String) }),
    async after(_role, allowed, args) {
      const { data } = await service
        .from('products')
        .delete()
        .eq('title', args.p_title as string)
        .select('id');
      expect(data).toHaveLength(allowed ? 1 : 0);
    },
  },
  // REQ-SCALE-5, REQ-SCALE-4 (storefront cursor paging, CSV import)
  // A helper of the storefront's definer functions, no API call (docs/decisions/0202).
  'price_number(text)': {
    allowed: ['service_role'],
    args: async () => ({ p_price: '£1,299.99' }),
    expected: () => 1299.99,
  },
  'storefront_page(text,text,text,uuid,integer)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({ p_cat: 'Tennis', p_limit: 2 }),
    expected: () => [
      expect.objectContaining({ cat: 'Tennis' }),
      expect.objectContaining({ cat: 'Tennis' }),
    ],
  },
  // Old names of renamed categories (REQ-FIND-8): answers only the current, public title.
  'catagory_current_title(text)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({ p_title: 'tennis' }),
    expected: () => 'Tennis',
  },
  // REQ-FIND-1, REQ-FIND-2 (search and sort). The entry points are invoker rights; the reads are
  // definer functions in schema listing that apply the products read policy's rule themselves
  // (docs/decisions/0202). search_key is their helper, no API call.
  'search_key(text)': {
    allowed: ['service_role'],
    args: async () => ({ p_text: ' Ｒａｃｋｅｔ  Été ' }),
    expected: () => 'racket ete',
  },
  'storefront_search(text,text,text,text,text,timestamp with time zone,uuid,integer)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({ p_query: 'tenis', p_cat: 'Tennis', p_sort: 'price-desc', p_limit: 2 }),
    expected: () => [
      expect.objectContaining({ cat: 'Tennis' }),
      expect.objectContaining({ cat: 'Tennis' }),
    ],
  },
  // REQ-FIND-4 to REQ-FIND-6 (sitemap): readers for all, through definer reads in schema
  // listing that apply the products read policy's rule (docs/decisions/0202). Product pages:
  // security-function-matrix-pages.ts.
  'sitemap_summary()': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({}),
    expected: () => expect.objectContaining({ products: expect.any(Number) }),
  },
  'sitemap_products(integer)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({ p_page: 1 }),
    expected: () => expect.arrayContaining([[expect.any(String), expect.any(String)]]),
  },
  // REQ-OFF-2, REQ-OFF-4 (offers, docs/decisions/0230): readers for all, through definer reads
  // in schema listing that apply the storefront's visibility themselves.
  'product_offers(uuid)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({ p_product_id: await seedProductId() }),
    expected: () =>
      expect.arrayContaining([expect.objectContaining({ is_primary: true, freshness: 'current' })]),
  },
  'product_price_history(uuid,integer)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({ p_product_id: await seedProductId(), p_days: 7 }),
    expected: () =>
      expect.arrayContaining([expect.objectContaining({ lowest_gbp: expect.any(Number) })]),
  },
  // REQ-OFF-5 (the price-drop feed, docs/decisions/0232): readers for all, a definer read in
  // schema listing past the history's admin-only policy; the seed product may have no drops yet.
  'product_price_drops(uuid,integer)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({ p_product_id: await seedProductId(), p_limit: 5 }),
    expected: () => expect.any(Array),
  },
  // An empty chunk and a dry run of an unknown import: an allowed call changes nothing.
  // REQ-INS-2: Buy Now clicks. Node's fetch is no browser, so an allowed call is answered
  // 'ignored' and counts nothing; counting itself is in buy-now-clicks.test.ts.
  'count_buy_now_click(uuid,text,uuid,uuid)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => {
      const { data: cat } = await service.from('catagories').select('title').limit(1).single();
      const { data, error } = await service
        .from('products')
        .insert(productFields(cat!.title as string, uniqueId('Function Matrix Click')))
        .select('id')
        .single();
      if (error) throw new Error(error.message);
      // Its primary offer has its id (REQ-OFF-2: Buy Now counted per offer too).
      return { p_product_id: data.id, p_page: '/', p_page_view: randomUUID(), p_offer_id: data.id };
    },
    expected: () => 'ignored',
    async after(_role, _allowed, args) {
      const { data, error } = await service
        .from('buy_now_clicks_by_product')
        .select('clicks')
        .eq('product_id', args.p_product_id as string);
      expect(error).toBeNull();
      expect(data, 'nothing counted').toEqual([]);
      await service
        .from('products')
        .delete()
        .eq('id', args.p_product_id as string);
    },
  },
  // Decision 0200: the address the database attributes to the caller (the matrix's clients
  // leave from 127.0.0.1; forged headers: buy-now-clicks-privacy.test.ts).
  'request_client_address()': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: async () => ({}),
    expected: () => '127.0.0.1',
  },
  'insights_clicks_per_day(integer)': {
    allowed: ['admin'],
    args: async () => ({ p_days: 7 }),
    expected: () =>
      expect.arrayContaining([expect.objectContaining({ clicks: expect.any(Number) })]),
  },
  'insights_top_products(integer,integer,integer)': {
    allowed: ['admin'],
    args: async () => ({ p_days: 7, p_limit: 5, p_offset: 0 }),
    expected: () => expect.any(Array),
  },
  'insights_top_categories(integer,integer)': {
    allowed: ['admin'],
    args: async () => ({ p_days: 7, p_limit: 5 }),
    expected: () => expect.any(Array),
  },
  'insights_products_without_clicks(integer,integer)': {
    allowed: ['admin'],
    args: async () => ({ p_days: 7, p_limit: 5 }),
    expected: () => expect.any(Array),
  },
  'catalogue_import_stage(uuid,jsonb)': {
    allowed: ['admin'],
    args: async () => ({ p_import_id: randomUUID(), p_rows: [] }),
    expected: () => 0,
  },
  'catalogue_import_apply(uuid,text,boolean,boolean)': {
    allowed: ['admin'],
    args: async () => ({
      p_import_id: randomUUID(),
      p_mode: 'add',
      p_create_categories: true,
      p_dry_run: false,
    }),
    expected: () => ({ added: 0, updated: 0, unchanged: 0, refused: [], categoriesCreated: [] }),
  },
  // REQ-INS-4 (link health). Only the link-health function (service role) records results or
  // asks which products are due; an empty batch writes nothing. Forging attempts with real rows:
  // link-health-security.test.ts.
  'record_link_checks(jsonb)': {
    allowed: ['service_role'],
    args: async () => ({ p_results: [] }),
    expected: () => 0,
  },
  'link_health_due(integer)': {
    allowed: ['service_role'],
    args: async () => ({ p_limit: 1 }),
    expected: () => [expect.objectContaining({ id: expect.any(String) })],
  },
  ...FEED_FUNCTIONS,
  ...PAGE_FUNCTIONS,
  ...mfaFunctions(users),
};

beforeAll(async () => {
  const db = new pg.Client({ connectionString: stackEnv().DB_URL });
  await db.connect();
  try {
    // Functions an extension installed are the extension's business, not this schema's.
    const { rows } = await db.query<{ sig: string }>(
      `select replace(p.oid::regprocedure::text, 'public.', '') as sig
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public'
          and not exists (select 1 from pg_depend d
                           where d.classid = 'pg_proc'::regclass and d.objid = p.oid
                             and d.deptype = 'e')
        order by 1`,
    );
    publicFunctions = rows.map((r) => r.sig.replace(/, /g, ','));
    const loose = await db.query<{ sig: string }>(
      `select p.oid::regprocedure::text as sig
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private')
          and not ('search_path=""' = any (coalesce(p.proconfig, '{}')))`,
    );
    unpinned = loose.rows.map((r) => r.sig);
  } finally {
    await db.end();
  }
  const plainUser = await createConfirmedUser();
  users.push(plainUser);
  adminUser = await createAdmin();
  users.push(adminUser);
  clients.anon = anonClient();
  clients.user = await signedInClient(plainUser);
  clients.admin = await signedInClient(adminUser);
  clients.service_role = service;
  const mfa = await factorAdmin();
  users.push(mfa.user);
  [clients.admin_aal1, clients.admin_aal2] = [mfa.aal1, mfa.aal2];
});

afterAll(async () => {
  await deleteUsers(service, users);
});

describe('public function coverage', () => {
  it('every function in public has a row in the matrix', () => {
    expect(publicFunctions.length).toBeGreaterThan(0);
    for (const fn of publicFunctions) {
      expect.soft(Object.keys(FUNCTIONS), `matrix covers public.${fn}`).toContain(fn);
    }
  });

  it('every function in public and private runs with search_path fixed to nothing', () => {
    expect(unpinned).toEqual([]);
  });
});

for (const [signature, spec] of Object.entries(FUNCTIONS)) {
  const name = signature.slice(0, signature.indexOf('('));
  describe(`public.${signature}`, () => {
    for (const role of MATRIX_ROLES) {
      const base = rightsOf(role);
      const own = role === 'admin_aal1' || role === 'admin_aal2' ? spec.mfa?.[role] : undefined;
      const allowed = own ? own.allowed : spec.allowed.includes(base);
      it(`${role}: ${allowed ? 'allowed' : 'refused'}`, async () => {
        // A row for a signature that no longer exists is a stale matrix, not a pass.
        expect(publicFunctions, `public.${signature} exists`).toContain(signature);
        const args = await spec.args();
        const { data, error } = await clients[role].rpc(name, args);
        if (allowed) {
          expect(error?.message).toBeUndefined();
          expect(data).toEqual(own ? own.expected : spec.expected(base));
        } else {
          expect(error?.code, `${role} is refused`).toBe('42501');
        }
        await spec.after?.(base, allowed, args);
      });
    }
  });
}
