import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import {
  Alert,
  Button,
  Center,
  Checkbox,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { texts } from '../../../adminFeedTexts';
import { formatPrice } from '../../../lib/domain/format';
import { notify } from '../../../lib/infra/notify';
import { isDbError } from '../db';
import { decideHeld, listHeld, type HeldChange } from './feedApi';
import { useChecked } from './useChecked';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.feedHeld;

function percent(h: HeldChange): string {
  if (!h.old_price) return '';
  const pct = ((h.new_price - h.old_price) / h.old_price) * 100;
  return `${pct > 0 ? '+' : ''}${pct.toLocaleString('en-GB', { maximumFractionDigits: 1 })} %`;
}

/**
 * Price changes held because they jumped more than the feed's limit (REQ-FEED-4, REQ-FEED-5):
 * Apply writes them to the offer, Reject drops them; for the checked rows.
 */
export function HeldPanel({
  sourceId,
  version,
  onDecided,
}: {
  sourceId: string | null;
  version: number;
  onDecided: () => void;
}) {
  const [rows, setRows] = useState<HeldChange[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [own, setOwn] = useState(0);
  const [busy, setBusy] = useState<'apply' | 'reject' | null>(null);
  const { checked, toggle, all, some, toggleAll, clear } = useChecked(
    (rows ?? []).map((r) => r.id),
  );

  useEffect(() => {
    let live = true;
    setFailed(false);
    listHeld(sourceId)
      .then((found) => live && setRows(found))
      .catch((error: unknown) => {
        console.error('Loading held price changes failed', error);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [sourceId, version, own]);

  const decide = async (apply: boolean) => {
    setBusy(apply ? 'apply' : 'reject');
    try {
      const n = await decideHeld([...checked], apply);
      notify.success(apply ? t.applied(n) : t.rejected(n));
      clear();
      onDecided();
    } catch (error) {
      console.error('Deciding held price changes failed', error);
      if (!(await sessionEndedAfter(error)))
        notify.error(isDbError(error) ? `${t.failed} ${error.message}` : t.failed);
    }
    setBusy(null);
    setOwn((v) => v + 1);
  };
  const titleOf = (h: HeldChange) => h.offers?.products?.title ?? '';
  const select = (h: HeldChange) => (
    <Checkbox
      aria-label={texts.feedUnmatched.selectRow(titleOf(h))}
      checked={checked.has(h.id)}
      onChange={(e) => toggle(h.id, e.currentTarget.checked)}
    />
  );
  const price = (n: number | null) => (n === null ? '' : formatPrice(String(n)));

  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t.heading}
      </Title>
      <Text size="sm" c="dimmed">
        {t.intro}
      </Text>
      <Group gap="sm" wrap="wrap">
        <Button
          size="compact-sm"
          disabled={!some || busy !== null}
          loading={busy === 'apply'}
          onClick={() => void decide(true)}
        >
          {t.apply}
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          disabled={!some || busy !== null}
          loading={busy === 'reject'}
          onClick={() => void decide(false)}
        >
          {t.reject}
        </Button>
        {some && <Text size="sm">{texts.feedUnmatched.selected(checked.size)}</Text>}
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
          {/* Phones: one card per change; wider screens: the table. */}
          <Stack gap="xs" hiddenFrom="sm">
            <Checkbox
              label={texts.feedUnmatched.selectAll}
              checked={all}
              indeterminate={some && !all}
              onChange={toggleAll}
            />
            {rows.map((h) => (
              <Paper key={h.id} withBorder p="sm" radius="sm">
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  {select(h)}
                  <Stack gap={2} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                    <Text size="sm" fw={600}>
                      {titleOf(h)}
                    </Text>
                    <Text size="sm">
                      {price(h.old_price)} → {price(h.new_price)} ({percent(h)})
                    </Text>
                    <Text size="xs" c="dimmed">
                      {h.feed_sources?.name ?? ''}
                    </Text>
                  </Stack>
                </Group>
              </Paper>
            ))}
          </Stack>
          <Table striped aria-label={t.heading} data-testid="feed-held" visibleFrom="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={texts.feedUnmatched.selectAll}
                    checked={all}
                    indeterminate={some && !all}
                    onChange={toggleAll}
                  />
                </Table.Th>
                <Table.Th>{t.product}</Table.Th>
                <Table.Th>{t.oldToNew}</Table.Th>
                <Table.Th>{t.change}</Table.Th>
                <Table.Th>{texts.feedUnmatched.source}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((h) => (
                <Table.Tr key={h.id}>
                  <Table.Td>{select(h)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{titleOf(h)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {price(h.old_price)} → {price(h.new_price)}
                  </Table.Td>
                  <Table.Td>{percent(h)}</Table.Td>
                  <Table.Td>{h.feed_sources?.name ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
