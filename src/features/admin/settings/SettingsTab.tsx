import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Alert, Button, Center, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { RequireTwoFactorSection, LockSelfInDialog, wouldLockSelfIn } from './RequireTwoFactor';
import { texts } from '../../../adminOfferTexts';
import { loadSupabase } from '../../../lib/infra/loadSupabase';
import { notify } from '../../../lib/infra/notify';
import {
  STORE_SETTINGS_COLUMNS,
  updateStoreSettings,
  type StoreSettingsRow,
} from '../../../lib/infra/storeSettings';
import { FormSection } from '../editor/FormCard';
import { useSchemaForm } from '../editor/useSchemaForm';
import {
  isSettingsField,
  SETTINGS_FIELDS,
  settingsSchema,
  type SettingsValues,
} from './settingsSchema';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.settings;
const fr = texts.freshness;
const COLUMNS =
  `${STORE_SETTINGS_COLUMNS},price_stale_after_days,price_hidden_after_days,admins_require_mfa,updated_at` as const;
type LoadedRow = StoreSettingsRow & {
  price_stale_after_days: number;
  price_hidden_after_days: number;
  admins_require_mfa: boolean;
  updated_at: string;
};

/** The row as form values: a missing optional value is an empty field, a number its digits. */
function formValues(row: Omit<LoadedRow, 'updated_at'>): SettingsValues {
  return Object.fromEntries(
    SETTINGS_FIELDS.map((f) => [
      f,
      typeof row[f] === 'boolean' || row[f] == null ? (row[f] ?? '') : String(row[f]),
    ]),
  ) as SettingsValues;
}

const empty = {
  ...Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, ''])),
  admins_require_mfa: false,
} as SettingsValues;

async function readRow(): Promise<LoadedRow> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('store_settings').select(COLUMNS).single();
  if (error) throw error;
  return data;
}

/**
 * Admin tab "Settings": the store's own details (public.store_settings, docs/decisions/0211).
 * The database checks every value and logs the change (Activity); the form checks the same rules
 * first. A save is refused when another admin saved in between (the row's updated_at, as the
 * product editor does, docs/decisions/0005).
 */
export function SettingsTab() {
  const { register, handleSubmit, reset, setError, formState } = useSchemaForm(
    settingsSchema,
    empty,
  );
  const { errors, isSubmitting } = formState;
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const version = useRef<string | null>(null);
  // The rule as saved, and values waiting for the admin's yes (they have no factor themselves).
  const requiredMfa = useRef(false);
  const [awaiting, setAwaiting] = useState<SettingsValues | null>(null);

  const load = useCallback(async () => {
    const row = await readRow();
    version.current = row.updated_at;
    requiredMfa.current = row.admins_require_mfa;
    reset(formValues(row));
    setState('ready');
  }, [reset]);

  useEffect(() => {
    load().catch((error: unknown) => {
      console.error('Loading the settings failed', error);
      setState('failed');
    });
  }, [load]);

  const save = async (values: SettingsValues) => {
    const supabase = await loadSupabase();
    const optional = (v: string) => (v === '' ? null : v);
    const { data, error } = await supabase
      .from('store_settings')
      .update({
        ...values,
        site_url: optional(values.site_url),
        instagram_url: optional(values.instagram_url),
        facebook_url: optional(values.facebook_url),
        x_url: optional(values.x_url),
        tiktok_url: optional(values.tiktok_url),
        youtube_url: optional(values.youtube_url),
        trader_name: optional(values.trader_name),
        trader_address: optional(values.trader_address),
        company_number: optional(values.company_number),
        vat_number: optional(values.vat_number),
        price_stale_after_days: Number(values.price_stale_after_days),
        price_hidden_after_days: Number(values.price_hidden_after_days),
      })
      .eq('id', true)
      .eq('updated_at', version.current ?? '')
      .select(COLUMNS)
      .maybeSingle();
    if (error) {
      // The database's rule names its field in the hint (migration …2600).
      if (error.code === '23514' && isSettingsField(error.hint)) {
        setError(error.hint, { type: 'server', message: error.message }, { shouldFocus: true });
      } else {
        console.error('Saving the settings failed', error);
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
    version.current = data.updated_at;
    requiredMfa.current = data.admins_require_mfa;
    reset(formValues(data));
    // This tab's own storefront parts (footer) show the change at once.
    updateStoreSettings(data);
    notify.success(t.saved);
  };

  const onSubmit = handleSubmit(async (values) => {
    if (await wouldLockSelfIn(requiredMfa.current, values.admins_require_mfa)) {
      setAwaiting(values);
      return;
    }
    await save(values);
  });

  const onConfirmLockIn = () => {
    const values = awaiting;
    setAwaiting(null);
    if (values) void save(values);
  };

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

  const field = (name: keyof SettingsValues, label: string, type = 'text') => (
    <TextInput label={label} type={type} error={errors[name]?.message} {...register(name)} />
  );
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t.tab}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t.intro}
        </Text>
        <FormSection title={t.storeHeading}>
          <TextInput
            label={t.storeName}
            withAsterisk
            error={errors.store_name?.message}
            {...register('store_name')}
          />
          <TextInput
            label={t.contactEmail}
            type="email"
            withAsterisk
            error={errors.contact_email?.message}
            {...register('contact_email')}
          />
          <TextInput
            label={t.siteUrl}
            description={t.siteUrlHint}
            type="url"
            error={errors.site_url?.message}
            {...register('site_url')}
          />
          <Textarea
            label={t.disclosure}
            withAsterisk
            autosize
            minRows={2}
            error={errors.disclosure_text?.message}
            {...register('disclosure_text')}
          />
        </FormSection>
        <FormSection title={texts.brand.followUs}>
          <Text size="sm" c="dimmed">
            {t.socialHint}
          </Text>
          {field('instagram_url', t.instagram, 'url')}
          {field('facebook_url', t.facebook, 'url')}
          {field('x_url', t.x, 'url')}
          {field('tiktok_url', t.tiktok, 'url')}
          {field('youtube_url', t.youtube, 'url')}
        </FormSection>
        <FormSection title={t.traderHeading}>
          <Text size="sm" c="dimmed">
            {t.traderHint}
          </Text>
          {field('trader_name', t.traderName)}
          <Textarea
            label={t.traderAddress}
            autosize
            minRows={2}
            error={errors.trader_address?.message}
            {...register('trader_address')}
          />
          {field('company_number', t.companyNumber)}
          {field('vat_number', t.vatNumber)}
        </FormSection>
        <FormSection title={fr.heading}>
          <Text size="sm" c="dimmed">
            {fr.hint}
          </Text>
          {/* Whole days as text: the database's message for a refused value shows here too. */}
          <TextInput
            label={fr.staleAfter}
            description={fr.staleHint}
            inputMode="numeric"
            error={errors.price_stale_after_days?.message}
            {...register('price_stale_after_days')}
          />
          <TextInput
            label={fr.hiddenAfter}
            description={fr.hiddenHint}
            inputMode="numeric"
            error={errors.price_hidden_after_days?.message}
            {...register('price_hidden_after_days')}
          />
        </FormSection>
        <RequireTwoFactorSection field={register('admins_require_mfa')} />
        <Button
          type="submit"
          loading={isSubmitting}
          disabled={isSubmitting}
          style={{ alignSelf: 'flex-start' }}
        >
          {t.save}
        </Button>
      </Stack>
      <LockSelfInDialog
        opened={awaiting !== null}
        onConfirm={onConfirmLockIn}
        onCancel={() => setAwaiting(null)}
      />
    </form>
  );
}
