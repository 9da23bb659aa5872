import { Button, Center, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMounted } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { texts } from '../../texts';
import { ErrorAlert } from '../../lib/ui/ErrorAlert';
import { Banner } from './Banner';
import { DisclosureLine } from './Disclosure';
import { scrollChosenIntoView } from './categoryRowScroll';
import classes from './HomePage.module.css';
import { ProductGrid, ProductGridSkeleton } from './ProductGrid';
import { SearchBar } from './SearchBar';
import { readStoreView, withStoreView, type StoreView } from './storeView';
import { useCategories, useProductList } from './useCatalogue';
import { useRenamedCategory } from './useRenamedCategory';

// The search's help (REQ-PATH-2) and its texts load with the first search or empty listing: the
// home page's and the product page's first load do not carry them (their JS budgets).
const SearchHelp = lazy(() => import('./SearchHelp'));

/** Query parameter holding the chosen category, so a filtered view survives reload and sharing. */
export { CATEGORY_PARAM } from './storeView';

/** Home: banner, category buttons, the heading (All or the category) and the product grid. */
/** Mantine's `md` button height: the room kept for Load more. */
const LOAD_MORE_HEIGHT = '2.625rem';

export function HomePage() {
  const [params, setParams] = useSearchParams();
  const view = readStoreView(params);
  const category = view.cat;
  const categories = useCategories();
  const list = useProductList(view);
  const categoryRow = useRef<HTMLDivElement>(null);
  const mounted = useMounted();
  // An old link to a renamed category: go to it under its new name (replacing the old URL).
  const unknownCategory = useRenamedCategory(category, categories, (current) =>
    setParams((prev) => withStoreView(prev, { cat: current }), {
      replace: true,
      preventScrollReset: true,
    }),
  );

  // On a phone the buttons scroll sideways: bring the chosen one into view (a shared or reloaded
  // `/?cat=Tennis` would otherwise hide it off-screen). Only the row scrolls, never the page.
  useEffect(() => {
    const row = categoryRow.current;
    const pressed = row?.querySelector<HTMLElement>('[aria-pressed="true"]');
    if (row && pressed) scrollChosenIntoView(row, pressed);
  }, [category, categories.status]);

  // The search, category and sort live in the URL (shareable; Back and Forward restore them).
  // Built on the last params set, not react-router's `prev` (the params of the last render): a
  // sort chosen right after a category, before the re-render, would drop the category.
  const latest = useRef(params);
  useLayoutEffect(() => {
    latest.current = params;
  }, [params]);
  const change = (patch: Partial<StoreView>, replace = false) => {
    latest.current = withStoreView(latest.current, patch);
    setParams(latest.current, { preventScrollReset: true, replace });
  };

  const choose = (title: string | null) => {
    if (title === category) {
      // Pressing the current choice again reloads it (the spec's All button reloads all).
      list.retry();
      return;
    }
    change({ cat: title });
  };

  return (
    <Stack gap="lg" className={classes.page}>
      <Banner />

      <Group
        gap="xs"
        ref={categoryRow}
        className={classes.categories}
        role="group"
        aria-label={texts.storefront.categoriesLabel}
        data-testid="category-buttons"
      >
        <Button
          variant={category === null ? 'filled' : 'light'}
          aria-pressed={category === null}
          onClick={() => choose(null)}
        >
          {texts.home.all}
        </Button>
        {categories.categories.map((c) => (
          <Button
            key={c.id}
            variant={category === c.title ? 'filled' : 'light'}
            aria-pressed={category === c.title}
            onClick={() => choose(c.title)}
          >
            {c.title}
          </Button>
        ))}
      </Group>

      <SearchBar
        q={view.q}
        sort={view.sort}
        onSearch={(q, push) => change({ q }, !push)}
        onSort={(sort) => change({ sort })}
      />

      <Stack gap="xs">
        <Title order={1} className={classes.heading} data-testid="catalogue-heading">
          {category ?? texts.home.all}
        </Title>
        {/* What a search looks through, and a way to widen it (REQ-PATH-2). */}
        {view.q.trim() && (
          <Suspense fallback={null}>
            <SearchHelp view={view} onChange={change} />
          </Suspense>
        )}
        {/* Every Buy Now below is an ad: said before the first of them (docs/decisions/0210). */}
        <DisclosureLine />
      </Stack>

      {/* Screen readers hear how a search turned out; the region exists before it changes. */}
      <VisuallyHidden role="status" data-testid="search-announcement">
        {view.q.trim() && list.status === 'ready'
          ? list.products.length === 0
            ? texts.home.noProducts
            : texts.storeSearch.found(list.products.length, list.hasMore)
          : ''}
      </VisuallyHidden>

      {list.status === 'loading' && (
        <div role="status" data-testid="catalogue-loading">
          <VisuallyHidden>{texts.storefront.loading}</VisuallyHidden>
          <ProductGridSkeleton />
        </div>
      )}

      {list.status === 'error' && (
        <ErrorAlert title={texts.unexpected}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{texts.storefront.loadFailed}</Text>
            <Button variant="light" color="red" onClick={list.retry}>
              {texts.storefront.retry}
            </Button>
          </Stack>
        </ErrorAlert>
      )}

      {list.status === 'ready' && list.products.length === 0 && (
        <Stack align="center" gap="sm" py="xl">
          <Text size="xl" ta="center" data-testid="no-products">
            {texts.home.noProducts}
          </Text>
          <Suspense fallback={null}>
            <SearchHelp view={view} onChange={change} empty unknownCategory={unknownCategory} />
          </Suspense>
        </Stack>
      )}

      {list.status === 'ready' && list.products.length > 0 && (
        <ProductGrid products={list.products} />
      )}

      {list.status === 'ready' && list.loadMoreFailed && (
        <ErrorAlert>{texts.storefront.loadFailed}</ErrorAlert>
      )}

      {/* The button only once the app runs: the early cards (earlyFirstPage.ts) are drawn before
          it does, and a button that does nothing yet would swallow the first press. Its room is
          there from the start (pre-rendered too), so the page's end stays put when it appears
          (REQ-PATH-5). */}
      <Center mih={LOAD_MORE_HEIGHT}>
        {list.status === 'ready' && list.hasMore && mounted && (
          <Button variant="outline" size="md" loading={list.loadingMore} onClick={list.loadMore}>
            {list.loadMoreFailed ? texts.storefront.retry : texts.storefront.loadMore}
          </Button>
        )}
      </Center>
    </Stack>
  );
}
