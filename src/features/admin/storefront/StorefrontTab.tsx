import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Alert, Button, Center, Image, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { texts } from '../../../adminTexts';
import { loadSupabase } from '../../../lib/infra/loadSupabase';
import { notify } from '../../../lib/infra/notify';
import {
  SLIDE_NUMBERS,
  updateStorefrontContent,
  type SlideNumber,
  type StorefrontContentRow,
} from '../../../lib/infra/storefrontContent';
import { FormSection } from '../editor/FormCard';
import { ImageUpload } from '../images/ImageUpload';
import { useSchemaForm } from '../editor/useSchemaForm';
import { releaseStorefrontImages, uploadStorefrontImage } from './storefrontImages';
import {
  isStorefrontField,
  STOREFRONT_CONTENT_COLUMNS,
  STOREFRONT_FIELDS,
  storefrontSchema,
  type StorefrontValues,
} from './storefrontSchema';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.storefrontContent;
const COLUMNS = `${STOREFRONT_CONTENT_COLUMNS},updated_at` as const;
type LoadedRow = StorefrontContentRow & { updated_at: string };

/** The row as form values: no link is an empty field. */
function formValues(row: StorefrontContentRow): StorefrontValues {
  return Object.fromEntries(STOREFRONT_FIELDS.map((f) => [f, row[f] ?? ''])) as StorefrontValues;
}

const empty = Object.fromEntries(STOREFRONT_FIELDS.map((f) => [f, ''])) as StorefrontValues;
const images = (values: StorefrontValues) => SLIDE_NUMBERS.map((n) => values[`slide_${n}_image`]);

async function readRow(): Promise<LoadedRow> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('storefront_content').select(COLUMNS).single();
  if (error) throw error;
  return data;
}

/**
 * Admin tab "Storefront": the home banner's three slides and the About text
 * (public.storefront_content, docs/decisions/0212). Same conventions as the Settings tab: the
 * database checks every value and logs the change, the form checks the same rules first, and a
 * save is refused when another admin saved in between (the row's updated_at).
 */
export function StorefrontTab() {
  const { register, handleSubmit, reset, setError, setValue, watch, getValues, formState } =
    useSchemaForm(storefrontSchema, empty);
  const { errors, isSubmitting } = formState;
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const version = useRef<string | null>(null);
  // The pictures the saved row shows, and the uploads of this visit not saved yet: what to
  // remove from the bucket once nothing shows it.
  const saved = useRef<string[]>([]);
  const uploads = useRef<string[]>([]);

  const show = useCallback(
    (row: LoadedRow) => {
      version.current = row.updated_at;
      const values = formValues(row);
      saved.current = images(values);
      reset(values);
    },
    [reset],
  );

  const load = useCallback(async () => {
    show(await readRow());
    setState('ready');
  }, [show]);

  useEffect(() => {
    load().catch((error: unknown) => {
      console.error('Loading the storefront content failed', error);
      setState('failed');
    });
  }, [load]);

  const onUploaded = (n: SlideNumber, url: string) => {
    const field = `slide_${n}_image` as const;
    const replaced = getValues(field);
    setValue(field, url, { shouldDirty: true, shouldValidate: true });
    uploads.current.push(url);
    // A picture uploaded on this visit and replaced before saving is of no use to anyone.
    if (uploads.current.includes(replaced) && !saved.current.includes(replaced)) {
      void releaseStorefrontImages([replaced], images(getValues()));
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    const supabase = await loadSupabase();
    const links = Object.fromEntries(
      SLIDE_NUMBERS.map((n) => [`slide_${n}_link`, values[`slide_${n}_link`] || null]),
    );
    const { data, error } = await supabase
      .from('storefront_content')
      .update({ ...values, ...links })
      .eq('id', true)
      .eq('updated_at', version.current ?? '')
      .select(COLUMNS)
      .maybeSingle();
    if (error) {
      // The database's rule names its field in the hint (migration …2610).
      if (error.code === '23514' && isStorefrontField(error.hint)) {
        setError(error.hint, { type: 'server', message: error.message }, { shouldFocus: true });
      } else {
        console.error('Saving the storefront content failed', error);
        if (!(await sessionEndedAfter(error))) notify.error(t.failed);
      }
      return;
    }
    if (!data) {
      // A dead session's update matches no row: not "changed elsewhere" (REQ-MFA-5); the form
      // keeps what was typed.
      if (await sessionEndedAfter()) return;
      notify.error(t.changedElsewhere);
      await load().catch(() => setState('failed'));
      return;
    }
    const before = [...saved.current, ...uploads.current];
    uploads.current = [];
    show(data);
    void releaseStorefrontImages(before, saved.current);
    // This visit's own storefront pages show the change at once.
    updateStorefrontContent(data);
    notify.success(t.saved);
  });

  if (state === 'loading') {
    return (
      <Center py="xl">
        <LoadingIndicator label={t.loading} />
      </Center>
    );
  }
  if (state === 'failed') {
    return (
      <Alert color="red" role="alert">
        {t.loadFailed}
      </Alert>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t.tab}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t.intro}
        </Text>
        {SLIDE_NUMBERS.map((n) => {
          const image = watch(`slide_${n}_image`);
          const imageError = errors[`slide_${n}_image`]?.message;
          return (
            <FormSection key={n} title={t.slideHeading(n)}>
              <div data-testid={`slide-editor-${n}`}>
                <Stack gap="sm">
                  <Text size="sm" fw={500}>
                    {t.picture}
                  </Text>
                  {image && (
                    <Image
                      src={image}
                      alt={t.pictureAlt(n)}
                      radius="sm"
                      style={{ aspectRatio: '3 / 1' }}
                      fit="cover"
                      data-testid="slide-picture"
                    />
                  )}
                  <input type="hidden" {...register(`slide_${n}_image`)} />
                  <ImageUpload
                    disabled={isSubmitting}
                    upload={uploadStorefrontImage}
                    label={t.uploadLabel(n)}
                    uploadedMessage={t.uploaded}
                    onUploaded={(url) => onUploaded(n, url)}
                  />
                  {imageError && (
                    <Text size="sm" c="red" role="alert">
                      {imageError}
                    </Text>
                  )}
                  <TextInput
                    label={t.alt}
                    withAsterisk
                    error={errors[`slide_${n}_alt`]?.message}
                    {...register(`slide_${n}_alt`)}
                  />
                  <TextInput
                    label={t.heading}
                    withAsterisk
                    error={errors[`slide_${n}_heading`]?.message}
                    {...register(`slide_${n}_heading`)}
                  />
                  <TextInput
                    label={t.text}
                    withAsterisk
                    error={errors[`slide_${n}_text`]?.message}
                    {...register(`slide_${n}_text`)}
                  />
                  <TextInput
                    label={t.link}
                    description={t.linkHint}
                    error={errors[`slide_${n}_link`]?.message}
                    {...register(`slide_${n}_link`)}
                  />
                </Stack>
              </div>
            </FormSection>
          );
        })}
        <FormSection title={t.aboutHeading}>
          <Textarea
            label={t.about}
            description={t.aboutHint}
            withAsterisk
            autosize
            minRows={8}
            maxRows={24}
            error={errors.about_text?.message}
            {...register('about_text')}
          />
        </FormSection>
        <Button
          type="submit"
          loading={isSubmitting}
          disabled={isSubmitting}
          style={{ alignSelf: 'flex-start' }}
        >
          {t.save}
        </Button>
      </Stack>
    </form>
  );
}
