import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { notify } from '../../lib/infra/notify';
import type { StoreCategory, CardProduct } from '../../lib/domain/tables';
import { texts } from '../../texts';
import { fetchCategories, fetchCardPage } from './catalogue';
import { countBuyNowClick } from './buyNowClicks';
import { firstPage, forgetDrawnFirstPage, readDrawnFirstPage } from './firstPagePrefetch';
import { isPlainView, type StoreView } from './storeView';

export interface ProductListState {
  status: 'loading' | 'ready' | 'error';
  products: CardProduct[];
  hasMore: boolean;
  loadingMore: boolean;
  /** Set when the last "Load more" failed; the products already shown stay. */
  loadMoreFailed: boolean;
}

const initial: ProductListState = {
  status: 'loading',
  products: [],
  hasMore: false,
  loadingMore: false,
  loadMoreFailed: false,
};

function reportFailure(error: unknown) {
  console.error('Loading the catalogue failed', error);
  notify.error(texts.storefront.loadFailed);
}

/**
 * One page of a view: the plain catalogue by storefront_page, a search or another sort by
 * storefront_search (its code loaded on first use).
 */
const fetchPage = (view: StoreView, after: CardProduct | null, signal: AbortSignal) =>
  isPlainView(view)
    ? fetchCardPage(view.cat, after, signal)
    : import('./searchPage').then((m) => m.fetchSearchPage(view, after, signal));

/**
 * The catalogue for one view (search, category, sort), read page by page from the database. A
 * change of view aborts requests still in flight so a slow old answer (an earlier keystroke's
 * search) never overwrites a new one.
 */
export function useProductList(view: StoreView) {
  const { q, cat, sort } = view;
  // The cards the HTML's early script drew (earlyFirstPage.ts): React starts from exactly what
  // the page shows, so it hydrates those cards instead of replacing them. Let go of once committed.
  const [drawn] = useState(() => (isPlainView(view) ? readDrawnFirstPage(cat) : null));
  const [state, setState] = useState<ProductListState>(() =>
    drawn
      ? { ...initial, status: 'ready', products: drawn.products, hasMore: drawn.hasMore }
      : initial,
  );
  const adopted = useRef(drawn !== null);
  const [attempt, setAttempt] = useState(0);
  const controller = useRef<AbortController | null>(null);
  // Mirrors state for loadMore so it reads the last product shown without re-creating callbacks.
  // A layout effect: updated before the new cards can be seen, so a click on "Load more" right
  // after they appear is not ignored as "not ready yet" (a passive effect can run later).
  const current = useRef(state);
  useLayoutEffect(() => {
    current.current = state;
  });

  useEffect(() => {
    const ac = new AbortController();
    controller.current = ac;
    if (adopted.current) {
      // The drawn first page is already the state; its Buy Now clicks are counted now.
      adopted.current = false;
      forgetDrawnFirstPage();
      for (const [id, offer] of drawn?.clicks.splice(0) ?? []) countBuyNowClick(id, offer);
      return () => ac.abort();
    }
    setState(initial);
    const view = { q, cat, sort };
    const load = () => fetchPage(view, null, ac.signal);
    // The HTML may have asked for the plain catalogue's first page already (firstPagePrefetch.ts).
    (isPlainView(view) ? firstPage(cat, load) : load()).then(
      (page) => {
        if (ac.signal.aborted) return;
        // A transition: rendering a page of cards yields to input instead of one long task.
        startTransition(() =>
          setState({ ...initial, status: 'ready', products: page.products, hasMore: page.hasMore }),
        );
      },
      (error: unknown) => {
        if (ac.signal.aborted) return;
        reportFailure(error);
        setState({ ...initial, status: 'error' });
      },
    );
    return () => ac.abort();
    // `drawn` is read once, on the first run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q, cat, sort, attempt]);

  const loadMore = useCallback(() => {
    const ac = controller.current;
    const now = current.current;
    if (!ac || now.status !== 'ready' || now.loadingMore || !now.hasMore) return;
    setState((s) => ({ ...s, loadingMore: true, loadMoreFailed: false }));
    fetchPage({ q, cat, sort }, now.products.at(-1) ?? null, ac.signal).then(
      (page) => {
        if (ac.signal.aborted) return;
        startTransition(() =>
          setState((s) => {
            // A product repriced between requests can come round again after the cursor; never
            // show the same product twice.
            const seen = new Set(s.products.map((p) => p.id));
            const fresh = page.products.filter((p) => !seen.has(p.id));
            return {
              ...s,
              products: [...s.products, ...fresh],
              hasMore: page.hasMore,
              loadingMore: false,
            };
          }),
        );
      },
      (error: unknown) => {
        if (ac.signal.aborted) return;
        reportFailure(error);
        setState((s) => ({ ...s, loadingMore: false, loadMoreFailed: true }));
      },
    );
  }, [q, cat, sort]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return { ...state, loadMore, retry };
}

export interface CategoryListState {
  status: 'loading' | 'ready' | 'error';
  categories: StoreCategory[];
}

/** Category buttons; a failure leaves the All button and the product list usable. */
export function useCategories(): CategoryListState {
  const [state, setState] = useState<CategoryListState>({ status: 'loading', categories: [] });
  useEffect(() => {
    const ac = new AbortController();
    fetchCategories(ac.signal).then(
      (categories) => {
        // A transition, like the cards: the buttons arriving never block the main thread.
        if (!ac.signal.aborted) startTransition(() => setState({ status: 'ready', categories }));
      },
      (error: unknown) => {
        if (ac.signal.aborted) return;
        console.error('Loading the categories failed', error);
        notify.error(texts.storefront.categoriesFailed);
        setState({ status: 'error', categories: [] });
      },
    );
    return () => ac.abort();
  }, []);
  return state;
}
