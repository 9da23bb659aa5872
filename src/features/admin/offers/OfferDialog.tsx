import { SessionEndedNote } from '../session/SessionEndedNote';
import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { Controller } from 'react-hook-form';
import { texts } from '../../../adminOfferTexts';
import { notify } from '../../../lib/infra/notify';
import { isDbError, UNIQUE_VIOLATION } from '../db';
import { useSchemaForm } from '../editor/useSchemaForm';
import { refusedField } from '../sellers/refusedField';
import type { SellerChoice } from '../sellers/sellerApi';
import { addOffer, updateOffer, type Offer } from './offerApi';
import {
  AVAILABILITIES,
  emptyOffer,
  NEW_SELLER,
  OFFER_FIELDS,
  offerSchema,
  type OfferValues,
} from './offerSchema';

const t = texts.offerPanel;

const amount = (value: number | null) => (value === null ? '' : value.toFixed(2));

function valuesOf(offer: Offer | null): OfferValues {
  if (!offer) return emptyOffer;
  return {
    seller_id: offer.seller_id,
    link: offer.link,
    price_gbp: amount(offer.price_gbp),
    delivery_gbp: amount(offer.delivery_gbp),
    availability: (offer.availability ?? '') as OfferValues['availability'],
  };
}

/** Mantine's Select needs a non-empty value for "not known" (the form's ''). */
const UNKNOWN = 'unknown';
const AVAILABILITY_OPTIONS = [
  { value: UNKNOWN, label: t.availabilityUnknown },
  ...AVAILABILITIES.map((a) => ({ value: a, label: t.availabilityLabel[a] })),
];

interface OfferDialogProps {
  opened: boolean;
  productId: string;
  /** The offer to edit; null: a new one. */
  offer: Offer | null;
  sellers: SellerChoice[];
  onClose: () => void;
  /** After a save, or when the offer changed elsewhere: the panel reads the offers again. */
  onSaved: () => void;
}

/**
 * Add or edit one offer of a product (REQ-OFF-1). The product's own (primary) offer shows its
 * link and price read-only: they follow the product's Link and Price.
 */
export function OfferDialog({
  opened,
  productId,
  offer,
  sellers,
  onClose,
  onSaved,
}: OfferDialogProps) {
  const { control, register, handleSubmit, reset, setError, clearErrors, formState } =
    useSchemaForm(offerSchema, emptyOffer);
  const { errors, isSubmitting } = formState;
  useEffect(() => {
    if (opened) reset(valuesOf(offer));
  }, [opened, offer, reset]);
  const primary = offer?.is_primary ?? false;

  const onSubmit = handleSubmit(async (values) => {
    try {
      if (!offer) await addOffer(productId, values);
      else if (!(await updateOffer(offer, values))) {
        // A dead session's update finds no row: the dialog stays, with its note (REQ-MFA-5).
        if (await sessionEndedAfter()) return;
        notify.error(t.changedElsewhere);
        onSaved();
        onClose();
        return;
      }
    } catch (error) {
      const field = refusedField(error, OFFER_FIELDS, { seller: 'seller_id' });
      if (isDbError(error, UNIQUE_VIOLATION)) {
        setError('seller_id', { type: 'server', message: t.sellerTaken }, { shouldFocus: true });
      } else if (field && isDbError(error)) {
        setError(field, { type: 'server', message: error.message }, { shouldFocus: true });
      } else {
        console.error('Saving an offer failed', error);
        if (!(await sessionEndedAfter(error)))
          notify.error(isDbError(error) ? `${t.failed} ${error.message}` : t.failed);
      }
      return;
    }
    notify.success(t.saved);
    onSaved();
    onClose();
  });

  const sellerOptions = [
    ...sellers.map((s) => ({ value: s.id, label: s.name })),
    ...(primary ? [] : [{ value: NEW_SELLER, label: t.newSeller }]),
  ];
  const title = offer ? t.editTitle(offer.seller?.name ?? '') : t.addTitle;
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <SessionEndedNote />
          <Controller
            control={control}
            name="seller_id"
            render={({ field }) => (
              <Select
                label={t.seller}
                placeholder={t.sellerPlaceholder}
                withAsterisk
                searchable
                disabled={primary}
                data={sellerOptions}
                value={field.value || null}
                onChange={(value) => {
                  field.onChange(value ?? '');
                  clearErrors('seller_id');
                }}
                onBlur={field.onBlur}
                ref={field.ref}
                name={field.name}
                error={errors.seller_id?.message}
              />
            )}
          />
          {primary && (
            <Text size="xs" c="dimmed">
              {t.primaryHint}
            </Text>
          )}
          <TextInput
            label={t.link}
            withAsterisk
            type="url"
            placeholder="https://…"
            readOnly={primary}
            error={errors.link?.message}
            {...register('link')}
          />
          <Group grow align="flex-start" gap="xs">
            <TextInput
              label={t.price}
              inputMode="decimal"
              placeholder="12.50"
              readOnly={primary}
              error={errors.price_gbp?.message}
              {...register('price_gbp')}
            />
            <TextInput
              label={t.delivery}
              inputMode="decimal"
              placeholder="3.99"
              error={errors.delivery_gbp?.message}
              {...register('delivery_gbp')}
            />
          </Group>
          <Text size="xs" c="dimmed">
            {t.deliveryHint}
          </Text>
          <Controller
            control={control}
            name="availability"
            render={({ field }) => (
              <Select
                label={t.availability}
                data={AVAILABILITY_OPTIONS}
                allowDeselect={false}
                value={field.value || UNKNOWN}
                onChange={(value) => field.onChange(!value || value === UNKNOWN ? '' : value)}
                onBlur={field.onBlur}
                ref={field.ref}
                name={field.name}
                error={errors.availability?.message}
              />
            )}
          />
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
