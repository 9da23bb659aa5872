// The admin Products table lists the whole catalogue, however large: PostgREST answers at most
// 1000 rows a request (max_rows, as on hosted Supabase), so listProducts reads page by page.
// Runs the admin area's own api.ts with a real supabase-js client signed in as an admin.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedBulk } from '../../scripts/seed-bulk';
import {
  createAdminUser,
  deleteUsers,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
} from './db-test-helpers';

const session = vi.hoisted(() => ({ client: null as SupabaseClient | null }));
// api.ts talks through the app's client module; here that module holds the admin's real client.
vi.mock('../../src/lib/supabase', () => ({ supabase: session.client }));

const service = serviceClient();
const BULK = 2_100;
let adminUser: TestUser;
let api: typeof import('../../src/features/admin/api');

beforeAll(async () => {
  adminUser = await createAdminUser(service);
  session.client = await signedInClient(adminUser);
  api = await import('../../src/features/admin/api');
  await seedBulk(stackEnv().DB_URL, BULK);
});

afterAll(async () => {
  await seedBulk(stackEnv().DB_URL, 0);
  await deleteUsers(service, [adminUser]);
});

describe('listProducts', () => {
  it('returns every product, beyond the 1000-row cap of one request, in the store order', async () => {
    const { count, error } = await service
      .from('products')
      .select('id', { count: 'exact', head: true });
    expect(error).toBeNull();
    expect(count).toBeGreaterThan(2 * api.MAX_ROWS_PER_REQUEST);

    const products = await api.listProducts();
    expect(products).toHaveLength(count!);
    expect(new Set(products.map((p) => p.id)).size).toBe(count);

    // Numeric price order (text prices without a number last), as the storefront shows it.
    const { data: order } = await service
      .from('products')
      .select('id, price_value')
      .in(
        'id',
        products.slice(995, 1005).map((p) => p.id),
      );
    const value = new Map(order!.map((r) => [r.id as string, r.price_value as number | null]));
    const around = products.slice(995, 1005).map((p) => value.get(p.id) ?? Infinity);
    expect(around).toEqual([...around].sort((a, b) => a - b));
  });
});
