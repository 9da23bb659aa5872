import { catalogueDb } from '../../lib/catalogueDb';
import { PAGE_SIZE } from './paging';
import type { Category, Product } from './types';

const PRODUCT_COLUMNS = 'id,title,cat,image,price,com,link';

export interface ProductPage {
  products: Product[];
  hasMore: boolean;
}

/**
 * One page of the catalogue in the store's order: price ascending (text prices without a
 * number last), then title, then id so that paging is stable. One extra row is requested to
 * learn whether another page exists without a separate count query.
 */
export async function fetchProductPage(
  category: string | null,
  offset: number,
  signal?: AbortSignal,
): Promise<ProductPage> {
  let query = catalogueDb()
    .from('products')
    .select(PRODUCT_COLUMNS)
    .order('price_value', { ascending: true, nullsFirst: false })
    .order('title', { ascending: true })
    .order('id', { ascending: true })
    .range(offset, offset + PAGE_SIZE);
  if (category) query = query.eq('cat', category);
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query;
  if (error) throw error;
  const rows = (data ?? []) as Product[];
  return { products: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}

export async function fetchCategories(signal?: AbortSignal): Promise<Category[]> {
  let query = catalogueDb()
    .from('catagories')
    .select('id,title')
    .order('title', { ascending: true });
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query;
  if (error) throw error;
  return (data ?? []) as Category[];
}
