import { SessionEndedNote } from '../session/SessionEndedNote';
import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { texts } from '../../../adminOfferTexts';
import { notify } from '../../../lib/infra/notify';
import { isDbError, UNIQUE_VIOLATION } from '../db';
import { useSchemaForm } from '../editor/useSchemaForm';
import { addSeller, updateSeller, type Seller } from './sellerApi';
import { refusedField } from './refusedField';
import {
  emptySeller,
  SELLER_FIELDS,
  sellerSchema,
  taggedExample,
  type SellerValues,
} from './sellerSchema';

const t = texts.sellers;

function valuesOf(seller: Seller | null): SellerValues {
  if (!seller) return emptySeller;
  return {
    name: seller.name,
    site: seller.site,
    logo: seller.logo ?? '',
    network: seller.network ?? '',
    affiliate_param: seller.affiliate_param ?? '',
    affiliate_value: seller.affiliate_value ?? '',
  };
}

interface SellerDialogProps {
  opened: boolean;
  /** The seller to edit; null: a new one. */
  seller: Seller | null;
  onClose: () => void;
  /** After a save, or when the seller changed elsewhere: the list is read again. */
  onSaved: () => void;
}

/**
 * Add or edit one seller (REQ-OFF-1). The database checks every value; its refusal shows under
 * the field it names. A save writes only the version the list showed (updated_at).
 */
export function SellerDialog({ opened, seller, onClose, onSaved }: SellerDialogProps) {
  const form = useSchemaForm(sellerSchema, emptySeller);
  const { register, handleSubmit, reset, setError, watch, formState } = form;
  const { errors, isSubmitting } = formState;
  useEffect(() => {
    if (opened) reset(valuesOf(seller));
  }, [opened, seller, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      if (!seller) await addSeller(values);
      else if (!(await updateSeller(seller.id, seller.updated_at, values))) {
        // A dead session's update finds no row: the dialog stays, with its note (REQ-MFA-5).
        if (await sessionEndedAfter()) return;
        notify.error(t.changedElsewhere);
        onSaved();
        onClose();
        return;
      }
    } catch (error) {
      const field = refusedField(error, SELLER_FIELDS, { host: 'site' });
      if (field && isDbError(error)) {
        const unique = error.code === UNIQUE_VIOLATION;
        const message = unique ? (field === 'site' ? t.siteInUse : t.nameInUse) : error.message;
        setError(field, { type: 'server', message }, { shouldFocus: true });
      } else {
        console.error('Saving a seller failed', error);
        if (!(await sessionEndedAfter(error)))
          notify.error(isDbError(error) ? `${t.failed} ${error.message}` : t.failed);
      }
      return;
    }
    notify.success(t.saved);
    onSaved();
    onClose();
  });

  const [site, param, value] = watch(['site', 'affiliate_param', 'affiliate_value']);
  const example = taggedExample(site, param, value);
  const field = (name: keyof SellerValues, label: string, extra: object = {}) => (
    <TextInput label={label} error={errors[name]?.message} {...register(name)} {...extra} />
  );
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={seller ? t.editTitle(seller.name) : t.add}
      centered
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <SessionEndedNote />
          {field('name', t.name, { withAsterisk: true })}
          {field('site', t.site, {
            withAsterisk: true,
            type: 'url',
            placeholder: 'https://www.example.co.uk',
            description: t.siteHint,
          })}
          {field('network', t.network, { description: t.networkHint })}
          {field('logo', t.logo)}
          <Text size="sm" fw={600}>
            {t.affiliateHeading}
          </Text>
          <Text size="xs" c="dimmed">
            {t.affiliateHint}
          </Text>
          <Group grow align="flex-start" gap="xs">
            {field('affiliate_param', t.affiliateParam, { placeholder: 'tag' })}
            {field('affiliate_value', t.affiliateValue, { placeholder: 'mar-21' })}
          </Group>
          <Text size="xs" data-testid="affiliate-preview" style={{ overflowWrap: 'anywhere' }}>
            {example ? `${t.preview}: ${example}` : t.noRule}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {texts.admin.cancel}
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {t.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
