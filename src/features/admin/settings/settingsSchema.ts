import { texts } from '../../../adminOfferTexts';
import { z } from '../../../lib/domain/zod';

const t = texts.settings;
const fr = texts.freshness;

// The same patterns as private.store_settings_check (migration …2600), so the form explains every
// refusal before the database gives it.
const URL_PATTERN = /^https?:\/\/[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?(\/\S*)?$/;
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** Optional text: empty is "none". */
const optional = (check: (value: string) => boolean, message: string) =>
  z
    .string()
    .trim()
    .refine((value) => value === '' || check(value), { message });

const optionalUrl = optional((v) => v.length <= 300 && URL_PATTERN.test(v), t.urlInvalid);
const compact = (v: string) => v.replaceAll(' ', '').toUpperCase();

/** Whole days from `min` to `max`, typed as text in the form. */
const days = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max, { message });

export const settingsSchema = z
  .object({
    store_name: z.string().trim().min(1, t.nameInvalid).max(80, t.nameInvalid),
    contact_email: z
      .string()
      .trim()
      .refine((v) => v.length <= 254 && EMAIL_PATTERN.test(v), { message: t.emailInvalid }),
    site_url: optionalUrl,
    instagram_url: optionalUrl,
    facebook_url: optionalUrl,
    x_url: optionalUrl,
    tiktok_url: optionalUrl,
    youtube_url: optionalUrl,
    disclosure_text: z.string().trim().min(1, t.disclosureInvalid).max(300, t.disclosureInvalid),
    trader_name: z.string().trim().max(120, t.traderNameTooLong),
    trader_address: z.string().trim().max(300, t.traderAddressTooLong),
    company_number: optional((v) => /^[A-Z0-9]{8}$/.test(compact(v)), t.companyNumberInvalid),
    vat_number: optional(
      (v) => /^GB([0-9]{9}|[0-9]{12}|GD[0-9]{3}|HA[0-9]{3})$/.test(compact(v)),
      t.vatNumberInvalid,
    ),
    // Price freshness (REQ-OFF-3): stale 1..365 days, hidden from the stale days up to 3650.
    price_stale_after_days: days(1, 365, fr.staleInvalid),
    price_hidden_after_days: days(1, 3650, fr.hiddenInvalid),
    // Two-factor sign-in for every admin (REQ-MFA-2; the database enforces it in is_admin()).
    admins_require_mfa: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (Number(v.price_hidden_after_days) < Number(v.price_stale_after_days)) {
      ctx.addIssue({
        code: 'custom',
        path: ['price_hidden_after_days'],
        message: fr.hiddenInvalid,
      });
    }
  });

export type SettingsValues = z.infer<typeof settingsSchema>;
export type SettingsField = keyof SettingsValues;
export const SETTINGS_FIELDS = Object.keys(settingsSchema.shape) as SettingsField[];

export function isSettingsField(name: unknown): name is SettingsField {
  return typeof name === 'string' && (SETTINGS_FIELDS as string[]).includes(name);
}
