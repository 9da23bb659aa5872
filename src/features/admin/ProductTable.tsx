import {
  Center,
  Group,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { texts } from '../../texts';
import { formatPrice } from '../../lib/format';
import type { AdminProduct } from '../../lib/tables';
import { ListState, SelectableTable } from './SelectableTable';

/** Pagination's arrows are icons only: they get their names from here. */
const paginationLabels = {
  first: texts.a11y.firstPage,
  last: texts.a11y.lastPage,
  next: texts.a11y.nextPage,
  previous: texts.a11y.previousPage,
};

export type SortKey = 'title' | 'cat' | 'price' | 'created_at';
export interface Sort {
  key: SortKey;
  ascending: boolean;
}

const PAGE_SIZE = 10;

const collator = new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true });

/** Compares two products by one column; prices without a number always sort last. */
export function compareProducts(a: AdminProduct, b: AdminProduct, sort: Sort): number {
  const dir = sort.ascending ? 1 : -1;
  let result = 0;
  switch (sort.key) {
    case 'price':
      if (a.price_value === null || b.price_value === null) {
        if (a.price_value !== b.price_value) return a.price_value === null ? 1 : -1;
      } else {
        result = (a.price_value - b.price_value) * dir;
      }
      break;
    case 'created_at':
      result = (Date.parse(a.created_at) - Date.parse(b.created_at)) * dir;
      break;
    default:
      result = collator.compare(a[sort.key], b[sort.key]) * dir;
  }
  return result || collator.compare(a.title, b.title) || a.id.localeCompare(b.id);
}

/** Products whose title contains `query` (ignoring case), in the chosen order. */
export function filterAndSort(products: AdminProduct[], query: string, sort: Sort): AdminProduct[] {
  const q = query.trim().toLocaleLowerCase('en-GB');
  return products
    .filter((p) => !q || p.title.toLocaleLowerCase('en-GB').includes(q))
    .sort((a, b) => compareProducts(a, b, sort));
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

interface ProductTableProps {
  products: AdminProduct[];
  loading: boolean;
  failed: boolean;
  selectedId: string | null;
  disabled: boolean;
  onSelect: (product: AdminProduct) => void;
  onRetry: () => void;
}

/** All products with search by title and sortable columns; choosing a row loads it into the form. */
export function ProductTable({
  products,
  loading,
  failed,
  selectedId,
  disabled,
  onSelect,
  onRetry,
}: ProductTableProps) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<Sort>({ key: 'price', ascending: true });
  const [page, setPage] = useState(1);

  const rows = useMemo(() => filterAndSort(products, query, sort), [products, query, sort]);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const visible = rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  const header = (key: SortKey, label: string, visibleFrom?: 'sm') => {
    const active = sort.key === key;
    return (
      <Table.Th
        aria-sort={active ? (sort.ascending ? 'ascending' : 'descending') : 'none'}
        visibleFrom={visibleFrom}
        style={{ whiteSpace: 'nowrap' }}
      >
        <UnstyledButton
          fw={700}
          fz="sm"
          onClick={() => {
            setSort((s) => ({ key, ascending: s.key === key ? !s.ascending : true }));
            setPage(1);
          }}
        >
          {label} {active ? (sort.ascending ? '▲' : '▼') : '↕'}
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={2} size="h4">
          {texts.productForm.listHeading} ({products.length})
        </Title>
        <TextInput
          aria-label={texts.productForm.search}
          placeholder={texts.productForm.search}
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 240 }}
        />
      </Group>
      <ListState
        loading={loading}
        failed={failed}
        loadingLabel={texts.admin.loadingProducts}
        onRetry={onRetry}
      >
        <Table.ScrollContainer minWidth={320}>
          <SelectableTable
            label={texts.productForm.listHeading}
            head={
              <>
                {header('title', texts.productForm.title)}
                {header('cat', texts.productForm.category)}
                {header('price', texts.productForm.price)}
                {header('created_at', texts.productForm.created, 'sm')}
              </>
            }
            rows={visible}
            cells={(product) => (
              <>
                <Table.Td>{product.title}</Table.Td>
                <Table.Td>{product.cat}</Table.Td>
                <Table.Td>{formatPrice(product.price)}</Table.Td>
                <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                  {dateFormat.format(new Date(product.created_at))}
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
            {products.length === 0 ? texts.home.noProducts : texts.productForm.noMatch}
          </Text>
        )}
        {pages > 1 && (
          <Center>
            <Pagination
              total={pages}
              value={current}
              onChange={setPage}
              size="sm"
              aria-label={texts.a11y.pagination}
              getItemProps={(page) => ({ 'aria-label': texts.a11y.page(page) })}
              getControlProps={(control) => ({ 'aria-label': paginationLabels[control] })}
            />
          </Center>
        )}
      </ListState>
    </Stack>
  );
}
