import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '../../lib/supabase';
import { likeLiteral } from '../../lib/likePattern';
import { inStoreOrder } from '../../lib/storeOrder';
import {
  ADMIN_CATEGORY_COLUMNS,
  ADMIN_PRODUCT_COLUMNS,
  selectList,
  type AdminCategory,
  type AdminProduct,
} from '../../lib/tables';
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

/** Rows PostgREST returns per request at most (`max_rows`, 1000 on hosted Supabase and here). */
export const MAX_ROWS_PER_REQUEST = 1000;

/**
 * All products in the store's order, read in pages of MAX_ROWS_PER_REQUEST: one request would silently stop at the server's cap.
 */
export async function listProducts(): Promise<AdminProduct[]> {
  const all: AdminProduct[] = [];
  const seen = new Set<string>();
  for (let offset = 0; ; offset += MAX_ROWS_PER_REQUEST) {
    const page = check(
      await inStoreOrder(supabase.from('products').select(PRODUCT_COLUMNS)).range(
        offset,
        offset + MAX_ROWS_PER_REQUEST - 1,
      ),
    );
    // A product repriced between two requests can move across a page boundary: list it once.
    for (const product of page) {
      if (seen.has(product.id)) continue;
      seen.add(product.id);
      all.push(product);
    }
    if (page.length < MAX_ROWS_PER_REQUEST) return all;
  }
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
 * Whether another row already uses `title`. The database keeps titles unique ignoring case, so
 * the check ignores case too (the unique index still has the last word on a race).
 */
export async function titleInUse(
  table: 'products' | 'catagories',
  title: string,
  exceptId?: string,
): Promise<boolean> {
  const rows = check(
    await supabase
      .from(table)
      .select('id')
      .ilike('title', likeLiteral(title))
      .limit(2)
      .retry(false),
  );
  return rows.some((row) => row.id !== exceptId);
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

export async function deleteCategory(id: string): Promise<boolean> {
  const rows = check(await supabase.from('catagories').delete().eq('id', id).select('id'));
  return rows.length > 0;
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
