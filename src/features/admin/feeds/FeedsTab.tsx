import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Alert, Button, Center, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { texts } from '../../../adminFeedTexts';
import { notify } from '../../../lib/infra/notify';
import { isDbError } from '../db';
import { ConfirmDialog } from '../editor/ConfirmDialog';
import { listSellerChoices, type SellerChoice } from '../sellers/sellerApi';
import { deleteSource, listSources, type FeedSource } from './feedApi';
import { FeedDialog } from './FeedDialog';
import { HeldPanel } from './HeldPanel';
import { RunsPanel } from './RunsPanel';
import { SourcesList } from './SourcesList';
import { UnmatchedPanel } from './UnmatchedPanel';
import { useRunNow } from './useRunNow';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.feeds;

/**
 * Admin tab "Feeds" (REQ-FEED-5, docs/decisions/0243): the feed sources with their last and next
 * run, Run now, the reports of a source's runs, the unmatched rows and the held price changes.
 * A chunk of its own: the admin chunk does not carry it.
 */
export function FeedsTab() {
  const [sources, setSources] = useState<FeedSource[] | null>(null);
  const [sellers, setSellers] = useState<SellerChoice[]>([]);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<{ source: FeedSource | null } | null>(null);
  const [deleting, setDeleting] = useState<FeedSource | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // Bumped after a run or a decision: the reports and lists are read again.
  const [version, setVersion] = useState(0);

  const load = useCallback(async () => {
    try {
      const [found, choices] = await Promise.all([listSources(), listSellerChoices()]);
      setSources(found);
      setSellers(choices);
      setFailed(false);
    } catch (error) {
      console.error('Loading the feeds failed', error);
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const refresh = useCallback(() => {
    setVersion((v) => v + 1);
    void load();
  }, [load]);
  const { running, runNow } = useRunNow(refresh);

  const remove = async (source: FeedSource) => {
    setDeleting(null);
    try {
      if (await deleteSource(source.id)) notify.success(t.deleted);
      else if (!(await sessionEndedAfter())) notify.error(t.deleteFailed);
    } catch (error) {
      console.error('Deleting a feed failed', error);
      if (!(await sessionEndedAfter(error)))
        notify.error(isDbError(error) ? `${t.deleteFailed}: ${error.message}` : t.deleteFailed);
    }
    if (selectedId === source.id) setSelectedId(null);
    refresh();
  };

  if (failed) {
    return (
      <Alert color="red" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t.loadFailed}</Text>
          <Button size="xs" variant="light" onClick={() => void load()}>
            {texts.admin.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!sources) {
    return (
      <Center py="xl">
        <LoadingIndicator label={t.loading} />
      </Center>
    );
  }
  const selected = sources.find((s) => s.id === selectedId) ?? null;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          {t.intro}
        </Text>
        <Button onClick={() => setEditing({ source: null })}>{t.add}</Button>
      </Group>
      {sources.length === 0 ? (
        <Text c="dimmed">{t.empty}</Text>
      ) : (
        <SourcesList
          sources={sources}
          running={running}
          selectedId={selectedId}
          onRun={(s) => void runNow(s)}
          onReports={(s) => setSelectedId((id) => (id === s.id ? null : s.id))}
          onEdit={(s) => setEditing({ source: s })}
          onDelete={setDeleting}
        />
      )}
      {selected && (
        <Stack gap="md" role="region" aria-label={t.reportsOf(selected.name)}>
          <Divider />
          <Title order={2} size="h4">
            {t.reportsOf(selected.name)}
          </Title>
          <RunsPanel sourceId={selected.id} version={version} />
        </Stack>
      )}
      <Divider />
      <UnmatchedPanel sourceId={selectedId} version={version} />
      <Divider />
      <HeldPanel sourceId={selectedId} version={version} onDecided={refresh} />
      <FeedDialog
        opened={editing !== null}
        source={editing?.source ?? null}
        sellers={sellers}
        onClose={() => setEditing(null)}
        onSaved={refresh}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t.confirmTitle}
        text={t.confirmText(deleting?.name ?? '')}
        confirmLabel={texts.sellers.delete}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
