// @vitest-environment jsdom
// The cards the HTML's early script drew must survive a render that React throws away and starts
// again before it commits (a sibling that suspends, or an input event while a transition hydrates
// the page). Render is then run twice: if the first run had used up the drawn cards, the second
// would start from "loading", the markup would not match what is on screen, and React would
// replace the whole page, taking the keyboard focus with it (seen in CI; REQ-FIND-7).
import { act, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EarlyFirstPage } from '../../src/features/storefront/earlyFirstPage';
import {
  forgetDrawnFirstPage,
  readDrawnFirstPage,
} from '../../src/features/storefront/firstPagePrefetch';
import { DEFAULT_SORT } from '../../src/features/storefront/storeView';
import { useProductList } from '../../src/features/storefront/useCatalogue';
import type { StoreProduct } from '../../src/lib/domain/tables';

const product = (n: number): StoreProduct => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  title: `Product ${n}`,
  cat: 'Football',
  image: '',
  price: '5',
  price_value: 5,
  com: '',
  link: `https://seller.example.com/${n}`,
  slug: `product-${n}`,
});

function drawnPage(): EarlyFirstPage {
  const products = [product(1), product(2)];
  return {
    cat: null,
    clicks: [],
    rows: Promise.resolve(products),
    drawn: { products, hasMore: false },
    sealed: true,
  };
}

afterEach(() => {
  delete window.__marFirstPage;
});

function Titles() {
  const list = useProductList({ q: '', cat: null, sort: DEFAULT_SORT });
  return (
    <p data-testid="list">
      {list.status}: {list.products.map((p) => p.title).join(', ')}
    </p>
  );
}

describe('the drawn first page', () => {
  it('is read the same by every render until one commits, then not again', () => {
    window.__marFirstPage = drawnPage();
    const first = readDrawnFirstPage(null);
    expect(first?.products).toHaveLength(2);
    expect(readDrawnFirstPage(null)).toEqual(first);
    expect(readDrawnFirstPage('Football'), 'another category').toBeNull();
    forgetDrawnFirstPage();
    expect(readDrawnFirstPage(null)).toBeNull();
  });

  it('is what the list shows after a render that was thrown away and run again', async () => {
    window.__marFirstPage = drawnPage();
    let resolve!: () => void;
    const until = new Promise<void>((r) => (resolve = r));
    // Suspends until `until`: React discards its siblings' first render too, and runs it again.
    const SuspendsOnce = lazy(() => until.then(() => ({ default: () => null })));
    render(
      <Suspense fallback={<p>waiting</p>}>
        <Titles />
        <SuspendsOnce />
      </Suspense>,
    );
    expect(screen.getByText('waiting')).toBeTruthy();
    await act(async () => resolve());
    expect((await screen.findByTestId('list')).textContent).toBe('ready: Product 1, Product 2');
    // Taken over by the committed list: a later view (another category and back) asks afresh.
    expect(window.__marFirstPage).toBeUndefined();
  });
});
