// The RLS matrix's vocabulary and fixtures (rls-matrix.test.ts): what a table's row of the
// matrix declares, the expectations several tables share, and the service-role helpers that make
// the rows a cell works on. Everything made here is undone in the matrix's afterAll through
// `cleanups` and `users`, so the seeded catalogue is left exactly as it was.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { productFields } from './db-test-helpers.ts';
import { click, visitor } from './click-support';
import { createConfirmedUser, serviceClient, type TestUser } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';
import type { BaseRole } from './admin-mfa-support.ts';

export type Role = BaseRole;
export type Action = 'select' | 'insert' | 'update' | 'delete';
export type Row = Record<string, unknown>;

export const ACTIONS: Action[] = ['select', 'insert', 'update', 'delete'];

/** Allowed actions per role, as the migrations' policies and grants intend; the rest is denied. */
export type Expectation = Record<Role, Action[]>;

export const CATALOGUE: Expectation = {
  anon: ['select'],
  user: ['select'],
  admin: ['select', 'insert', 'update', 'delete'],
  service_role: ['select', 'insert', 'update', 'delete'],
};
/** Products: the storefront reads them only through its RPCs (docs/decisions/0202). */
export const PRODUCTS: Expectation = {
  anon: [],
  user: [],
  admin: ['select', 'insert', 'update', 'delete'],
  service_role: ['select', 'insert', 'update', 'delete'],
};
export const ADMIN_READS_SERVICE_WRITES: Expectation = {
  anon: [],
  user: [],
  admin: ['select'],
  service_role: ['select', 'insert', 'update', 'delete'],
};
/** Click counts: written only by count_buy_now_click, so even the service role only reads. */
export const COUNTS: Expectation = {
  anon: [],
  user: [],
  admin: ['select'],
  service_role: ['select'],
};

export interface Fixture {
  /** Column and value that identify the row for the service-role check. */
  key: string;
  value: unknown;
}

export interface TableSpec {
  expect: Expectation;
  /** Creates a row (as service role) the action under test works on. */
  fixture(): Promise<Fixture>;
  /** A fresh row to insert, and how to find it afterwards. */
  newRow(): Promise<{ row: Row; key: string; value: unknown }>;
  /** A column change for the update test. */
  change(): { column: string; value: unknown };
}

export const service = (): SupabaseClient => serviceClient();
/** Run in reverse order after the matrix (newSeller puts its cleanup first, so it runs last). */
export const cleanups: (() => PromiseLike<unknown>)[] = [];
export const users: TestUser[] = [];
export const today = () => new Date().toISOString().slice(0, 10);

export async function must<T>(
  p: PromiseLike<{ data: T | null; error: { message: string } | null }>,
): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(error.message);
  return data as T; // null for writes without .select()
}

export async function readAsService(
  table: string,
  key: string,
  value: unknown,
): Promise<Row | null> {
  const rows = await must(service().from(table).select('*').eq(key, value));
  return ((rows as Row[])[0] ?? null) as Row | null;
}

/** A category plus its cleanup by id (a matrix cell may rename it). */
export async function newCategory(): Promise<{ id: string; title: string }> {
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

export async function newAuthUser(): Promise<TestUser> {
  const user = await createConfirmedUser();
  users.push(user);
  return user;
}

/** A new product in a new category with one counted Buy Now click (the counting path). */
export async function clickedProduct(): Promise<{ id: string; cat: string }> {
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

/** A product in a category of its own (cleaned up with the category). */
export async function newProduct(): Promise<string> {
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
export async function newSeller(): Promise<string> {
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
