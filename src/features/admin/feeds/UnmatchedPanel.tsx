import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { texts } from '../../../adminFeedTexts';
import { notify } from '../../../lib/infra/notify';
import { isDbError } from '../db';
import { CreateProductDialog } from './CreateProductDialog';
import { listUnmatched, setUnmatched, type UnmatchedRow } from './feedApi';
import { useChecked } from './useChecked';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.feedUnmatched;

/**
 * Feed rows that matched no product (REQ-FEED-5): open or ignored; "Create product" per row,
 * Ignore / Reopen for the checked rows. Of one source, or of every source (null).
 */
export function UnmatchedPanel({
  sourceId,
  version,
}: {
  sourceId: string | null;
  version: number;
}) {
  const [status, setStatus] = useState<'open' | 'ignored'>('open');
  const [rows, setRows] = useState<UnmatchedRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [own, setOwn] = useState(0);
  const [creating, setCreating] = useState<UnmatchedRow | null>(null);
  const [busy, setBusy] = useState(false);
  const { checked, toggle, all, some, toggleAll, clear } = useChecked(
    (rows ?? []).map((r) => r.id),
  );

  useEffect(() => {
    let live = true;
    setFailed(false);
    listUnmatched(status, sourceId)
      .then((found) => live && setRows(found))
      .catch((error: unknown) => {
        console.error('Loading unmatched feed rows failed', error);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [status, sourceId, version, own]);
  const reload = useCallback(() => setOwn((v) => v + 1), []);

  const act = async () => {
    const ids = [...checked];
    setBusy(true);
    try {
      const n = await setUnmatched(ids, status === 'open');
      notify.success(status === 'open' ? t.ignoredDone(n) : t.reopened(n));
      clear();
    } catch (error) {
      console.error('Changing unmatched feed rows failed', error);
      if (!(await sessionEndedAfter(error)))
        notify.error(isDbError(error) ? `${t.actionFailed} ${error.message}` : t.actionFailed);
    }
    setBusy(false);
    reload();
  };

  const select = (r: UnmatchedRow) => (
    <Checkbox
      aria-label={t.selectRow(r.title ?? r.match_key)}
      checked={checked.has(r.id)}
      onChange={(e) => toggle(r.id, e.currentTarget.checked)}
    />
  );
  const title = (r: UnmatchedRow) =>
    r.link && /^https?:\/\//i.test(r.link) ? (
      <Anchor href={r.link} target="_blank" rel="noopener noreferrer" size="sm">
        {r.title ?? r.link}
      </Anchor>
    ) : (
      <Text size="sm">{r.title ?? ''}</Text>
    );
  const key = (r: UnmatchedRow) => r.gtin ?? r.seller_product_id ?? r.match_key;
  const create = (r: UnmatchedRow) =>
    status === 'open' && (
      <Button
        size="compact-sm"
        variant="light"
        aria-label={`${t.create}: ${r.title ?? r.match_key}`}
        onClick={() => setCreating(r)}
      >
        {t.create}
      </Button>
    );
  const selectAll = (
    <Checkbox
      aria-label={t.selectAll}
      checked={all}
      indeterminate={some && !all}
      onChange={toggleAll}
    />
  );

  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t.heading}
      </Title>
      <Text size="sm" c="dimmed">
        {t.intro}
      </Text>
      <Group gap="sm" wrap="wrap">
        <SegmentedControl
          size="xs"
          aria-label={t.show}
          value={status}
          onChange={(v) => setStatus(v === 'ignored' ? 'ignored' : 'open')}
          data={[
            { value: 'open', label: t.open },
            { value: 'ignored', label: t.ignored },
          ]}
        />
        <Button
          size="compact-sm"
          variant="light"
          disabled={!some}
          loading={busy}
          onClick={() => void act()}
        >
          {status === 'open' ? t.ignore : t.reopen}
        </Button>
        {some && <Text size="sm">{t.selected(checked.size)}</Text>}
      </Group>
      {failed && (
        <Alert color="red" role="alert" p="xs">
          {texts.unexpected}
        </Alert>
      )}
      {!rows && !failed && (
        <Center py="sm">
          <LoadingIndicator size="sm" label={texts.feeds.loading} />
        </Center>
      )}
      {rows?.length === 0 && <Text c="dimmed">{t.empty}</Text>}
      {rows && rows.length > 0 && (
        <>
          {/* Phones: one card per row; wider screens: the table. */}
          <Stack gap="xs" hiddenFrom="sm">
            <Checkbox
              label={t.selectAll}
              checked={all}
              indeterminate={some && !all}
              onChange={toggleAll}
            />
            {rows.map((r) => (
              <Paper key={r.id} withBorder p="sm" radius="sm">
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  {select(r)}
                  <Stack gap={2} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                    {title(r)}
                    <Text size="sm">{r.price ?? ''}</Text>
                    <Text size="xs" c="dimmed">
                      {[key(r), r.feed_sources?.name].filter(Boolean).join(' · ')}
                    </Text>
                    <Group mt={4}>{create(r)}</Group>
                  </Stack>
                </Group>
              </Paper>
            ))}
          </Stack>
          <Table striped aria-label={t.label} data-testid="feed-unmatched" visibleFrom="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>{selectAll}</Table.Th>
                <Table.Th>{texts.productForm.title}</Table.Th>
                <Table.Th>{texts.productForm.price}</Table.Th>
                <Table.Th>{t.key}</Table.Th>
                <Table.Th>{t.source}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{select(r)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{title(r)}</Table.Td>
                  <Table.Td>{r.price ?? ''}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="xs">{key(r)}</Text>
                  </Table.Td>
                  <Table.Td>{r.feed_sources?.name ?? ''}</Table.Td>
                  <Table.Td>{create(r)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      <CreateProductDialog row={creating} onClose={() => setCreating(null)} onCreated={reload} />
    </Stack>
  );
}
