import { texts } from '../../../adminTexts';
import {
  SLIDE_NUMBERS,
  sitePath,
  webAddress,
  type SlideColumn,
  type SlideNumber,
} from '../../../lib/infra/storefrontContent';
import { z } from '../../../lib/domain/zod';

const t = texts.storefrontContent;

// The same rules as private.storefront_content_check (migration …2610), with the same words, so
// the form explains every refusal before the database gives it.

/** One line of 1 to `max` characters. */
const line = (max: number, message: string) =>
  z
    .string()
    .trim()
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    .refine((v) => v.length >= 1 && v.length <= max && !/[\u0000-\u001f\u007f]/.test(v), {
      message,
    });

/** A stored picture: a path of the site or an http(s) address (the bucket's public URL). */
const picture = (n: SlideNumber) =>
  z
    .string()
    .trim()
    .refine((v) => v.length <= 300 && (sitePath(v) !== undefined || /^https?:\/\//.test(v)), {
      message: t.imageInvalid(n),
    });

/**
 * A link as an admin types it, made a clean path: spaces and other characters a URL cannot hold
 * are percent-encoded ("/?cat=Running Shoes" → "/?cat=Running%20Shoes"); empty is "no link".
 */
export function normaliseLink(raw: string): string {
  const text = raw.trim();
  if (text === '' || !text.startsWith('/') || /^\/[/\\]/.test(text)) return text;
  try {
    const url = new URL(text, 'https://store.invalid');
    return url.origin === 'https://store.invalid'
      ? `${url.pathname}${url.search}${url.hash}`
      : text;
  } catch {
    return text;
  }
}

const link = (n: SlideNumber) =>
  z
    .string()
    .transform(normaliseLink)
    .refine((v) => v === '' || sitePath(v) !== undefined || webAddress(v) !== undefined, {
      message: t.linkInvalid(n),
    });

function slideShape(n: SlideNumber) {
  return {
    [`slide_${n}_image`]: picture(n),
    [`slide_${n}_alt`]: line(150, t.altInvalid(n)),
    [`slide_${n}_heading`]: line(60, t.headingInvalid(n)),
    [`slide_${n}_text`]: line(140, t.textInvalid(n)),
    [`slide_${n}_link`]: link(n),
  } as unknown as Record<SlideColumn, z.ZodType<string, string>>;
}

export const storefrontSchema = z.object({
  ...slideShape(1),
  ...slideShape(2),
  ...slideShape(3),
  about_text: z.string().trim().min(1, t.aboutInvalid).max(6000, t.aboutInvalid),
}) as unknown as z.ZodType<StorefrontValues, StorefrontValues>;

export type StorefrontValues = Record<SlideColumn, string> & { about_text: string };
export type StorefrontField = keyof StorefrontValues;
export const STOREFRONT_FIELDS: StorefrontField[] = [
  ...SLIDE_NUMBERS.flatMap((n) =>
    (['image', 'alt', 'heading', 'text', 'link'] as const).map(
      (part): StorefrontField => `slide_${n}_${part}`,
    ),
  ),
  'about_text',
];

// Written out (not joined from the fields): supabase-js types a select from its literal text.
export const STOREFRONT_CONTENT_COLUMNS =
  'slide_1_image,slide_1_alt,slide_1_heading,slide_1_text,slide_1_link,' +
  'slide_2_image,slide_2_alt,slide_2_heading,slide_2_text,slide_2_link,' +
  'slide_3_image,slide_3_alt,slide_3_heading,slide_3_text,slide_3_link,about_text';

export function isStorefrontField(name: unknown): name is StorefrontField {
  return typeof name === 'string' && (STOREFRONT_FIELDS as string[]).includes(name);
}
