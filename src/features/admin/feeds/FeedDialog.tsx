import { SessionEndedNote } from '../session/SessionEndedNote';
import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import {
  Button,
  Checkbox,
  FileInput,
  Group,
  Modal,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { texts } from '../../../adminFeedTexts';
import { notify } from '../../../lib/infra/notify';
import { isDbError, UNIQUE_VIOLATION } from '../db';
import { useSchemaForm } from '../editor/useSchemaForm';
import { refusedField } from '../sellers/refusedField';
import type { SellerChoice } from '../sellers/sellerApi';
import { addSource, updateSource, uploadFeedFile, type FeedSource } from './feedApi';
import {
  columnsOf,
  COMPRESSIONS,
  emptyFeed,
  FEED_FIELD_ALIASES,
  FEED_FIELDS,
  FEED_FORMATS,
  feedSchema,
  MAX_UPLOAD_BYTES,
  SCHEDULES,
  valuesOf,
  type FeedValues,
} from './feedSchema';
import { MappingEditor } from './MappingEditor';

const t = texts.feedForm;
const f = texts.feeds;

const formatOptions = FEED_FORMATS.map((value) => ({ value, label: f.formatLabel[value] }));
const compressionOptions = COMPRESSIONS.map((value) => ({
  value,
  label: t.compressionLabel[value],
}));
const scheduleOptions = SCHEDULES.map((value) => ({ value, label: f.scheduleLabel[value] }));

interface FeedDialogProps {
  opened: boolean;
  /** The feed to edit; null: a new one. */
  source: FeedSource | null;
  sellers: SellerChoice[];
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Add or edit a feed source (REQ-FEED-1). The database checks every value again (trigger
 * messages with the field as hint); its refusal shows under the field it names.
 */
export function FeedDialog({ opened, source, sellers, onClose, onSaved }: FeedDialogProps) {
  const form = useSchemaForm(feedSchema, emptyFeed);
  const { register, control, handleSubmit, reset, setError, setValue, watch, formState } = form;
  const { errors, isSubmitting } = formState;
  const [upload, setUpload] = useState<'idle' | 'uploading' | 'failed'>('idle');
  // Uploads of a new feed go under a fresh folder; an existing feed's under its id.
  const folder = useMemo(() => source?.id ?? crypto.randomUUID(), [source, opened]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (opened) {
      reset(valuesOf(source));
      setUpload('idle');
    }
  }, [opened, source, reset]);

  const sellerOptions = sellers.map((s) => ({ value: s.id, label: s.name }));
  const [origin, uploadPath] = watch(['origin', 'upload_path']);

  const chooseFile = async (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      setError('upload_path', { type: 'size', message: t.fileTooBig });
      return;
    }
    setUpload('uploading');
    try {
      const path = await uploadFeedFile(folder, file);
      setValue('upload_path', path, { shouldDirty: true, shouldValidate: true });
      setUpload('idle');
    } catch (error) {
      console.error('Uploading a feed file failed', error);
      setUpload('failed');
    }
  };

  const onSubmit = handleSubmit(async (values: FeedValues) => {
    try {
      const columns = columnsOf(values);
      if (!source) await addSource(columns);
      else if (!(await updateSource(source.id, source.updated_at, columns))) {
        // A dead session's update finds no row: the dialog stays, with its note (REQ-MFA-5).
        if (await sessionEndedAfter()) return;
        notify.error(t.changedElsewhere);
        onSaved();
        onClose();
        return;
      }
    } catch (error) {
      // The name is the table's only unique value besides the id.
      const unique = isDbError(error, UNIQUE_VIOLATION);
      const field = unique ? 'name' : refusedField(error, FEED_FIELDS, FEED_FIELD_ALIASES);
      if (field && error instanceof Error) {
        const message = unique ? t.nameInUse : error.message;
        setError(field, { type: 'server', message }, { shouldFocus: true });
      } else {
        console.error('Saving a feed failed', error);
        if (!(await sessionEndedAfter(error)))
          notify.error(isDbError(error) ? `${t.failed} ${error.message}` : t.failed);
      }
      return;
    }
    notify.success(t.saved);
    onSaved();
    onClose();
  });

  const select = (
    name: 'seller_id' | 'format' | 'compression' | 'schedule',
    label: string,
    data: { value: string; label: string }[],
    extra: object = {},
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          data={data}
          allowDeselect={false}
          value={field.value || null}
          onChange={(value) => field.onChange(value ?? '')}
          onBlur={field.onBlur}
          ref={field.ref}
          error={errors[name]?.message}
          {...extra}
        />
      )}
    />
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={source ? f.editTitle(source.name) : f.add}
      size="xl"
      centered
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <SessionEndedNote />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t.name}
              withAsterisk
              error={errors.name?.message}
              {...register('name')}
            />
            {select('seller_id', texts.offerPanel.seller, sellerOptions, {
              withAsterisk: true,
              searchable: true,
              placeholder: texts.offerPanel.sellerPlaceholder,
            })}
          </SimpleGrid>
          <Controller
            control={control}
            name="origin"
            render={({ field }) => (
              <Radio.Group
                label={t.origin}
                value={field.value}
                onChange={field.onChange}
                error={errors.origin?.message}
              >
                <Group gap="md" mt={4}>
                  <Radio value="url" label={t.originUrl} />
                  <Radio value="upload" label={t.originUpload} />
                </Group>
              </Radio.Group>
            )}
          />
          {origin === 'url' ? (
            <TextInput
              label={t.url}
              withAsterisk
              type="url"
              placeholder="https://feeds.example.co.uk/products.csv"
              error={errors.url?.message}
              {...register('url')}
            />
          ) : (
            <Stack gap={4}>
              <FileInput
                label={t.file}
                withAsterisk
                description={t.fileHint}
                accept=".csv,.tsv,.txt,.xml,.gz"
                clearable={false}
                disabled={upload === 'uploading'}
                onChange={(file) => void chooseFile(file)}
                error={errors.upload_path?.message}
              />
              <Text size="xs" role="status" c={upload === 'failed' ? 'red' : undefined}>
                {upload === 'uploading' && t.uploading}
                {upload === 'failed' && t.uploadFailed}
                {upload === 'idle' && uploadPath && t.uploaded(uploadPath.split('/').pop() ?? '')}
              </Text>
            </Stack>
          )}
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {select('format', f.format, formatOptions)}
            {select('compression', t.compression, compressionOptions)}
            {select('schedule', f.schedule, scheduleOptions)}
          </SimpleGrid>
          <Controller
            control={control}
            name="kind"
            render={({ field }) => (
              <Radio.Group
                label={t.kind}
                description={t.kindHint}
                value={field.value}
                onChange={field.onChange}
                error={errors.kind?.message}
              >
                <Group gap="md" mt={4}>
                  <Radio value="full" label={t.kindFull} />
                  <Radio value="delta" label={t.kindDelta} />
                </Group>
              </Radio.Group>
            )}
          />
          <MappingEditor form={form} />
          <Checkbox
            label={t.matchByTitle}
            description={t.matchByTitleWarning}
            {...register('match_by_title')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Controller
              control={control}
              name="max_change_pct"
              render={({ field }) => (
                <NumberInput
                  label={t.maxChange}
                  description={t.maxChangeHint}
                  min={1}
                  max={1000}
                  allowDecimal={false}
                  allowNegative={false}
                  value={field.value}
                  onChange={(v) => field.onChange(String(v))}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  error={errors.max_change_pct?.message}
                />
              )}
            />
            <Switch mt="lg" label={t.enabled} {...register('enabled')} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {texts.admin.cancel}
            </Button>
            <Button type="submit" loading={isSubmitting} disabled={upload === 'uploading'}>
              {t.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
