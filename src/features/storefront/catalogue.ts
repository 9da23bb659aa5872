import { catalogueGet } from '../../lib/infra/catalogueRest';
import { storePageArgs, type StoreCursor } from '../../lib/domain/storeOrder';
import {
  selectList,
  STORE_CATEGORY_COLUMNS,
  CARD_PRODUCT_COLUMNS,
  type StoreCategory,
  type CardProduct,
} from '../../lib/domain/tables';
import { PAGE_SIZE } from './paging';

export interface CardPage {
  products: CardProduct[];
  hasMore: boolean;
}

/**
 * One page of the catalogue in the store's order, after the last product already shown (null:
 * the first page). Keyset paging (public.storefront_page): every page costs the same however deep
 * it is, and a product added or repriced meanwhile never shifts a page. One extra row is
 * requested to learn whether another page exists without a separate count query.
 */
export async function fetchCardPage(
  category: string | null,
  after: StoreCursor | null,
  signal?: AbortSignal,
): Promise<CardPage> {
  const rows = await catalogueGet<CardProduct[]>(
    'rpc/storefront_page',
    { ...storePageArgs(category, after, PAGE_SIZE + 1), select: selectList(CARD_PRODUCT_COLUMNS) },
    signal,
  );
  return { products: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}

export async function fetchCategories(signal?: AbortSignal): Promise<StoreCategory[]> {
  return catalogueGet<StoreCategory[]>(
    'catagories',
    { select: selectList(STORE_CATEGORY_COLUMNS), order: 'title.asc' },
    signal,
  );
}
