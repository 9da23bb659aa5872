// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../src/adminTexts';
import { renderWithProviders } from './render';

// The home page's data access is isolated here; the browser tests use the real database.
const catalogue = vi.hoisted(() => ({
  fetchCategories: vi.fn(),
  fetchCardPage: vi.fn(),
  fetchSearchPage: vi.fn(),
}));
vi.mock('../../src/features/storefront/catalogue', () => catalogue);
vi.mock('../../src/features/storefront/searchPage', () => catalogue);

const { HomePage } = await import('../../src/features/storefront/HomePage');

const row = (n: number, cat = 'Football') => ({
  id: `id-${n}`,
  title: `Product ${n}`,
  cat,
  image: `/products/p${n}.svg`,
  price: String(n),
  com: `Comment ${n}`,
  link: `https://seller.example.com/${n}`,
  slug: `product-${n}`,
});

function LocationProbe() {
  const { search } = useLocation();
  return <output data-testid="search">{search}</output>;
}

function renderHome(route = '/') {
  return renderWithProviders(
    <Routes>
      <Route
        path="/"
        element={
          <>
            <HomePage />
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    { route },
  );
}

describe('<HomePage />', () => {
  beforeEach(() => {
    catalogue.fetchCategories.mockReset().mockResolvedValue([
      { id: 'c1', title: 'Football' },
      { id: 'c2', title: 'Tennis' },
    ]);
    catalogue.fetchCardPage.mockReset();
    catalogue.fetchSearchPage.mockReset();
  });

  it('searches and sorts from the URL, keeps them when a category is chosen, announces results', async () => {
    catalogue.fetchSearchPage.mockImplementation(async (_view: unknown, after: unknown) =>
      after === null
        ? { products: [row(1), row(2)], hasMore: true }
        : { products: [row(3)], hasMore: false },
    );
    renderHome('/?q=ball&sort=newest');
    // The search's fetching is a dynamic import: its first load can take a moment.
    expect(await screen.findAllByTestId('product-card', {}, { timeout: 10_000 })).toHaveLength(2);
    expect(catalogue.fetchSearchPage).toHaveBeenLastCalledWith(
      { q: 'ball', cat: null, sort: 'newest' },
      null,
      expect.any(AbortSignal),
    );
    expect(catalogue.fetchCardPage).not.toHaveBeenCalled();
    expect(screen.getByRole('searchbox', { name: texts.storeSearch.label })).toHaveValue('ball');
    expect(screen.getByTestId('search-announcement')).toHaveTextContent(
      texts.storeSearch.found(2, true),
    );
    fireEvent.click(screen.getByRole('button', { name: texts.storefront.loadMore }));
    await waitFor(() => expect(screen.getAllByTestId('product-card')).toHaveLength(3));
    expect(catalogue.fetchSearchPage).toHaveBeenLastCalledWith(
      { q: 'ball', cat: null, sort: 'newest' },
      row(2),
      expect.any(AbortSignal),
    );
    expect(screen.getByTestId('search-announcement')).toHaveTextContent(
      texts.storeSearch.found(3, false),
    );

    const buttons = within(screen.getByTestId('category-buttons'));
    fireEvent.click(await buttons.findByRole('button', { name: 'Tennis' }));
    expect(screen.getByTestId('search')).toHaveTextContent('?q=ball&sort=newest&cat=Tennis');
    await waitFor(() =>
      expect(catalogue.fetchSearchPage).toHaveBeenLastCalledWith(
        { q: 'ball', cat: 'Tennis', sort: 'newest' },
        null,
        expect.any(AbortSignal),
      ),
    );
  }, 20_000); // several renders: slow on a loaded machine

  it('lists all products under the All heading and filters by category through the URL', async () => {
    catalogue.fetchCardPage.mockImplementation(async (cat: string | null) =>
      cat === 'Tennis'
        ? { products: [row(3, 'Tennis')], hasMore: false }
        : { products: [row(1), row(2, 'Tennis')], hasMore: false },
    );
    renderHome();
    expect(screen.getByRole('heading', { level: 1, name: texts.home.all })).toBeInTheDocument();
    expect(await screen.findAllByTestId('product-card')).toHaveLength(2);
    expect(catalogue.fetchCardPage).toHaveBeenLastCalledWith(null, null, expect.any(AbortSignal));

    const buttons = within(screen.getByTestId('category-buttons'));
    fireEvent.click(await buttons.findByRole('button', { name: 'Tennis' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Tennis' })).toBeInTheDocument();
    expect(screen.getByTestId('search')).toHaveTextContent('?cat=Tennis');
    await waitFor(() => expect(screen.getAllByTestId('product-card')).toHaveLength(1));
    expect(catalogue.fetchCardPage).toHaveBeenLastCalledWith(
      'Tennis',
      null,
      expect.any(AbortSignal),
    );
    expect(buttons.getByRole('button', { name: 'Tennis' })).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(buttons.getByRole('button', { name: texts.home.all }));
    expect(screen.getByTestId('search')).toBeEmptyDOMElement();
    await waitFor(() => expect(screen.getAllByTestId('product-card')).toHaveLength(2));
  });

  it('starts from the category in the URL', async () => {
    catalogue.fetchCardPage.mockResolvedValue({ products: [], hasMore: false });
    renderHome('/?cat=Tennis');
    expect(screen.getByRole('heading', { level: 1, name: 'Tennis' })).toBeInTheDocument();
    // Loading state first: announced, with placeholders instead of an empty page.
    expect(screen.getByTestId('catalogue-loading')).toHaveTextContent(texts.storefront.loading);
    expect(await screen.findByText(texts.home.noProducts)).toBeInTheDocument();
    expect(screen.queryByTestId('catalogue-loading')).toBeNull();
    expect(catalogue.fetchCardPage).toHaveBeenCalledWith('Tennis', null, expect.any(AbortSignal));
  });

  it('loads further pages with Load more and hides it at the end', async () => {
    catalogue.fetchCardPage.mockImplementation(async (_cat: string | null, after: unknown) =>
      after === null
        ? { products: [row(1), row(2)], hasMore: true }
        : { products: [row(2), row(3)], hasMore: false },
    );
    renderHome();
    expect(await screen.findAllByTestId('product-card')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: texts.storefront.loadMore }));
    // Row 2 came back again (repriced meanwhile) but is shown once.
    await waitFor(() => expect(screen.getAllByTestId('product-card')).toHaveLength(3));
    // The next page starts after the last product shown (its key), not at an offset.
    expect(catalogue.fetchCardPage).toHaveBeenLastCalledWith(null, row(2), expect.any(AbortSignal));
    expect(screen.queryByRole('button', { name: texts.storefront.loadMore })).toBeNull();
  });

  it('shows a visible error with retry and an error toast when loading fails', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    catalogue.fetchCardPage.mockRejectedValueOnce(new Error('network down'));
    catalogue.fetchCardPage.mockResolvedValueOnce({ products: [row(1)], hasMore: false });
    renderHome();
    // Two alerts: the message on the page and the toast (Mantine notification).
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    for (const alert of screen.getAllByRole('alert')) {
      expect(alert).toHaveTextContent(texts.storefront.loadFailed);
    }
    expect(screen.queryByTestId('product-grid')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: texts.storefront.retry }));
    expect(await screen.findAllByTestId('product-card')).toHaveLength(1);
    spy.mockRestore();
  });
});
