import { Button, Group, Modal, Select, Text } from '@mantine/core';
import { useState } from 'react';
import { texts } from '../../../adminTexts';

const t = texts.productTable;

interface MoveThenDeleteDialogProps {
  /** The category to delete and how many products it still has; null: closed. */
  subject: { title: string; count: number } | null;
  /** Where its products may go: every other category. */
  targets: string[];
  busy: boolean;
  onConfirm: (moveTo: string) => void;
  onCancel: () => void;
}

/**
 * Deleting a category that still has products: offers to move them to another category first
 * (one transaction in the database), instead of refusing after "This permanently deletes".
 */
export function MoveThenDeleteDialog({
  subject,
  targets,
  busy,
  onConfirm,
  onCancel,
}: MoveThenDeleteDialogProps) {
  const [target, setTarget] = useState<string | null>(null);
  const close = () => {
    setTarget(null);
    onCancel();
  };
  return (
    <Modal opened={subject !== null} onClose={close} title={t.moveFirstTitle} centered>
      {subject && (
        <>
          <Text mb="md">{t.moveFirstText(subject.title, subject.count)}</Text>
          {targets.length === 0 ? (
            <Text mb="lg" c="dimmed">
              {t.moveFirstNoTarget}
            </Text>
          ) : (
            <Select
              mb="lg"
              label={t.moveFirstTarget}
              data={targets}
              value={target}
              onChange={setTarget}
              searchable
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              {texts.admin.cancel}
            </Button>
            <Button
              color="red"
              disabled={!target}
              loading={busy}
              onClick={() => {
                if (!target) return;
                setTarget(null);
                onConfirm(target);
              }}
            >
              {t.moveFirstConfirm}
            </Button>
          </Group>
        </>
      )}
    </Modal>
  );
}
