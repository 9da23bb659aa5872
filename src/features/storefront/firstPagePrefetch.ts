// The app's side of the home page's early first page (earlyFirstPage.ts, the inline script).
import type { CardProduct } from '../../lib/domain/tables';
import type { CardPage } from './catalogue';
import type { EarlyFirstPage } from './earlyFirstPage';
import { PAGE_SIZE } from './paging';

const early = (): EarlyFirstPage | undefined =>
  typeof window === 'undefined' ? undefined : window.__marFirstPage;

/**
 * The first page of `category` as the HTML's inline script requested it while the page was
 * loading, or null when it did not (another page, other query parameters, a build without it)
 * or asked for another category. Taken once: whatever the app asks next (another category, a
 * retry, a search) is asked afresh. Rejects if that request failed.
 */
export function takePrefetchedFirstPage(category: string | null): Promise<CardPage> | null {
  const started = early();
  if (started) delete window.__marFirstPage;
  if (started?.cat !== category) return null;
  return started.rows.then((rows) => ({
    products: rows.slice(0, PAGE_SIZE),
    hasMore: rows.length > PAGE_SIZE,
  }));
}

/**
 * The first page of a category: the HTML's early request when it is for this category, else
 * `load()`. A failed early request falls back to `load()`, so the visitor sees what the app's
 * own request gets.
 */
export function firstPage(
  category: string | null,
  load: () => Promise<CardPage>,
): Promise<CardPage> {
  return takePrefetchedFirstPage(category)?.catch(load) ?? load();
}

/**
 * Called by app/start.tsx just before it hydrates: cards the early script has still to draw are
 * drawn now, so React hydrates the whole first page, and nothing is drawn after this.
 */
export function sealEarlyFirstPage(): void {
  const started = early();
  if (!started) return;
  started.finish?.();
  started.sealed = true;
}

/** The cards the early script drew, and the Buy Now clicks on them before the app started. */
export interface DrawnFirstPage {
  products: CardProduct[];
  hasMore: boolean;
  clicks: EarlyFirstPage['clicks'];
}

/**
 * The cards the early script drew on the page for `category`: the product list starts from them,
 * so React hydrates the drawn cards instead of replacing them. A pure read, called while
 * rendering: React may throw a render away and run it again before it commits (a sibling
 * suspends, an input event arrives while a transition hydrates), and every run must start from
 * the same cards, or the markup would not match and React would replace the whole page. The
 * list lets go of them with `forgetDrawnFirstPage` once it has committed.
 */
export function readDrawnFirstPage(category: string | null): DrawnFirstPage | null {
  const started = early();
  if (!started?.drawn || started.cat !== category) return null;
  return { ...started.drawn, clicks: started.clicks };
}

/** Called once the list showing the drawn cards has committed: later views ask afresh. */
export function forgetDrawnFirstPage(): void {
  if (early()?.drawn) delete window.__marFirstPage;
}
