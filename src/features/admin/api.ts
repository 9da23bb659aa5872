import type { PostgrestError } from '@supabase/supabase-js';
import type { Json } from '../../lib/infra/database.types';
import { supabase } from '../../lib/infra/supabase';
import {
  ADMIN_CATEGORY_COLUMNS,
  ADMIN_PRODUCT_COLUMNS,
  selectList,
  type AdminCategory,
  type AdminProduct,
} from '../../lib/domain/tables';
import type { CategoryValues, ProductValues } from './schemas';

const PRODUCT_COLUMNS = selectList(ADMIN_PRODUCT_COLUMNS);
const CATEGORY_COLUMNS = selectList(ADMIN_CATEGORY_COLUMNS);

/** A failed database call; `code` is Postgres's SQLSTATE (23505 unique, 23503 still referenced). */
export class DbError extends Error {
  readonly code: string;
  constructor(error: PostgrestError) {
    super(error.message);
    this.name = 'DbError';
    this.code = error.code;
  }
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

export function isDbError(error: unknown, code?: string): error is DbError {
  return error instanceof DbError && (code === undefined || error.code === code);
}

/**
 * A failure the database never answered: offline, the gateway or PostgREST down. Postgres
 * errors carry a five-character SQLSTATE; these carry none (or PostgREST's own PGRST… code).
 */
export function unanswered(error: unknown): boolean {
  return !(error instanceof DbError) || !/^[0-9A-Z]{5}$/.test(error.code ?? '');
}

function check<T>(result: { data: T | null; error: PostgrestError | null }): T {
  if (result.error) throw new DbError(result.error);
  if (result.data === null) throw new Error('The database returned no data');
  return result.data;
}

export async function listCategories(): Promise<AdminCategory[]> {
  return check(
    await supabase.from('catagories').select(CATEGORY_COLUMNS).order('title', { ascending: true }),
  );
}

/*
 * Reads behind a button (Get) do not retry. postgrest-js
 * retries a GET three times (1 s, 2 s, 4 s apart) after a network error or a 503, so with the
 * database down the admin watched a spinner for about 7.5 s before the error; the admin can
 * press the button again, and writes never retried anyway. Answer at once instead.
 */

/** Get Product: the product whose title equals `title` exactly, or null. */
export async function findProductByTitle(title: string): Promise<AdminProduct | null> {
  const rows = check(
    await supabase
      .from('products')
      .select(PRODUCT_COLUMNS)
      .eq('title', title)
      .limit(1)
      .retry(false),
  );
  return rows[0] ?? null;
}

/** Get Catagory: the category whose title equals `title` exactly, or null. */
export async function findCategoryByTitle(title: string): Promise<AdminCategory | null> {
  const rows = check(
    await supabase
      .from('catagories')
      .select(CATEGORY_COLUMNS)
      .eq('title', title)
      .limit(1)
      .retry(false),
  );
  return rows[0] ?? null;
}

/**
 * What one admin write answered (docs/decisions/0223): the title check, the version check and
 * the write ran in one transaction, so "title in use" and "changed since Get" cannot race it.
 */
export type WriteResult = 'added' | 'changed' | 'deleted' | 'not_found' | 'stale' | 'title_in_use';

export interface WriteOutcome {
  result: WriteResult;
  /** A product's uploaded picture that nothing shows any more: its files are to be removed. */
  unused_image?: string | null;
}

/** The RPC's answer as it came; an answer the form does not know counts as a failure there. */
function outcome(result: { data: Json | null; error: PostgrestError | null }): WriteOutcome {
  return check(result) as unknown as WriteOutcome;
}

const productArgs = (v: ProductValues) => ({
  p_title: v.title,
  p_cat: v.cat,
  p_price: v.price,
  p_com: v.com,
  p_image: v.image,
  p_link: v.link,
});

/** Add Product: one request; "title_in_use" when a look-alike title exists. */
export async function addProduct(values: ProductValues): Promise<WriteOutcome> {
  return outcome(await supabase.rpc('admin_add_product', productArgs(values)));
}

/**
 * Update Product: one request. Only the version Get loaded (`loadedUpdatedAt`) is written:
 * "stale" when someone changed the product since, "not_found" when it is gone.
 */
export async function updateProduct(
  id: string,
  loadedUpdatedAt: string,
  values: ProductValues,
): Promise<WriteOutcome> {
  return outcome(
    await supabase.rpc('admin_update_product', {
      p_id: id,
      p_loaded_updated_at: loadedUpdatedAt,
      ...productArgs(values),
    }),
  );
}

/** Delete Product: one request; "not_found" when nothing was deleted. */
export async function deleteProduct(id: string): Promise<WriteOutcome> {
  return outcome(await supabase.rpc('admin_delete_product', { p_id: id }));
}

export async function addCategory(values: CategoryValues): Promise<WriteOutcome> {
  return outcome(await supabase.rpc('admin_add_catagory', { p_title: values.title }));
}

/** Renames by id (products follow through ON UPDATE CASCADE). */
export async function updateCategory(id: string, values: CategoryValues): Promise<WriteOutcome> {
  return outcome(await supabase.rpc('admin_update_catagory', { p_id: id, p_title: values.title }));
}

/**
 * Deletes a category; with `moveTo`, first moves its products there (one transaction in the
 * database). False when the category no longer existed.
 */
export async function deleteCategory(id: string, moveTo?: string): Promise<boolean> {
  const moved = check(
    await supabase.rpc('admin_delete_catagory', { p_id: id, p_move_to: moveTo }),
  ) as number | null;
  return moved !== null;
}

/** How many products name `title` as their category (so a delete can say why it is refused). */
export async function countProductsIn(title: string): Promise<number> {
  const { count, error } = await supabase
    .from('products')
    .select('id', { count: 'exact', head: true })
    .eq('cat', title);
  if (error) throw new DbError(error);
  return count ?? 0;
}

/** Every category title with its number of products, from one aggregate query. */
export async function categoryProductCounts(): Promise<Map<string, number>> {
  const rows = check(await supabase.rpc('catagory_product_counts'));
  return new Map(rows.map((r) => [r.cat, r.products]));
}

/** Moves the products to category `cat` in one statement; returns how many moved. */
export async function moveProducts(ids: string[], cat: string): Promise<number> {
  return check(await supabase.rpc('admin_move_products', { p_ids: ids, p_cat: cat }));
}

/** Deletes the products in one statement; returns how many were deleted. */
export async function deleteProducts(ids: string[]): Promise<number> {
  return check(await supabase.rpc('admin_delete_products', { p_ids: ids }));
}
