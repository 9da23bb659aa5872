import { Alert, Button, Group, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { texts } from '../../../adminFeedTexts';
import { previewFeed, FeedServiceError, type FeedPreview } from './feedApi';
import { MAPPED_FIELDS, PRESETS, type FeedValues, type MappedField } from './feedSchema';

const t = texts.feedForm;
const NONE = '__none__';

/**
 * The column mapping (REQ-FEED-1): a preset fills it, "Preview" reads the first rows through the
 * feed-sync function (the same fetch guard and parsers as a run) and offers the feed's columns
 * as choices; the first rows show as mapped. Google Merchant XML names its fields itself.
 */
export function MappingEditor({ form }: { form: UseFormReturn<FeedValues> }) {
  const { control, watch, setValue, getValues, formState } = form;
  const [preview, setPreview] = useState<FeedPreview | null>(null);
  const [state, setState] = useState<'idle' | 'loading'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const [format, mapping] = watch(['format', 'mapping']);
  const errors = formState.errors.mapping;

  const applyMapping = (source: Partial<Record<MappedField, string>>, onlyEmpty: boolean) => {
    for (const f of MAPPED_FIELDS) {
      const column = source[f];
      if (column === undefined || (onlyEmpty && getValues(`mapping.${f}`))) continue;
      setValue(`mapping.${f}`, column, {
        shouldDirty: true,
        shouldValidate: formState.isSubmitted,
      });
    }
  };
  const preset = (name: 'awin' | 'google') => {
    for (const f of MAPPED_FIELDS) setValue(`mapping.${f}`, '', { shouldDirty: true });
    applyMapping(PRESETS[name], false);
  };

  const loadPreview = async () => {
    const v = getValues();
    const input = v.origin === 'url' ? { url: v.url.trim() } : { uploadPath: v.upload_path };
    if (!('url' in input ? input.url : input.uploadPath)) {
      setProblem(t.previewNeedsSource);
      return;
    }
    setState('loading');
    setProblem(null);
    try {
      const answer = await previewFeed({ ...input, format: v.format, compression: v.compression });
      setPreview(answer);
      applyMapping(answer.suggestedMapping ?? {}, true);
    } catch (error) {
      console.error('Previewing a feed failed', error);
      setPreview(null);
      setProblem(
        error instanceof FeedServiceError && error.said
          ? `${t.previewFailed}: ${error.said}`
          : `${t.previewFailed}. ${texts.feeds.serviceFailed}`,
      );
    } finally {
      setState('idle');
    }
  };

  // The feed's columns, plus a saved column the preview did not show (kept, not lost).
  const columns = new Set(preview?.columns ?? []);
  for (const f of MAPPED_FIELDS) if (mapping[f]) columns.add(mapping[f]);
  const options = [
    { value: NONE, label: t.noColumn },
    ...[...columns].map((c) => ({ value: c, label: c })),
  ];
  const mapped = MAPPED_FIELDS.filter((f) => mapping[f]);
  const cell = (row: string[], f: MappedField) => {
    const i = preview?.columns.indexOf(mapping[f] ?? '') ?? -1;
    return i >= 0 ? (row[i] ?? '') : '';
  };

  return (
    <Stack gap="xs" role="group" aria-label={t.mapping}>
      <Text size="sm" fw={600}>
        {t.mapping}
      </Text>
      <Text size="xs" c="dimmed">
        {format === 'google_xml' ? t.mappingFixed : t.mappingHint}
      </Text>
      <Group gap="xs" wrap="wrap">
        <Button size="compact-sm" variant="default" onClick={() => preset('awin')}>
          {t.presetAwin}
        </Button>
        <Button size="compact-sm" variant="default" onClick={() => preset('google')}>
          {t.presetGoogle}
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          loading={state === 'loading'}
          onClick={() => void loadPreview()}
        >
          {t.preview}
        </Button>
      </Group>
      {/* The database's refusal of the mapping as a whole (an unknown field, say). */}
      {errors?.message && (
        <Text size="sm" c="red" role="alert">
          {errors.message}
        </Text>
      )}
      {problem && (
        <Alert color="red" role="alert" p="xs">
          <Text size="sm">{problem}</Text>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs">
        {MAPPED_FIELDS.map((f) => (
          <Controller
            key={f}
            control={control}
            name={`mapping.${f}`}
            render={({ field }) => (
              <Select
                label={t.field[f]}
                size="xs"
                data={options}
                allowDeselect={false}
                withAsterisk={format !== 'google_xml' && (f === 'link' || f === 'price')}
                value={field.value || NONE}
                onChange={(value) => field.onChange(!value || value === NONE ? '' : value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errors?.[f]?.message}
              />
            )}
          />
        ))}
      </SimpleGrid>
      {preview && mapped.length > 0 && (
        <Table.ScrollContainer minWidth={360}>
          <Table striped withTableBorder fz="xs" data-testid="feed-preview">
            <Table.Caption>{t.previewCaption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {mapped.map((f) => (
                  <Table.Th key={f}>{t.field[f]}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.rows.slice(0, 5).map((row, i) => (
                <Table.Tr key={i}>
                  {mapped.map((f) => (
                    <Table.Td key={f} style={{ overflowWrap: 'anywhere' }}>
                      {cell(row, f)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
