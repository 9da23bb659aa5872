import {
  Button,
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
  VisuallyHidden,
} from '@mantine/core';
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { texts } from '../../../adminTexts';
import { formatPrice } from '../../../lib/domain/format';
import type { AdminProduct } from '../../../lib/domain/tables';
import { BulkActions } from './BulkActions';
import {
  DEFAULT_PRODUCT_QUERY,
  ADMIN_TABLE_PAGE_SIZE,
  type PriceFilter,
  type ProductQuery,
  type ProductSortKey,
} from './productQuery';
import { useAdminTablePage } from './useAdminTablePage';
import { LinkHealthBadge } from '../linkHealth/LinkHealthBadge';
import type { LinkCheck, LinkHealthFilter } from '../linkHealth/linkHealthApi';
import { useLinkChecks } from '../linkHealth/useLinkChecks';
import { ListState } from '../editor/SelectableTable';

const t = texts.productTable;
const lh = texts.linkHealth;
const pc = texts.priceChecks;

// "Check all links" and the hide-broken setting load after the table (admin chunk budget).
const LinkHealthPanel = lazy(() => import('../linkHealth/LinkHealthPanel'));
/** Worst first; values as private.admin_product_filter reads them. */
const HEALTH_FILTERS: { value: LinkHealthFilter; label: string }[] = [
  { value: 'attention', label: lh.filterAttention },
  { value: 'broken', label: lh.status.broken },
  { value: 'failing', label: lh.status.failing },
  { value: 'redirected', label: lh.status.redirected },
  { value: 'blocked', label: lh.status.blocked },
  { value: 'unreachable', label: lh.filterUnreachable },
  { value: 'ok', label: lh.status.ok },
  { value: 'unchecked', label: lh.status.unchecked },
];

/** Values as private.admin_product_filter reads them (REQ-OFF-3). */
const PRICE_FILTERS: { value: PriceFilter; label: string }[] = [
  { value: 'stale', label: pc.stale },
  { value: 'hidden', label: pc.hidden },
];

/** Pagination's arrows are icons only: they get their names from here. */
const paginationLabels = {
  first: texts.a11y.firstPage,
  last: texts.a11y.lastPage,
  next: texts.a11y.nextPage,
  previous: texts.a11y.previousPage,
};

/** At most one search every 60 ms while typing at speed; the first keystroke searches at once,
 * as the goal is results in 150 ms (a newer search aborts the request of an older one). */
const SEARCH_THROTTLE_MS = 60;

/** The category filter's "All catagories" choice: titles are trimmed, so none starts with a space. */
const ALL = ' all';
/** Mantine's padding of a header cell, given to its button, which fills the cell. */
const HEADER_PADDING =
  'var(--table-vertical-spacing) var(--table-horizontal-spacing, var(--mantine-spacing-xs))';

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
 * checked rows. Choosing a row loads it into the form. Memoised: the CSV menu beside it re-renders
 * with each new query, the table need not.
 */
