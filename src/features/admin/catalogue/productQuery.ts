import { supabase } from '../../../lib/supabase';
import { ADMIN_PRODUCT_COLUMNS, selectList, type AdminProduct } from '../../../lib/tables';
import { DbError } from '../api';
import type { LinkHealthFilter } from '../linkHealth/linkHealthApi';

/** Columns the admin table sorts by (the database function accepts exactly these). */
export type ProductSortKey = 'title' | 'cat' | 'price' | 'created_at' | 'health';

/**
 * The admin table's current filter: what the database function public.admin_product_page reads.
 * One type for everything that lists "the products the admin is looking at" (the table, and
 * exporting the current filter).
 */
export interface ProductQuery {
  /** Free text; matched in title, category and comment ignoring case, accents and small typos. */
  search: string;
  /** Only this category's products; null for all. */
  cat: string | null;
  sort: ProductSortKey;
  ascending: boolean;
  /** Only products whose last link check says this; null for all (issue 16). */
  health: LinkHealthFilter | null;
}

export const DEFAULT_PRODUCT_QUERY: ProductQuery = {
  search: '',
  cat: null,
  sort: 'price',
  ascending: true,
  health: null,
};

/** How many products match: exact up to 1,000, then the database planner's estimate. */
export interface ProductCount {
  total: number;
  exact: boolean;
}

const PRODUCT_COLUMNS = selectList(ADMIN_PRODUCT_COLUMNS);

/** The JSON the database functions take (keys as private.admin_product_filter reads them). */
function queryArg(query: ProductQuery) {
  return {
    search: query.search.trim(),
    cat: query.cat,
    sort: query.sort,
    ascending: query.ascending,
    health: query.health,
  };
}

/** Products `offset`…`offset + limit - 1` of the query, in its order. */
export async function fetchProductPage(
  query: ProductQuery,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<AdminProduct[]> {
  let request = supabase
    .rpc('admin_product_page', { p_query: queryArg(query), p_offset: offset, p_limit: limit })
    .select(PRODUCT_COLUMNS);
  if (signal) request = request.abortSignal(signal);
  const { data, error } = await request;
  if (error) throw new DbError(error);
  return data ?? [];
}

export async function countProducts(
  query: ProductQuery,
  signal?: AbortSignal,
): Promise<ProductCount> {
  let request = supabase.rpc('admin_product_count', { p_query: queryArg(query) });
  if (signal) request = request.abortSignal(signal);
  const { data, error } = await request;
  if (error) throw new DbError(error);
  return data as unknown as ProductCount;
}
