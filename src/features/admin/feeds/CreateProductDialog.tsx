import { SessionEndedNote } from '../session/SessionEndedNote';
import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { texts } from '../../../adminFeedTexts';
import { notify } from '../../../lib/infra/notify';
import { useAdminData } from '../AdminData';
import { isDbError } from '../db';
import { createProductFrom, type UnmatchedRow } from './feedApi';

const t = texts.feedUnmatched;

interface CreateProductDialogProps {
  row: UnmatchedRow | null;
  onClose: () => void;
  onCreated: () => void;
}

/**
 * "Create product" from an unmatched feed row (REQ-FEED-5): the admin gives the category and the
 * comment; the database makes the product through public.products (every product rule applies)
 * and its refusal shows under the field it names (hint), else as the store's error text.
 */
export function CreateProductDialog({ row, onClose, onCreated }: CreateProductDialogProps) {
  const { categories, reload } = useAdminData();
  const [cat, setCat] = useState<string | null>(null);
  const [com, setCom] = useState('');
  const [errors, setErrors] = useState<{ cat?: string; com?: string; other?: string }>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (row) {
      setCat(null);
      setCom('');
      setErrors({});
    }
  }, [row]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!row) return;
    const found = {
      cat: cat ? undefined : t.categoryRequired,
      com: com.trim() ? undefined : t.commentRequired,
    };
    setErrors(found);
    if (found.cat || found.com || !cat) return;
    setBusy(true);
    try {
      await createProductFrom(row.id, cat, com.trim());
    } catch (error) {
      console.error('Creating a product from a feed row failed', error);
      if (await sessionEndedAfter(error)) {
        setBusy(false);
        return;
      }
      const message = isDbError(error) ? error.message : '';
      const hint = isDbError(error) ? error.hint : null;
      setErrors(
        hint === 'cat' && message
          ? { cat: message }
          : hint === 'com' && message
            ? { com: message }
            : { other: message },
      );
      setBusy(false);
      return;
    }
    setBusy(false);
    notify.success(t.created);
    void reload();
    onCreated();
    onClose();
  };

  return (
    <Modal opened={row !== null} onClose={onClose} title={t.createTitle(row?.title ?? '')} centered>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <SessionEndedNote />
          <Text size="sm" c="dimmed">
            {t.createHint}
          </Text>
          <Select
            label={texts.productForm.category}
            withAsterisk
            searchable
            data={categories.map((c) => c.title)}
            value={cat}
            onChange={setCat}
            error={errors.cat}
          />
          <Textarea
            label={texts.productForm.comment}
            withAsterisk
            autosize
            minRows={2}
            value={com}
            onChange={(e) => setCom(e.currentTarget.value)}
            error={errors.com}
          />
          {errors.other !== undefined && (
            <Text size="sm" c="red" role="alert">
              {`${t.createFailed} ${errors.other}`.trim()}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {texts.admin.cancel}
            </Button>
            <Button type="submit" loading={busy}>
              {t.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
