// The row-level-security matrix: every table in `public` × {anon, signed-in non-admin, admin,
// admin with a verified factor at aal1 and at aal2 (REQ-MFA-2), service_role} × {select, insert,
// update, delete}, each cell asserted through supabase-js over
// HTTP. Every write is checked afterwards with the service role, so a denied write is proven to
// have changed nothing and an allowed one to have really happened. The functions in `public` have
// their own matrix in security-function-matrix.test.ts.
// The rows (which role may do what, and the fixtures) are in rls-matrix-tables.ts,
// rls-matrix-offers.ts and rls-matrix-feeds.ts; the shared helpers in rls-matrix-support.ts.
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers, catalogueSnapshot } from './db-test-helpers.ts';
import {
  anonClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { cleanUpFeeds, FEED_TABLES } from './rls-matrix-feeds.ts';
import { factorAdmin, MATRIX_ROLES, rightsOf } from './admin-mfa-support.ts';
import {
  ACTIONS,
  cleanups,
  newAuthUser,
  readAsService,
  service,
  users,
  type TableSpec,
} from './rls-matrix-support.ts';
import { SLUG_HISTORY_TABLES, STORE_TABLES } from './rls-matrix-tables.ts';
import { OFFER_TABLES } from './rls-matrix-offers.ts';

let catalogueBefore: unknown;

const TABLES: Record<string, TableSpec> = {
  ...STORE_TABLES,
  ...OFFER_TABLES,
  ...SLUG_HISTORY_TABLES,
  ...FEED_TABLES,
};

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
