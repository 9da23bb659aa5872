import type { PostgrestError } from '@supabase/supabase-js';
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
 * Reads behind a button (Get, the duplicate check of Add/Update) do not retry. postgrest-js
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
 * Whether another row already uses `title` or a look-alike of it (the database's unique rule:
 * case, accents, invisible characters). Answered from the unique index, not by reading the table;
 * the index still has the last word on a race.
 */
export async function titleInUse(
  table: 'products' | 'catagories',
  title: string,
  exceptId?: string,
): Promise<boolean> {
  return check(
    await supabase.rpc('catalogue_title_in_use', {
      p_table: table,
      p_title: title,
      p_except_id: exceptId,
    }),
  );
}

export async function insertProduct(values: ProductValues): Promise<AdminProduct> {
  const rows = check(await supabase.from('products').insert(values).select(PRODUCT_COLUMNS));
  const row = rows[0];
  if (!row) throw new Error('The new product was not returned');
  return row;
}

/** The product was changed (by another admin) after it was loaded; nothing was written. */
export class ProductChangedError extends Error {
  constructor() {
    super('The product was changed since it was loaded');
    this.name = 'ProductChangedError';
  }
}

/**
 * Updates by id; null when no row was changed (deleted meanwhile, or not allowed). With
 * `loadedUpdatedAt` only the version that was loaded is updated: if someone changed the product
 * since, nothing is written and ProductChangedError is thrown.
 */
export async function updateProduct(
  id: string,
  values: ProductValues,
  loadedUpdatedAt?: string,
): Promise<AdminProduct | null> {
  let query = supabase.from('products').update(values).eq('id', id);
  if (loadedUpdatedAt) query = query.eq('updated_at', loadedUpdatedAt);
  const rows = check(await query.select(PRODUCT_COLUMNS));
  if (rows[0]) return rows[0];
  if (loadedUpdatedAt) {
    const still = check(await supabase.from('products').select('id').eq('id', id));
    if (still.length > 0) throw new ProductChangedError();
  }
  return null;
}

/** Deletes by id; false when nothing was deleted. */
export async function deleteProduct(id: string): Promise<boolean> {
  const rows = check(await supabase.from('products').delete().eq('id', id).select('id'));
  return rows.length > 0;
}

export async function insertCategory(values: CategoryValues): Promise<AdminCategory> {
  const rows = check(await supabase.from('catagories').insert(values).select(CATEGORY_COLUMNS));
  const row = rows[0];
  if (!row) throw new Error('The new catagory was not returned');
  return row;
}

/** Renames by id (products follow through ON UPDATE CASCADE); null when nothing changed. */
export async function updateCategory(
  id: string,
  values: CategoryValues,
): Promise<AdminCategory | null> {
  const rows = check(
    await supabase.from('catagories').update(values).eq('id', id).select(CATEGORY_COLUMNS),
  );
  return rows[0] ?? null;
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
