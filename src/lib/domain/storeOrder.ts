import type { ProductRow } from './tables';

/**
 * The store's order of products (spec: price low to high): by price_value (the lowest current
 * offer price, decision 0230), products without one last, then by title, then by id so that paging is stable. The
 * storefront, the admin list, the browser tests and the bench all read products in this order;
 * the indexes products_price_order_idx and products_cat_price_order_idx are built for it.
 */
export const STORE_ORDER: readonly OrderTerm[] = [
  { column: 'price_value', ascending: true, nullsFirst: false },
  { column: 'title', ascending: true },
  { column: 'id', ascending: true },
];

interface OrderTerm {
  column: Extract<keyof ProductRow, 'price_value' | 'title' | 'id'>;
  ascending: boolean;
  /** Only for a column that can be null; otherwise the database's default. */
  nullsFirst?: boolean;
}

/** Any query builder with postgrest-js' `order` (supabase-js or the bare PostgrestClient). */
interface Orderable<Q> {
  order(column: OrderTerm['column'], options: { ascending: boolean; nullsFirst?: boolean }): Q;
}

/** Adds the store's order to a products query. */
export function inStoreOrder<Q extends Orderable<Q>>(query: Q): Q {
  return STORE_ORDER.reduce(
    (q, { column, ascending, nullsFirst }) => q.order(column, { ascending, nullsFirst }),
    query,
  );
}

const nulls = (t: OrderTerm) =>
  t.nullsFirst === undefined ? null : t.nullsFirst ? 'first' : 'last';

/** The same order as a PostgREST `order=` parameter (for raw HTTP requests). */
export const STORE_ORDER_PARAM = STORE_ORDER.map((t) =>
  [t.column, t.ascending ? 'asc' : 'desc', nulls(t) && `nulls${nulls(t)}`]
    .filter(Boolean)
    .join('.'),
).join(',');

/** The same order as an SQL ORDER BY list. */
export const STORE_ORDER_SQL = STORE_ORDER.map((t) =>
  [t.column, t.ascending ? 'asc' : 'desc', nulls(t) && `nulls ${nulls(t)}`]
    .filter(Boolean)
    .join(' '),
).join(', ');

/**
 * Where a page starts: the last product of the page before (null for the first page). Its
 * price_value (the lowest current offer price the database keeps, decision 0230) goes back as
 * text, which the database reads with public.price_number.
 */
export type StoreCursor = { id: string; title: string; price_value: number | null };

/** A cursor's price as storefront_page and storefront_search take it (none: no price). */
export function cursorPrice(after: StoreCursor | null): string | undefined {
  return after?.price_value == null ? undefined : String(after.price_value);
}

/** The arguments of public.storefront_page (the keyset page in the store's order). */
export function storePageArgs(category: string | null, after: StoreCursor | null, limit: number) {
  return {
    p_cat: category ?? undefined,
    p_after_price: cursorPrice(after),
    p_after_title: after?.title,
    p_after_id: after?.id,
    p_limit: limit,
  };
}
