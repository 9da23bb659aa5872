import { texts } from '../../../adminOfferTexts';
import { z } from '../../../lib/domain/zod';
import { isHttpUrl } from '../products/productSchema';

const t = texts.offerPanel;

export const AVAILABILITIES = ['in_stock', 'out_of_stock', 'preorder', 'backorder'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/** The seller select's choice "new seller from this link's site". */
export const NEW_SELLER = 'new';

/** "£1,234.50", "12", "0.5" → the amount as typed without £ and commas ('' stays ''). */
function plainAmount(value: string): string {
  return value.replace(/[£,\s]/g, '');
}
const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;

const amount = z
  .string()
  .trim()
  .refine((v) => v === '' || AMOUNT.test(plainAmount(v)), { message: t.amountInvalid });

/** An amount field as the database's numeric(12,2) column: null when empty. */
export function amountValue(value: string): number | null {
  const plain = plainAmount(value);
  return plain === '' ? null : Number(plain);
}

/**
 * The offer form (REQ-OFF-1): the database's rules for public.offers, checked first here; the
 * database's own refusal shows under the field it names. Amounts in pounds, empty = not known.
 */
export const offerSchema = z.object({
  seller_id: z.string().min(1, t.sellerRequired),
  link: z
    .string()
    .trim()
    .refine((v) => v.length <= 2048 && isHttpUrl(v), { message: texts.productForm.linkInvalid }),
  price_gbp: amount,
  delivery_gbp: amount,
  availability: z.enum(['', ...AVAILABILITIES]),
});

export type OfferValues = z.infer<typeof offerSchema>;
export type OfferField = keyof OfferValues;
export const OFFER_FIELDS = Object.keys(offerSchema.shape) as OfferField[];

export const emptyOffer: OfferValues = {
  seller_id: '',
  link: '',
  price_gbp: '',
  delivery_gbp: '',
  availability: '',
};

/** The seller a link's site points to: its host in lower case without "www." (as sellers.host). */
export function linkHost(link: string): string | null {
  try {
    return new URL(link.trim()).hostname.toLowerCase().replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}
