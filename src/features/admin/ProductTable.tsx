import {
  Center,
  Checkbox,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { texts } from '../../adminTexts';
import { formatPrice } from '../../lib/format';
import type { AdminProduct } from '../../lib/tables';
import { BulkActions } from './catalogue/BulkActions';
import {
  DEFAULT_PRODUCT_QUERY,
  PRODUCT_PAGE_SIZE,
  type ProductQuery,
  type ProductSortKey,
} from './catalogue/productQuery';
import { useDebounced, useProductPage } from './catalogue/useProductPage';
import { LinkHealthBadge } from './linkHealth/LinkHealthBadge';
import type { LinkHealthFilter } from './linkHealth/linkHealthApi';
import { useLinkChecks } from './linkHealth/useLinkChecks';
import { ListState, SelectableTable } from './SelectableTable';

const t = texts.productTable;
const lh = texts.linkHealth;

// "Check all links" and the hide-broken setting load after the table (admin chunk budget).
const LinkHealthPanel = lazy(() => import('./linkHealth/LinkHealthPanel'));
/** Worst first; values as private.admin_product_filter reads them. */
const HEALTH_FILTERS: { value: LinkHealthFilter; label: string }[] = [
  { value: 'attention', label: lh.filterAttention },
  { value: 'broken', label: lh.status.broken },
  { value: 'redirected', label: lh.status.redirected },
  { value: 'unreachable', label: lh.filterUnreachable },
  { value: 'ok', label: lh.status.ok },
  { value: 'unchecked', label: lh.status.unchecked },
];

/** Pagination's arrows are icons only: they get their names from here. */
const paginationLabels = {
  first: texts.a11y.firstPage,
  last: texts.a11y.lastPage,
  next: texts.a11y.nextPage,
  previous: texts.a11y.previousPage,
};

/** Skips most keystrokes of a word typed at speed; short, as the goal is results in 150 ms (a
 * newer search aborts the request of an older one). */
const SEARCH_DEBOUNCE_MS = 60;

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

interface ProductTableProps {
  /** Category titles for the filter and "Move to". */
  categories: string[];
  /** Bumped after every write: the page is read again. */
  version: number;
  selectedId: string | null;
  disabled: boolean;
  onSelect: (product: AdminProduct) => void;
  /** After a bulk action: reload categories and bump `version`. */
  onChanged: () => Promise<void>;
  /** Told the query (search, category, sort) whenever it settles. */
  onQueryChange?: (query: ProductQuery) => void;
}

/**
 * The catalogue, one page at a time from the database (public.admin_product_page): search in
 * title, category and comment, a category filter, sortable columns, and bulk move/delete of the
 * checked rows. Choosing a row loads it into the form.
 */
export function ProductTable({
  categories,
  version,
  selectedId,
  disabled,
  onSelect,
  onChanged,
  onQueryChange,
}: ProductTableProps) {
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Omit<ProductQuery, 'search'>>(DEFAULT_PRODUCT_QUERY);
  const [page, setPage] = useState(1);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  // Bumped by "Check all links": the page and its badges are read again.
  const [checkedVersion, setCheckedVersion] = useState(0);
  const settledSearch = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const query = useMemo<ProductQuery>(
    () => ({ ...filter, search: settledSearch }),
    [filter, settledSearch],
  );
  const { rows, count, loading, failed, retry } = useProductPage(
    query,
    page,
    PRODUCT_PAGE_SIZE,
    version + checkedVersion,
  );
  const linkChecks = useLinkChecks(
    rows.map((r) => r.id),
    version + checkedVersion,
  );
  // The CSV menu exports what the table shows.
  useEffect(() => onQueryChange?.(query), [query, onQueryChange]);

  // Another query or page shows other rows: a selection is only ever of visible rows.
  useEffect(() => setChecked(new Set()), [query, page, version]);
  useEffect(() => setPage(1), [query]);

  const pages = count
    ? Math.max(1, Math.ceil(count.total / PRODUCT_PAGE_SIZE))
    : page + (rows.length === PRODUCT_PAGE_SIZE ? 1 : 0);
  const allChecked = rows.length > 0 && rows.every((r) => checked.has(r.id));
  const someChecked = rows.some((r) => checked.has(r.id));

  const toggle = (id: string) =>
    setChecked((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const header = (key: ProductSortKey, label: string, visibleFrom?: 'sm') => {
    const active = filter.sort === key;
    return (
      <Table.Th
        aria-sort={active ? (filter.ascending ? 'ascending' : 'descending') : 'none'}
        visibleFrom={visibleFrom}
        style={{ whiteSpace: 'nowrap' }}
      >
        <UnstyledButton
          fw={700}
          fz="sm"
          onClick={() =>
            setFilter((f) => ({ ...f, sort: key, ascending: f.sort === key ? !f.ascending : true }))
          }
        >
          {label} {active ? (filter.ascending ? '▲' : '▼') : '↕'}
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={2} size="h4">
          {texts.productForm.listHeading}
          {count && (
            <Text span c="dimmed" fz="sm" ml="xs">
              ({t.count(count.total, count.exact)})
            </Text>
          )}
        </Title>
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t.search}
          description={t.searchHint}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', xs: 280 }}
        />
        <Select
          label={t.category}
          placeholder={t.allCategories}
          data={categories}
          value={filter.cat}
          onChange={(cat) => setFilter((f) => ({ ...f, cat }))}
          clearable
          searchable
          nothingFoundMessage={texts.categoryForm.none}
          w={{ base: '100%', xs: 200 }}
        />
        <Select
          label={lh.filter}
          placeholder={lh.filterAll}
          data={HEALTH_FILTERS}
          value={filter.health}
          onChange={(health) =>
            setFilter((f) => ({
              ...f,
              health: health as LinkHealthFilter | null,
              // Worst first when looking for problems.
              ...(health ? { sort: 'health' as const, ascending: true } : {}),
            }))
          }
          clearable
          w={{ base: '100%', xs: 200 }}
        />
      </Group>
      <Suspense fallback={null}>
        <LinkHealthPanel cat={filter.cat} onChecked={() => setCheckedVersion((v) => v + 1)} />
      </Suspense>
      <BulkActions
        selectedIds={[...checked]}
        categories={categories}
        onClear={() => setChecked(new Set())}
        onDone={onChanged}
      />
      <ListState
        loading={loading}
        failed={failed}
        loadingLabel={texts.admin.loadingProducts}
        onRetry={retry}
      >
        <Text hiddenFrom="sm" size="xs" c="dimmed">
          {t.moreColumnsHint}
        </Text>
        <Table.ScrollContainer minWidth={320}>
          <SelectableTable
            label={texts.productForm.listHeading}
            head={
              <>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t.selectPage}
                    checked={allChecked}
                    indeterminate={someChecked && !allChecked}
                    disabled={rows.length === 0}
                    onChange={() =>
                      setChecked(allChecked ? new Set() : new Set(rows.map((r) => r.id)))
                    }
                  />
                </Table.Th>
                {header('title', texts.productForm.title)}
                {header('cat', texts.productForm.category, 'sm')}
                {header('price', texts.productForm.price)}
                {header('created_at', texts.productForm.created, 'sm')}
                {header('health', lh.column)}
              </>
            }
            rows={rows}
            cells={(product) => (
              <>
                {/* The checkbox is not the row: ticking it must not load the product. */}
                <Table.Td
                  onClick={(e) => e.stopPropagation()}
                  onKeyDown={(e) => e.stopPropagation()}
                >
                  <Checkbox
                    aria-label={t.selectRow(product.title)}
                    checked={checked.has(product.id)}
                    onChange={() => toggle(product.id)}
                  />
                </Table.Td>
                <Table.Td>{product.title}</Table.Td>
                <Table.Td visibleFrom="sm">{product.cat}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatPrice(product.price)}</Table.Td>
                <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                  {dateFormat.format(new Date(product.created_at))}
                </Table.Td>
                <Table.Td>
                  <LinkHealthBadge checks={linkChecks.get(product.id)} />
                </Table.Td>
              </>
            )}
            selectedId={selectedId}
            disabled={disabled}
            onSelect={onSelect}
          />
        </Table.ScrollContainer>
        {rows.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            {query.search || query.cat || query.health
              ? texts.productForm.noMatch
              : texts.home.noProducts}
          </Text>
        )}
        {pages > 1 && (
          <Center>
            <Pagination
              total={pages}
              value={Math.min(page, pages)}
              onChange={setPage}
              size="sm"
              aria-label={texts.a11y.pagination}
              getItemProps={(n) => ({ 'aria-label': texts.a11y.page(n) })}
              getControlProps={(control) => ({ 'aria-label': paginationLabels[control] })}
            />
          </Center>
        )}
      </ListState>
    </Stack>
  );
}
