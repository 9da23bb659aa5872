import {
  Alert,
  Button,
  Center,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { texts } from '../../../adminTexts';
import { notify } from '../../../lib/infra/notify';
import { downloadCsv } from '../csv/exportCsv';
import { ClicksChart } from './ClicksChart';
import {
  EXPORT_PAGE_SIZE,
  fetchClickInsights,
  fetchTopProducts,
  type ClickInsights,
  type InsightPeriod,
  type ProductClicks,
} from './insightsApi';
import { clicksCsv } from './insightsCsv';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.insights;
const count = (n: number) => n.toLocaleString('en-GB');

type State =
  | { status: 'loading'; data: ClickInsights | null }
  | { status: 'ready'; data: ClickInsights }
  | { status: 'error'; data: ClickInsights | null };

/** Every product with clicks in the period, most first, a page of 1,000 a request. */
async function allProductClicks(days: InsightPeriod): Promise<ProductClicks[]> {
  const rows: ProductClicks[] = [];
  for (;;) {
    const page = await fetchTopProducts(days, EXPORT_PAGE_SIZE, rows.length);
    rows.push(...page);
    if (page.length < EXPORT_PAGE_SIZE) return rows;
  }
}

function ClicksTable({
  caption,
  rows,
  testId,
}: {
  caption: string;
  rows: { key: string; name: string; category?: string; clicks: number }[];
  testId: string;
}) {
  const withCategory = rows.some((r) => r.category !== undefined);
  return (
    <Table.ScrollContainer minWidth={280}>
      <Table striped highlightOnHover aria-label={caption} data-testid={testId} verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{withCategory ? t.product : t.category}</Table.Th>
            {withCategory && <Table.Th scope="col">{t.category}</Table.Th>}
            <Table.Th scope="col" ta="right">
              {t.clicks}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.key}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.name}</Table.Td>
              {withCategory && <Table.Td>{r.category}</Table.Td>}
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {count(r.clicks)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The click half of Insights: clicks per day, top products (with CSV export of every product's
 * clicks in the period), top catagories, and the products nobody clicked. Loads again when the
 * period changes or the tab is opened.
 */
export function ClickInsightsSection({ days }: { days: InsightPeriod }) {
  const [state, setState] = useState<State>({ status: 'loading', data: null });
  const [exporting, setExporting] = useState(false);
  // Answers to an earlier period arrive late sometimes; only the newest request counts.
  const request = useRef(0);

  const load = useCallback(async (wanted: InsightPeriod) => {
    const id = ++request.current;
    setState((s) => ({ status: 'loading', data: s.data }));
    try {
      const data = await fetchClickInsights(wanted);
      if (id === request.current) setState({ status: 'ready', data });
    } catch (error) {
      if (id !== request.current) return;
      console.error('Loading the click insights failed', error);
      setState((s) => ({ status: 'error', data: s.data }));
    }
  }, []);

  useEffect(() => {
    void load(days);
  }, [days, load]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows = await allProductClicks(days);
      downloadCsv(
        { parts: [clicksCsv(rows)], rows: rows.length },
        t.csvFileName(days, new Date().toISOString().slice(0, 10)),
      );
    } catch (error) {
      console.error('Exporting the clicks failed', error);
      notify.error(t.exportFailed);
    } finally {
      setExporting(false);
    }
  };

  if (state.status === 'error') {
    return (
      <Alert color="red" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t.loadFailed}</Text>
          <Button size="xs" variant="light" onClick={() => void load(days)}>
            {texts.admin.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const data = state.data;
  if (!data) {
    return (
      <Center py="xl">
        <LoadingIndicator label={t.loading} />
      </Center>
    );
  }
  const shown = state.status === 'ready' && data.days === days;
  const unclickedMore = data.unclicked.total - data.unclicked.products.length;

  return (
    <Stack gap="lg" aria-busy={!shown} data-testid="click-insights">
      <Paper withBorder p={{ base: 'xs', sm: 'md' }}>
        <Group justify="space-between" mb="xs" gap="xs">
          <Title order={3} size="h4">
            {t.chartTitle}
          </Title>
          <Text size="sm" c="dimmed" data-testid="clicks-total">
            {t.totalClicks(data.total, count(data.total))}
          </Text>
        </Group>
        <ClicksChart perDay={data.perDay} label={t.chartLabel(data.days, count(data.total))} />
      </Paper>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="xs">
          <Group justify="space-between" gap="xs">
            <Title order={3} size="h4">
              {t.topProducts}
            </Title>
            <Button
              size="xs"
              variant="light"
              onClick={() => void exportCsv()}
              loading={exporting}
              disabled={data.total === 0}
            >
              {texts.catalogueCsv.export}
            </Button>
          </Group>
          {data.topProducts.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t.noClicks}
            </Text>
          ) : (
            <ClicksTable
              caption={t.topProducts}
              testId="top-products"
              rows={data.topProducts.map((p) => ({
                key: p.product_id,
                name: p.title,
                category: p.category,
                clicks: p.clicks,
              }))}
            />
          )}
        </Stack>
        <Stack gap="xs">
          <Title order={3} size="h4">
            {t.topCategories}
          </Title>
          {data.topCategories.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t.noClicks}
            </Text>
          ) : (
            <ClicksTable
              caption={t.topCategories}
              testId="top-categories"
              rows={data.topCategories.map((c) => ({
                key: c.category,
                name: c.category,
                clicks: c.clicks,
              }))}
            />
          )}
        </Stack>
      </SimpleGrid>

      <Stack gap="xs" data-testid="products-without-clicks">
        <Title order={3} size="h4">
          {t.withoutClicks}
        </Title>
        <Text size="sm" c="dimmed">
          {data.unclicked.total === 0
            ? t.allClicked
            : t.withoutClicksCount(count(data.unclicked.total))}
        </Text>
        {data.unclicked.products.length > 0 && (
          <Text size="sm" component="ul" m={0} pl="lg">
            {data.unclicked.products.map((p) => (
              <li key={p.product_id}>
                {p.title}{' '}
                <Text span size="xs" c="dimmed">
                  ({p.category})
                </Text>
              </li>
            ))}
            {unclickedMore > 0 && (
              <Text component="li" size="sm" c="dimmed" style={{ listStyle: 'none' }}>
                {t.andMore(count(unclickedMore))}
              </Text>
            )}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
