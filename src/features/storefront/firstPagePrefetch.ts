import type { StoreProduct } from '../../lib/tables';
import type { ProductPage } from './catalogue';
import { PAGE_SIZE } from './paging';

/** What the inline script in the HTML started (scripts/vite-first-page.ts). */
interface HtmlPrefetch {
  cat: string | null;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __marFirstPage?: HtmlPrefetch;
  }
}

/**
 * The first page of `category` as the HTML's inline script requested it while the page was
 * loading, or null when it did not (another page, other query parameters, a build without it)
 * or asked for another category. Taken once: whatever the app asks next (another category, a
 * retry, a search) is asked afresh. Rejects if that request failed.
 */
export function takePrefetchedFirstPage(category: string | null): Promise<ProductPage> | null {
  if (typeof window === 'undefined') return null;
  const started = window.__marFirstPage;
  delete window.__marFirstPage;
  if (started?.cat !== category) return null;
  return started.response.then(async (response) => {
    if (!response.ok) throw new Error(`first page: HTTP ${response.status}`);
    const rows = (await response.json()) as StoreProduct[];
    return { products: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
  });
}

/**
 * The first page of a category: the HTML's early request when it is for this category, else
 * `load()`. A failed early request falls back to `load()`, so the visitor sees what the app's
 * own request gets.
 */
export function firstPage(
  category: string | null,
  load: () => Promise<ProductPage>,
): Promise<ProductPage> {
  return takePrefetchedFirstPage(category)?.catch(load) ?? load();
}
