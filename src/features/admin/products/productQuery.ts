import { supabase } from '../../../lib/infra/supabase';
import { ADMIN_PRODUCT_COLUMNS, selectList, type AdminProduct } from '../../../lib/domain/tables';
import { DbError } from '../db';
import type { LinkHealthFilter } from '../linkHealth/linkHealthApi';

/** Columns the admin table sorts by (the database function accepts exactly these). */
export type ProductSortKey = 'title' | 'cat' | 'price' | 'created_at' | 'health' | 'price_checked';

/** Products with an offer whose price is past the store's stale (or hidden) limit (REQ-OFF-3). */
export type PriceFilter = 'stale' | 'hidden';

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
  /** Only products whose last link check says this; null for all (REQ-INS-6). */
  health: LinkHealthFilter | null;
  /** Only products with a stale (or hidden) offer price; null for all. */
  prices: PriceFilter | null;
}

export const DEFAULT_PRODUCT_QUERY: ProductQuery = {
  search: '',
  cat: null,
  sort: 'price',
  ascending: true,
  health: null,
  prices: null,
};

/** Rows per page of the admin table. */
export const ADMIN_TABLE_PAGE_SIZE = 10;

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
    prices: query.prices,
  };
}

const pageKey = (query: ProductQuery, offset: number, limit: number) =>
  JSON.stringify([queryArg(query), offset, limit]);

/** The table's first page, asked for early (prefetchFirstPage); used once, within 10 s. */
let early: {
  key: string;
  at: number;
  page: Promise<AdminProduct[] | null>;
  /** The rows once they arrived: the table's first render shows them without waiting a turn. */
  rows?: AdminProduct[] | null;
} | null = null;
const EARLY_PAGE_TTL_MS = 10_000;

/**
 * Asks for the table's first page while the admin check is still running, so the rows do not
 * wait for it (the database refuses the page to anyone who is not an admin: then the answer is
 * dropped, and the table, if it is ever shown, asks again).
 */
export function prefetchFirstPage(): Promise<unknown> {
  if (early && Date.now() - early.at < EARLY_PAGE_TTL_MS) return early.page;
  const entry: NonNullable<typeof early> = {
    key: pageKey(DEFAULT_PRODUCT_QUERY, 0, ADMIN_TABLE_PAGE_SIZE),
    at: Date.now(),
    page: readPage(DEFAULT_PRODUCT_QUERY, 0, ADMIN_TABLE_PAGE_SIZE).then(
      (rows) => {
        entry.rows = rows;
        return rows;
      },
      () => null,
    ),
  };
  early = entry;
  return entry.page;
}

/** The early first page if it has already arrived (used once), else null. */
export function takeArrivedPage(
  query: ProductQuery,
  offset: number,
  limit: number,
): AdminProduct[] | null {
  const prefetched = early;
  if (!prefetched?.rows || prefetched.key !== pageKey(query, offset, limit)) return null;
  early = null;
  return Date.now() - prefetched.at < EARLY_PAGE_TTL_MS ? prefetched.rows : null;
}

/** Products `offset`…`offset + limit - 1` of the query, in its order. */
export async function fetchAdminTablePage(
  query: ProductQuery,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<AdminProduct[]> {
  const prefetched = early;
  if (prefetched?.key === pageKey(query, offset, limit)) {
    early = null;
    const rows = Date.now() - prefetched.at < EARLY_PAGE_TTL_MS ? await prefetched.page : null;
    if (signal?.aborted) throw new DOMException('The read was aborted', 'AbortError');
    if (rows) return rows;
  }
  return readPage(query, offset, limit, signal);
}

async function readPage(
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
