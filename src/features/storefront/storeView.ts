/**
 * What the home page shows, kept in the URL so a view can be shared, reloaded and reached with
 * Back and Forward: `/?q=racket&cat=Tennis&sort=price-desc`. Defaults are left out of the URL
 * (no q, all categories, price low to high), so the plain home page stays `/`.
 * Kept free of imports so the unit and browser tests can share it.
 */
export const SEARCH_PARAM = 'q';
export const CATEGORY_PARAM = 'cat';
export const SORT_PARAM = 'sort';

/** The database's sort names (public.storefront_search); the first is the spec's order. */
export const SORTS = ['price-asc', 'price-desc', 'newest'] as const;
export type StoreSort = (typeof SORTS)[number];
export const DEFAULT_SORT: StoreSort = 'price-asc';

/** The database refuses longer search texts; the box stops there too. */
export const SEARCH_MAX_LENGTH = 100;

export interface StoreView {
  /** The search text as typed ('' for none). */
  q: string;
  cat: string | null;
  sort: StoreSort;
}

const isSort = (s: string | null): s is StoreSort => SORTS.includes(s as StoreSort);

/** The view a URL asks for; anything unknown or malformed falls back to the default. */
export function readStoreView(params: URLSearchParams): StoreView {
  const q = (params.get(SEARCH_PARAM) ?? '').slice(0, SEARCH_MAX_LENGTH);
  const sort = params.get(SORT_PARAM);
  return {
    q: q.trim() ? q : '',
    cat: params.get(CATEGORY_PARAM)?.trim() || null,
    sort: isSort(sort) ? sort : DEFAULT_SORT,
  };
}

/** The URL parameters for a change of view; other parameters stay as they are. */
export function withStoreView(params: URLSearchParams, change: Partial<StoreView>) {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null | undefined, fallback: string) => {
    if (value === undefined) return;
    if (value === null || value.trim() === fallback) next.delete(key);
    else next.set(key, value);
  };
  set(SEARCH_PARAM, change.q, '');
  set(CATEGORY_PARAM, change.cat, '');
  set(SORT_PARAM, change.sort, DEFAULT_SORT);
  return next;
}

/** True when the view is the plain catalogue in the store's order (no search, default sort). */
export const isPlainView = (view: StoreView) => !view.q.trim() && view.sort === DEFAULT_SORT;
