// The feed source form's own rules (REQ-FEED-1): the form checks what public.feed_sources'
// trigger checks (name, address or upload, link and price columns unless Google Merchant XML,
// the price-change limit), writes the columns the table takes, and finds the field a database
// refusal is about.
import { describe, expect, it } from 'vitest';
import { texts } from '../../src/adminFeedTexts';
import { DbError } from '../../src/features/admin/db';
import {
  columnsOf,
  emptyFeed,
  FEED_FIELD_ALIASES,
  FEED_FIELDS,
  feedSchema,
  PRESETS,
  valuesOf,
  type FeedValues,
} from '../../src/features/admin/feeds/feedSchema';
import { refusedField } from '../../src/features/admin/sellers/refusedField';

const t = texts.feedForm;
const issues = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const feed: FeedValues = {
  ...emptyFeed,
  name: 'Awin: Sports shop',
  seller_id: '6f1c1c9e-1c1a-4c55-8a3c-1f0a6d1b2c3d',
  url: 'https://feeds.example.co.uk/products.csv',
  format: 'awin_csv',
  mapping: { ...emptyFeed.mapping, ...PRESETS.awin },
};

describe('feed source form', () => {
  it('accepts a complete feed and writes the table’s columns', () => {
    expect(feedSchema.safeParse(feed).success).toBe(true);
    const columns = columnsOf({ ...feed, schedule: '360', max_change_pct: '25' });
    expect(columns).toMatchObject({
      origin: 'url',
      url: 'https://feeds.example.co.uk/products.csv',
      upload_path: null,
      schedule_minutes: 360,
      max_change_pct: 25,
      match_by_title: false,
    });
    // Unused fields are left out of the mapping (the table refuses unknown keys, not empty ones).
    expect(columns.mapping).toEqual(PRESETS.awin);
    expect(valuesOf(columns)).toEqual({ ...feed, schedule: '360', max_change_pct: '25' });
    expect(columnsOf(feed).schedule_minutes).toBeNull();
  });

  it('names each bad value', () => {
    expect(issues(feedSchema.safeParse(emptyFeed))).toEqual({
      name: texts.sellers.nameInvalid,
      seller_id: texts.offerPanel.sellerRequired,
      url: t.urlInvalid,
      'mapping.link': t.columnRequired,
      'mapping.price': t.columnRequired,
    });
    expect(issues(feedSchema.safeParse({ ...feed, url: 'ftp://x.example/feed' }))).toEqual({
      url: t.urlInvalid,
    });
    for (const bad of ['0', '1001', '2.5', 'ten', '']) {
      expect(issues(feedSchema.safeParse({ ...feed, max_change_pct: bad }))).toEqual({
        max_change_pct: t.maxChangeInvalid,
      });
    }
    expect(feedSchema.safeParse({ ...feed, max_change_pct: '1000' }).success).toBe(true);
    expect(issues(feedSchema.safeParse({ ...feed, origin: 'upload' }))).toEqual({
      upload_path: t.fileRequired,
    });
    expect(columnsOf({ ...feed, origin: 'upload', upload_path: 'a/b.csv' })).toMatchObject({
      url: null,
      upload_path: 'a/b.csv',
    });
  });

  it('needs no mapping for Google Merchant XML (its field names are fixed)', () => {
    const xml = { ...feed, format: 'google_xml' as const, mapping: emptyFeed.mapping };
    expect(feedSchema.safeParse(xml).success).toBe(true);
  });

  it('finds the field a database refusal names', () => {
    const refusal = (code: string, message: string, hint = '') =>
      new DbError({ code, message, hint, details: '', name: 'PostgrestError' } as never);
    const field = (e: unknown) => refusedField(e, FEED_FIELDS, FEED_FIELD_ALIASES);
    expect(field(refusal('23514', 'A feed needs a web address', 'url'))).toBe('url');
    expect(field(refusal('22023', 'Schedule must be…', 'schedule_minutes'))).toBe('schedule');
    expect(field(refusal('22023', 'Unknown field "size" in the mapping', 'mapping'))).toBe(
      'mapping',
    );
    expect(
      field(
        refusal('23505', 'duplicate key value violates unique constraint "feed_sources_name_key"'),
      ),
    ).toBe('name');
    expect(field(refusal('42501', 'Only admins can manage feeds'))).toBeNull();
  });
});
