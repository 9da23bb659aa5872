import { catalogueDb } from '../../lib/infra/catalogueDb';
import { cursorPrice } from '../../lib/domain/storeOrder';
import { selectList, CARD_PRODUCT_COLUMNS, type CardProduct } from '../../lib/domain/tables';
import type { CardPage } from './catalogue';
import { PAGE_SIZE } from './paging';
import type { StoreView } from './storeView';

// Loaded on the first search or sort (useCatalogue imports it when needed): the home page's first
// load does not carry it (its JS budget).

/** A search result carries created_at too: the newest-first cursor needs it. */
export type SearchProduct = CardProduct & { created_at: string };
const SEARCH_COLUMNS = selectList([...CARD_PRODUCT_COLUMNS, 'created_at'] as const);

/**
 * One page of a search and/or another sort (public.storefront_search): every word of the search
 * in title, category or comment (typos corrected by the database), keyset paging in the chosen
 * order like fetchCardPage.
 */
export async function fetchSearchPage(
  view: StoreView,
  after: (CardProduct & { created_at?: string }) | null,
  signal?: AbortSignal,
): Promise<CardPage> {
  let query = (await catalogueDb())
    .rpc(
      'storefront_search',
      {
        p_query: view.q.trim() || undefined,
        p_cat: view.cat ?? undefined,
        p_sort: view.sort,
        p_after_price: cursorPrice(after),
        p_after_title: after?.title,
        p_after_created: after?.created_at,
        p_after_id: after?.id,
        p_limit: PAGE_SIZE + 1,
      },
      { get: true },
    )
    .select(SEARCH_COLUMNS);
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query;
  if (error) throw error;
  const rows: SearchProduct[] = data;
  return { products: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}
