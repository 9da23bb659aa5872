import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Button, Group, Paper, Select, Text } from '@mantine/core';
import { useState } from 'react';
import { notify } from '../../../lib/infra/notify';
import { useSubmitLock } from '../../../lib/infra/useSubmitLock';
import { texts } from '../../../adminTexts';
import { deleteProducts, moveProducts } from './productApi';
import { ConfirmDialog } from '../editor/ConfirmDialog';

const t = texts.productTable;

interface BulkActionsProps {
  selectedIds: string[];
  categories: string[];
  onClear: () => void;
  /** After a successful move or delete: reload the table and counts. */
  onDone: () => Promise<void>;
}

/** Move or delete the selected products, each in one database statement. */
export function BulkActions({ selectedIds, categories, onClear, onDone }: BulkActionsProps) {
  const [target, setTarget] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { busy, run } = useSubmitLock<'move' | 'delete'>();
  const n = selectedIds.length;
  if (n === 0) return null;

  const act = (action: 'move' | 'delete', work: () => Promise<string>) =>
    run(action, async () => {
      let message: string;
      try {
        message = await work();
      } catch (error) {
        console.error(`Bulk ${action} failed`, error);
        if (!(await sessionEndedAfter(error))) notify.error(t.bulkFailed);
        return;
      }
      notify.success(message);
      onClear();
      await onDone();
    });

  return (
    <Paper withBorder p="xs" role="region" aria-label={t.selected(n)}>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Text size="sm" fw={600} aria-live="polite">
          {t.selected(n)}
        </Text>
        <Select
          label={t.moveTo}
          size="xs"
          data={categories}
          value={target}
          onChange={setTarget}
          searchable
          nothingFoundMessage={texts.categoryForm.none}
          w={{ base: '100%', xs: 200 }}
        />
        <Button
          size="xs"
          disabled={!target}
          loading={busy === 'move'}
          onClick={() =>
            target && void act('move', async () => t.moved(await moveProducts(selectedIds, target)))
          }
        >
          {t.move}
        </Button>
        <Button
          size="xs"
          color="red"
          variant="light"
          loading={busy === 'delete'}
          onClick={() => setConfirming(true)}
        >
          {t.deleteSelected}
        </Button>
        <Button size="xs" variant="subtle" onClick={onClear}>
          {t.clearSelection}
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        title={t.confirmDeleteTitle}
        text={t.confirmDeleteText(n)}
        confirmLabel={t.confirmDelete(n)}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void act('delete', async () => t.deleted(await deleteProducts(selectedIds)));
        }}
      />
    </Paper>
  );
}
