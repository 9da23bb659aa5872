import { supabase } from '../../../lib/infra/supabase';
import { ADMIN_CATEGORY_COLUMNS, selectList, type AdminCategory } from '../../../lib/domain/tables';
import { check, DbError, outcome, type WriteOutcome } from '../db';
import type { CategoryValues } from './categorySchema';

const CATEGORY_COLUMNS = selectList(ADMIN_CATEGORY_COLUMNS);

export async function listCategories(): Promise<AdminCategory[]> {
  return check(
    await supabase.from('catagories').select(CATEGORY_COLUMNS).order('title', { ascending: true }),
  );
}

// Like Get Product (products/productApi.ts), Get Catagory answers at once: no retries.

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
