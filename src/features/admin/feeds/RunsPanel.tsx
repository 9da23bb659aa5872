import { Alert, Center, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { texts } from '../../../adminFeedTexts';
import { listRuns, type FeedRun } from './feedApi';
import { StatusBadge } from './SourcesList';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.feedRuns;
const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });

function duration(run: FeedRun): string {
  if (!run.started_at || !run.finished_at) return '';
  const ms = new Date(run.finished_at).getTime() - new Date(run.started_at).getTime();
  return t.seconds(Math.max(0, Math.round(ms / 100) / 10));
}

/** A run's refused rows: how many per reason and the first lines with their reasons. */
function Refused({ run }: { run: FeedRun }) {
  const codes = Object.entries(run.refused_by_code ?? {});
  if (codes.length === 0) return null;
  return (
    <Stack gap={2} mt={4}>
      <Text size="xs" fw={600}>
        {t.refusedCodes}
      </Text>
      <Text size="xs">{codes.map(([code, n]) => `${code}: ${n}`).join(', ')}</Text>
      {(run.refused_sample ?? []).slice(0, 5).map((r) => (
        <Text size="xs" c="dimmed" key={r.line}>
          {t.refusedLine(r.line, r.codes.join(', '))}
        </Text>
      ))}
    </Stack>
  );
}

/** A source's recent runs with their reports (REQ-FEED-5); `version` reloads them. */
export function RunsPanel({ sourceId, version }: { sourceId: string; version: number }) {
  const [runs, setRuns] = useState<FeedRun[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setFailed(false);
    listRuns(sourceId)
      .then((found) => live && setRuns(found))
      .catch((error: unknown) => {
        console.error('Loading feed runs failed', error);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [sourceId, version]);

  const outcome = (r: FeedRun) => (
    <>
      {r.error ? (
        <Text size="sm" c="red">
          {r.error}
        </Text>
      ) : (
        <Text size="sm">{t.counts(r)}</Text>
      )}
      <Refused run={r} />
    </>
  );

  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t.heading}
      </Title>
      {failed && (
        <Alert color="red" role="alert" p="xs">
          {texts.unexpected}
        </Alert>
      )}
      {!runs && !failed && (
        <Center py="sm">
          <LoadingIndicator size="sm" label={texts.feeds.loading} />
        </Center>
      )}
      {runs?.length === 0 && <Text c="dimmed">{t.empty}</Text>}
      {runs && runs.length > 0 && (
        <>
          <Stack gap="xs" hiddenFrom="md">
            {runs.map((r) => (
              <Paper key={r.id} withBorder p="sm" data-testid="feed-run-card">
                <Stack gap={2}>
                  <StatusBadge status={r.status} />
                  <Text size="sm">
                    {[timeFormat.format(new Date(r.started_at ?? r.created_at)), duration(r)]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                  <Text size="sm">
                    {t.rows}: {r.rows_read.toLocaleString('en-GB')}
                  </Text>
                  {outcome(r)}
                </Stack>
              </Paper>
            ))}
          </Stack>
          <Table striped visibleFrom="md" aria-label={t.label} data-testid="feed-runs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.status}</Table.Th>
                <Table.Th>{t.started}</Table.Th>
                <Table.Th>{t.duration}</Table.Th>
                <Table.Th>{t.rows}</Table.Th>
                <Table.Th>{t.outcome}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <StatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td>{timeFormat.format(new Date(r.started_at ?? r.created_at))}</Table.Td>
                  <Table.Td>{duration(r)}</Table.Td>
                  <Table.Td>{r.rows_read.toLocaleString('en-GB')}</Table.Td>
                  <Table.Td>{outcome(r)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
