import { catalogueDb } from '../../lib/catalogueDb';
import { inStoreOrder } from '../../lib/storeOrder';
import {
  selectList,
  STORE_CATEGORY_COLUMNS,
  STORE_PRODUCT_COLUMNS,
  type StoreCategory,
  type StoreProduct,
} from '../../lib/tables';
import { PAGE_SIZE } from './paging';

export interface ProductPage {
  products: StoreProduct[];
  hasMore: boolean;
}

/**
 * One page of the catalogue in the store's order. One extra row is requested to learn whether
 * another page exists without a separate count query.
 */
export async function fetchProductPage(
  category: string | null,
  offset: number,
  signal?: AbortSignal,
): Promise<ProductPage> {
  let query = inStoreOrder(
    catalogueDb().from('products').select(selectList(STORE_PRODUCT_COLUMNS)),
  ).range(offset, offset + PAGE_SIZE);
  if (category) query = query.eq('cat', category);
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query;
  if (error) throw error;
  const rows: StoreProduct[] = data;
  return { products: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}

export async function fetchCategories(signal?: AbortSignal): Promise<StoreCategory[]> {
  let query = catalogueDb()
    .from('catagories')
    .select(selectList(STORE_CATEGORY_COLUMNS))
    .order('title', { ascending: true });
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query;
  if (error) throw error;
  return data;
}
