import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdminProduct } from '../../../lib/domain/tables';
import {
  countProducts,
  fetchAdminTablePage,
  takeArrivedPage,
  type ProductCount,
  type ProductQuery,
} from './productQuery';

export interface AdminTablePage {
  rows: AdminProduct[];
  count: ProductCount | null;
  /** True until the first answer for the current query and page arrived. */
  loading: boolean;
  failed: boolean;
  retry: () => void;
}

/**
 * One page of the admin table, read from the database for `query` and `page` (1-based), again
 * whenever `version` changes (after a write). A newer request aborts the one still running, so a
 * slow answer to an old search can never replace the newer one. The count comes separately: the
 * first rows do not wait for it.
 */
export function useAdminTablePage(
  query: ProductQuery,
  page: number,
  pageSize: number,
  version: number,
): AdminTablePage {
  // The first page asked for while the admin check ran is usually here before the table: then
  // the table's first render has its rows (one render fewer before they show, decision 0180).
  const [arrived] = useState(() => takeArrivedPage(query, (page - 1) * pageSize, pageSize));
  const [rows, setRows] = useState<AdminProduct[]>(arrived ?? []);
  const [count, setCount] = useState<ProductCount | null>(null);
  const [loading, setLoading] = useState(arrived === null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const skipRead = useRef(arrived !== null);
  // The page being read: the count waits for it (below).
  const reading = useRef<Promise<unknown>>(Promise.resolve());

  useEffect(() => {
    if (skipRead.current) {
      skipRead.current = false;
      return;
    }
    const controller = new AbortController();
    setFailed(false);
    const read = fetchAdminTablePage(query, (page - 1) * pageSize, pageSize, controller.signal);
    reading.current = read.catch(() => {});
    read
      .then((found) => {
        setRows(found);
        setLoading(false);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Loading a page of products failed', error);
        setLoading(false);
        setFailed(true);
      });
    return () => controller.abort();
  }, [query, page, pageSize, version, attempt]);

  // Asked once the rows are here (this effect runs after the page's, which set `reading`): on
  // two busy cores a count running beside a search slowed the search's answer (decision 0180).
  useEffect(() => {
    const controller = new AbortController();
    reading.current
      .then(() => countProducts(query, controller.signal))
      .then(setCount)
      .catch((error: unknown) => {
        // The table still works without a total; the pager then offers the next page only.
        if (!controller.signal.aborted) console.error('Counting products failed', error);
      });
    return () => controller.abort();
  }, [query, version, attempt]);

  const retry = useCallback(() => {
    setLoading(true);
    setAttempt((n) => n + 1);
  }, []);

  return { rows, count, loading, failed, retry };
}

/** `value`, but only after it stopped changing for `delayMs` (typing a search). */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
