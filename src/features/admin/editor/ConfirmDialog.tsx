import { Button, Group, Modal, Text } from '@mantine/core';
import { texts } from '../../../adminTexts';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  /** What will be deleted, e.g. 'This permanently deletes the product "Football".' */
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before a delete; the destructive button is not the default focus. */
export function ConfirmDialog({
  opened,
  title,
  text,
  confirmLabel,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text mb="lg">{text}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-autofocus>
          {texts.admin.cancel}
        </Button>
        <Button color="red" onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
