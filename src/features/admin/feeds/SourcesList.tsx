import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { texts } from '../../../adminFeedTexts';
import type { FeedSource, RunStatus } from './feedApi';
import type { Progress } from './useRunNow';

const t = texts.feeds;
const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const when = (at: string | null) => (at ? timeFormat.format(new Date(at)) : null);

const STATUS_COLOR: Record<RunStatus, string> = {
  queued: 'gray',
  fetching: 'blue',
  staged: 'blue',
  applying: 'blue',
  done: 'green',
  unchanged: 'teal',
  failed: 'red',
};

export function StatusBadge({ status }: { status: RunStatus }) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" size="sm">
      {t.status[status]}
    </Badge>
  );
}

function schedule(s: FeedSource): string {
  const key = s.schedule_minutes === null ? 'manual' : String(s.schedule_minutes);
  return t.scheduleLabel[key as keyof typeof t.scheduleLabel] ?? key;
}

interface SourcesListProps {
  sources: FeedSource[];
  running: ReadonlyMap<string, Progress>;
  selectedId: string | null;
  onRun: (s: FeedSource) => void;
  onReports: (s: FeedSource) => void;
  onEdit: (s: FeedSource) => void;
  onDelete: (s: FeedSource) => void;
}

/** The feed sources (REQ-FEED-5): cards on phones, a table on wider screens. */
export function SourcesList({ sources, running, selectedId, ...on }: SourcesListProps) {
  const lastRun = (s: FeedSource): ReactNode => {
    const progress = running.get(s.id);
    if (progress) {
      return (
        <Text size="sm" role="status">
          {t.running(progress.rowsRead ?? 0)}
        </Text>
      );
    }
    if (!s.last_status) return <Text size="sm">{t.never}</Text>;
    return (
      <Group gap={6} wrap="wrap">
        <StatusBadge status={s.last_status} />
        <Text size="sm">{when(s.last_run_at)}</Text>
      </Group>
    );
  };
  const nextRun = (s: FeedSource) =>
    s.enabled ? (when(s.next_run_at) ?? t.notScheduled) : t.disabled;
  const actions = (s: FeedSource) => (
    <>
      <Button
        size="compact-sm"
        onClick={() => on.onRun(s)}
        loading={running.has(s.id)}
        aria-label={`${t.runNow}: ${s.name}`}
      >
        {t.runNow}
      </Button>
      <Button
        size="compact-sm"
        variant={selectedId === s.id ? 'filled' : 'light'}
        aria-pressed={selectedId === s.id}
        aria-label={t.reportsOf(s.name)}
        onClick={() => on.onReports(s)}
      >
        {t.reports}
      </Button>
      <Button
        size="compact-sm"
        variant="light"
        aria-label={t.editTitle(s.name)}
        onClick={() => on.onEdit(s)}
      >
        {texts.sellers.edit}
      </Button>
      <Button
        size="compact-sm"
        variant="light"
        color="red"
        aria-label={`${texts.sellers.delete} ${s.name}`}
        onClick={() => on.onDelete(s)}
      >
        {texts.sellers.delete}
      </Button>
    </>
  );

  return (
    <>
      <Stack gap="xs" hiddenFrom="md">
        {sources.map((s) => (
          <Paper key={s.id} withBorder p="sm" radius="sm" data-testid="feed-card">
            <Stack gap={4}>
              <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                {s.name}
              </Text>
              <Text size="sm" c="dimmed">
                {[s.sellers?.name, t.formatLabel[s.format], schedule(s)]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
              <Group gap={6} wrap="wrap">
                <Text size="sm">{t.lastRun}:</Text>
                {lastRun(s)}
              </Group>
              <Text size="sm">
                {t.nextRun}: {nextRun(s)}
              </Text>
              <Group gap={6} mt={4}>
                {actions(s)}
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
      <Table striped verticalSpacing="xs" visibleFrom="md" aria-label={t.sourcesLabel}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{texts.sellers.name}</Table.Th>
            <Table.Th>{texts.offerPanel.seller}</Table.Th>
            <Table.Th>{t.format}</Table.Th>
            <Table.Th>{t.schedule}</Table.Th>
            <Table.Th>{t.lastRun}</Table.Th>
            <Table.Th>{t.nextRun}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sources.map((s) => (
            <Table.Tr key={s.id} data-testid="feed-row">
              <Table.Td fw={600} style={{ overflowWrap: 'anywhere' }}>
                {s.name}
              </Table.Td>
              <Table.Td>{s.sellers?.name ?? ''}</Table.Td>
              <Table.Td>{t.formatLabel[s.format]}</Table.Td>
              <Table.Td>{schedule(s)}</Table.Td>
              <Table.Td>{lastRun(s)}</Table.Td>
              <Table.Td>{nextRun(s)}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap" justify="flex-end">
                  {actions(s)}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
