import { Alert, Box, Button, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { texts } from '../../../adminTexts';
import { DEFAULT_PRODUCT_QUERY, fetchAdminTablePage } from '../products/productQuery';
import { useDebounced } from '../products/useAdminTablePage';
import { ActivityEntryCard } from './ActivityEntryCard';
import {
  ACTIVITY_KINDS,
  fetchActivityPage,
  isActivityKind,
  listAdminAccounts,
  NO_FILTERS,
  SYSTEM_ACTOR,
  type ActivityEntry,
  type ActivityFilters,
  type AdminAccount,
} from './activityApi';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const activityTexts = texts.activity;

interface LogState {
  entries: ActivityEntry[];
  nextBefore: number | null;
  status: 'loading' | 'ready' | 'error';
}

const KIND_OPTIONS = ACTIVITY_KINDS.map((kind) => ({
  value: kind,
  label: activityTexts.kind[kind],
}));

/**
 * Admin tab "Activity": the database's append-only log, newest first, filtered by admin, kind or
 * product, one keyset page at a time ("Load more"). Loads again whenever the tab is opened.
 */
export function ActivityTab() {
  const [filters, setFilters] = useState<ActivityFilters>(NO_FILTERS);
  const [admins, setAdmins] = useState<AdminAccount[]>([]);
  // A product picked from an entry may be deleted already: keep its title for the select.
  const [pickedProduct, setPickedProduct] = useState<{ id: string; title: string } | null>(null);
  const [log, setLog] = useState<LogState>({ entries: [], nextBefore: null, status: 'loading' });
  // Answers to an earlier filter choice arrive late sometimes; only the newest request counts.
  const request = useRef(0);

  const load = useCallback(async (wanted: ActivityFilters, before: number | null) => {
    const id = ++request.current;
    setLog((s) => ({ ...s, status: 'loading' }));
    try {
      const page = await fetchActivityPage(wanted, before);
      if (id !== request.current) return;
      setLog((s) => ({
        entries: before === null ? page.entries : [...s.entries, ...page.entries],
        nextBefore: page.nextBefore,
        status: 'ready',
      }));
    } catch (error) {
      if (id !== request.current) return;
      console.error('Loading the activity log failed', error);
      setLog((s) => ({ ...s, status: 'error' }));
    }
  }, []);

  useEffect(() => {
    void load(filters, null);
  }, [filters, load]);

  useEffect(() => {
    listAdminAccounts()
      .then(setAdmins)
      .catch((error: unknown) => console.error('Loading the admin list failed', error));
  }, []);

  const adminOptions = useMemo(
    () => [
      { value: SYSTEM_ACTOR, label: activityTexts.system },
      ...admins.map((a) => ({ value: a.user_id, label: a.name ?? a.email })),
    ],
    [admins],
  );
  // The catalogue can hold a million products: the product filter asks the database for the
  // titles matching what is typed (20 at a time) instead of listing them all.
  const [productSearch, setProductSearch] = useState('');
  const settledProductSearch = useDebounced(productSearch, 150);
  const [foundProducts, setFoundProducts] = useState<{ id: string; title: string }[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    const query = {
      ...DEFAULT_PRODUCT_QUERY,
      search: settledProductSearch,
      sort: 'title' as const,
    };
    fetchAdminTablePage(query, 0, 20, abort.signal).then(
      (rows) => setFoundProducts(rows.map((p) => ({ id: p.id, title: p.title }))),
      // A failed lookup leaves the last list; the log itself still loads and says if it fails.
      () => undefined,
    );
    return () => abort.abort();
  }, [settledProductSearch]);
  const productOptions = useMemo(() => {
    const options = foundProducts.map((p) => ({ value: p.id, label: p.title }));
    if (pickedProduct && !options.some((o) => o.value === pickedProduct.id)) {
      options.unshift({ value: pickedProduct.id, label: pickedProduct.title });
    }
    return options;
  }, [foundProducts, pickedProduct]);

  const filtered = filters.actor !== null || filters.kind !== null || filters.productId !== null;
  const firstLoad = log.status === 'loading' && log.entries.length === 0;

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Box>
          <Title order={2} size="h3">
            {activityTexts.tab}
          </Title>
          <Text size="sm" c="dimmed">
            {activityTexts.intro}
          </Text>
        </Box>
        <Button
          variant="light"
          size="xs"
          onClick={() => void load(filters, null)}
          loading={log.status === 'loading'}
        >
          {texts.messages.refresh}
        </Button>
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label={activityTexts.filterAdmin}
          placeholder={activityTexts.anyAdmin}
          data={adminOptions}
          value={filters.actor}
          onChange={(actor) => setFilters((f) => ({ ...f, actor }))}
          clearable
          searchable
        />
        <Select
          label={activityTexts.filterKind}
          placeholder={activityTexts.anyKind}
          data={KIND_OPTIONS}
          value={filters.kind}
          onChange={(kind) =>
            setFilters((f) => ({ ...f, kind: kind && isActivityKind(kind) ? kind : null }))
          }
          clearable
        />
        <Select
          label={activityTexts.filterProduct}
          placeholder={activityTexts.anyProduct}
          data={productOptions}
          value={filters.productId}
          onChange={(productId, option) => {
            if (productId && option) setPickedProduct({ id: productId, title: option.label });
            setFilters((f) => ({ ...f, productId }));
          }}
          searchValue={productSearch}
          onSearchChange={setProductSearch}
          // The database already matched the typed text (also by category and comment).
          filter={({ options }) => options}
          clearable
          searchable
        />
      </SimpleGrid>
      {filtered && (
        <Group>
          <Button variant="subtle" size="compact-sm" onClick={() => setFilters(NO_FILTERS)}>
            {activityTexts.clearFilters}
          </Button>
        </Group>
      )}

      {firstLoad && <LoadingIndicator label={activityTexts.loading} />}
      {log.status === 'error' && (
        <Alert color="red" role="alert">
          {activityTexts.loadFailed}
        </Alert>
      )}
      {log.status === 'ready' && log.entries.length === 0 && (
        <Text c="dimmed">{filtered ? activityTexts.noMatch : activityTexts.empty}</Text>
      )}
      {log.entries.length > 0 && (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {log.entries.map((entry) => (
            <ActivityEntryCard
              key={entry.id}
              entry={entry}
              admin={admins.find((a) => a.user_id === entry.actor)}
              onOnlyThisProduct={(id, title) => {
                setPickedProduct({ id, title });
                setFilters((f) => ({ ...f, productId: id }));
              }}
            />
          ))}
        </Stack>
      )}
      {log.nextBefore !== null && (
        <Group justify="center">
          <Button
            variant="default"
            onClick={() => void load(filters, log.nextBefore)}
            loading={log.status === 'loading'}
          >
            {texts.storefront.loadMore}
          </Button>
        </Group>
      )}
      {log.status === 'ready' && log.nextBefore === null && log.entries.length > 0 && (
        <Text size="xs" c="dimmed" ta="center">
          {activityTexts.end}
        </Text>
      )}
    </Stack>
  );
}
