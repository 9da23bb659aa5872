import { texts } from '../../../adminFeedTexts';
import { z } from '../../../lib/domain/zod';
import { isHttpUrl } from '../products/productSchema';

const t = texts.feedForm;

// The feed source form (REQ-FEED-1): public.feed_sources' rules, checked here first so the admin
// reads why before the write; the database checks again and its refusal shows under the field.

export const FEED_FORMATS = ['csv', 'tsv', 'google_xml', 'google_tsv', 'awin_csv'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];
export const COMPRESSIONS = ['auto', 'none', 'gzip'] as const;
/** 'manual': schedule_minutes null (Run now and uploads only). */
export const SCHEDULES = ['manual', '15', '60', '360', '720', '1440'] as const;
export type Schedule = (typeof SCHEDULES)[number];

/** What a feed row may carry; link and price are required (except Google Merchant XML). */
export const MAPPED_FIELDS = [
  'id',
  'gtin',
  'title',
  'link',
  'price',
  'sale_price',
  'currency',
  'delivery',
  'availability',
  'image',
  'brand',
] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];
export type Mapping = Partial<Record<MappedField, string>>;

/** The networks' own column names (the same presets as the feed-sync function suggests). */
export const PRESETS: Record<'awin' | 'google', Mapping> = {
  awin: {
    id: 'merchant_product_id',
    gtin: 'ean',
    title: 'product_name',
    link: 'aw_deep_link',
    price: 'search_price',
    currency: 'currency',
    delivery: 'delivery_cost',
    availability: 'in_stock',
    image: 'merchant_image_url',
    brand: 'brand_name',
  },
  google: {
    id: 'id',
    gtin: 'gtin',
    title: 'title',
    link: 'link',
    price: 'price',
    sale_price: 'sale_price',
    availability: 'availability',
    image: 'image_link',
    brand: 'brand',
    delivery: 'shipping',
  },
};

/** 200 MB: the bucket's own limit (feed-uploads). */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;

// A checkbox's value. z.boolean() would add its code to the shared zod chunk the admin chunk
// loads (its byte budget); a custom check reuses what refinements already bring.
const flag = z.custom<boolean>((v) => typeof v === 'boolean');

const mappingSchema = z.object(
  Object.fromEntries(MAPPED_FIELDS.map((f) => [f, z.string()])) as Record<MappedField, z.ZodString>,
);

export const feedSchema = z
  .object({
    name: z.string().trim().min(1, texts.sellers.nameInvalid).max(80, texts.sellers.nameInvalid),
    seller_id: z.string().min(1, texts.offerPanel.sellerRequired),
    origin: z.enum(['url', 'upload']),
    url: z.string().trim(),
    upload_path: z.string(),
    format: z.enum(FEED_FORMATS),
    compression: z.enum(COMPRESSIONS),
    kind: z.enum(['full', 'delta']),
    mapping: mappingSchema,
    match_by_title: flag,
    // A string checked by pattern, not z.number(): the same reason as `flag`.
    max_change_pct: z
      .string()
      .trim()
      .refine((v) => /^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= 1000, {
        message: t.maxChangeInvalid,
      }),
    schedule: z.enum(SCHEDULES),
    enabled: flag,
  })
  .superRefine((v, ctx) => {
    if (v.origin === 'url' && !(v.url.length <= 2048 && isHttpUrl(v.url))) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: t.urlInvalid });
    }
    if (v.origin === 'upload' && v.upload_path === '') {
      ctx.addIssue({ code: 'custom', path: ['upload_path'], message: t.fileRequired });
    }
    if (v.format !== 'google_xml') {
      for (const f of ['link', 'price'] as const) {
        if (v.mapping[f] === '') {
          ctx.addIssue({ code: 'custom', path: ['mapping', f], message: t.columnRequired });
        }
      }
    }
  });

export type FeedValues = z.infer<typeof feedSchema>;
export type FeedField = keyof FeedValues;
export const FEED_FIELDS = Object.keys(feedSchema.shape) as FeedField[];

const emptyMapping = Object.fromEntries(MAPPED_FIELDS.map((f) => [f, ''])) as Record<
  MappedField,
  string
>;

export const emptyFeed: FeedValues = {
  name: '',
  seller_id: '',
  origin: 'url',
  url: '',
  upload_path: '',
  format: 'csv',
  compression: 'auto',
  kind: 'full',
  mapping: emptyMapping,
  match_by_title: false,
  max_change_pct: '50',
  schedule: 'manual',
  enabled: true,
};

/** The columns an admin writes (the rest is the sync's). */
export interface FeedSourceColumns {
  name: string;
  seller_id: string;
  origin: 'url' | 'upload';
  url: string | null;
  upload_path: string | null;
  format: FeedFormat;
  compression: (typeof COMPRESSIONS)[number];
  kind: 'full' | 'delta';
  mapping: Mapping;
  match_by_title: boolean;
  max_change_pct: number;
  schedule_minutes: number | null;
  enabled: boolean;
}

/** The form's values as the table's columns: an unused column is left out of the mapping. */
export function columnsOf(v: FeedValues): FeedSourceColumns {
  const mapping: Mapping = {};
  for (const f of MAPPED_FIELDS) if (v.mapping[f]) mapping[f] = v.mapping[f];
  return {
    name: v.name.trim(),
    seller_id: v.seller_id,
    origin: v.origin,
    url: v.origin === 'url' ? v.url.trim() : null,
    upload_path: v.origin === 'upload' ? v.upload_path : null,
    format: v.format,
    compression: v.compression,
    kind: v.kind,
    mapping,
    match_by_title: v.match_by_title,
    max_change_pct: Number(v.max_change_pct),
    schedule_minutes: v.schedule === 'manual' ? null : Number(v.schedule),
    enabled: v.enabled,
  };
}

export function valuesOf(s: FeedSourceColumns | null): FeedValues {
  if (!s) return emptyFeed;
  const schedule = String(s.schedule_minutes ?? 'manual');
  return {
    name: s.name,
    seller_id: s.seller_id,
    origin: s.origin,
    url: s.url ?? '',
    upload_path: s.upload_path ?? '',
    format: s.format,
    compression: s.compression,
    kind: s.kind,
    mapping: { ...emptyMapping, ...s.mapping },
    match_by_title: s.match_by_title,
    max_change_pct: String(s.max_change_pct),
    schedule: (SCHEDULES as readonly string[]).includes(schedule)
      ? (schedule as Schedule)
      : 'manual',
    enabled: s.enabled,
  };
}

/** The database's field names (hints, constraint names) → the form's fields. */
export const FEED_FIELD_ALIASES: Readonly<Record<string, FeedField>> = {
  schedule_minutes: 'schedule',
  seller: 'seller_id',
  file: 'upload_path',
};