export const ProductTable = memo(function ProductTable({
  categories,
  version,
  selectedId,
  disabled,
  onSelect,
  onChanged,
  onQueryChange,
}: ProductTableProps) {
  // What the search box last sent; its own text lives in SearchBox, so a keystroke re-renders
  // the box alone and a search re-renders the table once (decision 0180).
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Omit<ProductQuery, 'search'>>(DEFAULT_PRODUCT_QUERY);
  const [page, setPage] = useState(1);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  // Bumped by "Check all links": the page and its badges are read again.
  const [checkedVersion, setCheckedVersion] = useState(0);
  const query = useMemo<ProductQuery>(() => ({ ...filter, search }), [filter, search]);
  const { rows, count, loading, failed, retry } = useAdminTablePage(
    query,
    page,
    ADMIN_TABLE_PAGE_SIZE,
    version + checkedVersion,
  );
  const linkChecks = useLinkChecks(
    rows.map((r) => r.id),
    version + checkedVersion,
  );
  // The CSV menu exports what the table shows.
  useEffect(() => onQueryChange?.(query), [query, onQueryChange]);

  // Another query or page shows other rows: a selection is only ever of visible rows. (An empty
  // selection stays the same object: no render for nothing.)
  useEffect(() => setChecked((s) => (s.size ? new Set() : s)), [query, page, version]);
  useEffect(() => setPage(1), [query]);

  const categoryChoices = useMemo(
    () => [{ value: ALL, label: t.allCategories }, ...categories],
    [categories],
  );

  const pages = count
    ? Math.max(1, Math.ceil(count.total / ADMIN_TABLE_PAGE_SIZE))
    : page + (rows.length === ADMIN_TABLE_PAGE_SIZE ? 1 : 0);
  const allChecked = rows.length > 0 && rows.every((r) => checked.has(r.id));
  const someChecked = rows.some((r) => checked.has(r.id));

  const toggle = useCallback(
    (id: string) =>
      setChecked((s) => {
        const next = new Set(s);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  // Stable, so rows whose product, selection and badges did not change are not rendered again.
  const latest = useRef({ disabled, onSelect });
  latest.current = { disabled, onSelect };
  const choose = useCallback((product: AdminProduct) => {
    if (!latest.current.disabled) latest.current.onSelect(product);
  }, []);

  const header = (key: ProductSortKey, label: string, visibleFrom?: 'sm' | 'xl') => {
    const active = filter.sort === key;
    return (
      <Table.Th
        aria-sort={active ? (filter.ascending ? 'ascending' : 'descending') : 'none'}
        visibleFrom={visibleFrom}
        style={{ whiteSpace: 'nowrap', padding: 0 }}
      >
        {/* The whole cell is the button, not the label and icon alone (REQ-PATH-10). */}
        <UnstyledButton
          fw={700}
          fz="sm"
          w="100%"
          style={{ padding: HEADER_PADDING }}
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
    // Room below the paging for the toasts at the bottom: scrolled to the end, the last row and
    // the paging sit above them (REQ-PATH-11).
    <Stack gap="sm" pb="7rem">
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
        <SearchBox onSearch={setSearch} />
        <Select
          label={t.category}
          placeholder={t.allCategories}
          data={categoryChoices}
          value={filter.cat}
          onChange={(cat) => setFilter((f) => ({ ...f, cat: cat === ALL ? null : cat }))}
          clearable
          // Mantine hides it from assistive technology, without a name (REQ-PATH-10).
          clearButtonProps={{ 'aria-label': t.clearCategory, 'aria-hidden': false }}
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
        <Select
          label={pc.filter}
          placeholder={pc.filterAll}
          data={PRICE_FILTERS}
          value={filter.prices}
          onChange={(prices) =>
            setFilter((f) => ({
              ...f,
              prices: prices as PriceFilter | null,
              // Like broken links: the oldest price checks first.
              ...(prices ? { sort: 'price_checked' as const, ascending: true } : {}),
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
          <Table
            highlightOnHover
            striped
            verticalSpacing="xs"
            aria-label={texts.productForm.listHeading}
          >
            <Table.Thead>
              <Table.Tr>
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
                {/* Wide screens only: at 1280 px it pushed Link health out of sight. The "Show
                    prices" filter sorts by it at any width. */}
                {header('price_checked', pc.column, 'xl')}
                {header('health', lh.column)}
                {/* Below md only, where the form waits behind the list; wider, a row click loads it
                    beside the table, and the column pushed Link health out of sight. */}
                <Table.Th hiddenFrom="md">
                  <VisuallyHidden>{t.edit}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((product) => (
                <ProductRow
                  key={product.id}
                  product={product}
                  selected={product.id === selectedId}
                  disabled={disabled}
                  checked={checked.has(product.id)}
                  checks={linkChecks.get(product.id)}
                  onChoose={choose}
                  onToggle={toggle}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {rows.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            {query.search || query.cat || query.health || query.prices
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
});

/** The search box: its text changes at every keystroke, the table's query at most every 60 ms. */
function SearchBox({ onSearch }: { onSearch: (search: string) => void }) {
  const [text, setText] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const sentAt = useRef(-Infinity);
  useEffect(() => () => clearTimeout(timer.current), []);
  const change = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    const send = () => {
      sentAt.current = performance.now();
      onSearch(value);
    };
    const wait = sentAt.current + SEARCH_THROTTLE_MS - performance.now();
    if (wait <= 0) send();
    else timer.current = setTimeout(send, wait);
  };
  return (
    <TextInput
      label={t.search}
      description={t.searchHint}
      type="search"
      value={text}
      onChange={(e) => change(e.currentTarget.value)}
      w={{ base: '100%', xs: 280 }}
    />
  );
}

// Plain elements with Mantine's table classes: a row is 7 elements instead of 7 Mantine
// components, which made the first rows and each search's results slow to render (decision 0180).
const cell = Table.classes.td;
const wideCell = `${cell} mantine-visible-from-sm`;
const widestCell = `${cell} mantine-visible-from-xl`;
const phoneCell = `${cell} mantine-hidden-from-md`;

interface ProductRowProps {
  product: AdminProduct;
  selected: boolean;
  /** While an action runs, rows cannot be chosen. */
  disabled: boolean;
  checked: boolean;
  checks: LinkCheck[] | undefined;
  onChoose: (product: AdminProduct) => void;
  onToggle: (id: string) => void;
}

/** A row, chosen by click, Enter or Space (loads the product into the form); highlighted when chosen. */
const ProductRow = memo(function ProductRow({
  product,
  selected,
  disabled,
  checked,
  checks,
  onChoose,
  onToggle,
}: ProductRowProps) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onChoose(product);
    }
  };
  return (
    <tr
      className={Table.classes.tr}
      data-with-row-border
      data-striped="odd"
      data-hover
      tabIndex={0}
      aria-selected={selected}
      style={{
        cursor: disabled ? 'progress' : 'pointer',
        backgroundColor: selected ? 'var(--mantine-primary-color-light)' : undefined,
      }}
      onClick={() => onChoose(product)}
      onKeyDown={onKeyDown}
    >
      {/* The checkbox is not the row: ticking it must not load the product. */}
      <td
        className={cell}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.stopPropagation()}
      >
        <Checkbox
          aria-label={t.selectRow(product.title)}
          checked={checked}
          onChange={() => onToggle(product.id)}
        />
      </td>
      <td className={cell}>{product.title}</td>
      <td className={wideCell}>{product.cat}</td>
      <td className={cell} style={{ whiteSpace: 'nowrap' }}>
        {formatPrice(product.price)}
      </td>
      <td className={wideCell} style={{ whiteSpace: 'nowrap' }}>
        {dateFormat.format(new Date(product.created_at))}
      </td>
      <td className={widestCell} style={{ whiteSpace: 'nowrap' }}>
        {product.price_checked_at && dateFormat.format(new Date(product.price_checked_at))}
      </td>
      <td className={cell}>
        <LinkHealthBadge checks={checks} />
      </td>
      {/* REQ-PATH-10: the row opens the form too; this says so on a phone. */}
      <td className={phoneCell}>
        <Button
          size="compact-xs"
          variant="light"
          aria-label={t.editRow(product.title)}
          disabled={disabled}
          onClick={(e) => {
            e.stopPropagation();
            onChoose(product);
          }}
          onKeyDown={(e) => e.stopPropagation()}
        >
          {t.edit}
        </Button>
      </td>
    </tr>
  );
});
