import { supabase } from '../../../lib/infra/supabase';
import { ADMIN_PRODUCT_COLUMNS, selectList, type AdminProduct } from '../../../lib/domain/tables';
import { check, outcome, type WriteOutcome } from '../db';
import type { ProductValues } from './productSchema';

const PRODUCT_COLUMNS = selectList(ADMIN_PRODUCT_COLUMNS);

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

/**
 * REQ-PATH-10: the product whose title is `title` in another case, or null. PostgREST's ilike
 * reads `*` as a wildcard too, so the answer is checked here for the same letters.
 */
export async function findProductInAnyCase(title: string): Promise<AdminProduct | null> {
  const pattern = title.trim().replace(/[\\%_]/g, '\\$&');
  const rows = check(
    await supabase
      .from('products')
      .select(PRODUCT_COLUMNS)
      .ilike('title', pattern)
      .limit(5)
      .retry(false),
  );
  const wanted = title.trim().toLocaleLowerCase();
  return rows.find((p) => p.title.toLocaleLowerCase() === wanted) ?? null;
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

/** Moves the products to category `cat` in one statement; returns how many moved. */
export async function moveProducts(ids: string[], cat: string): Promise<number> {
  return check(await supabase.rpc('admin_move_products', { p_ids: ids, p_cat: cat }));
}

/** Deletes the products in one statement; returns how many were deleted. */
export async function deleteProducts(ids: string[]): Promise<number> {
  return check(await supabase.rpc('admin_delete_products', { p_ids: ids }));
}
