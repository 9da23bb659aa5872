// The Sellers tab's, the offers panel's and the freshness settings' own rules (REQ-OFF-1,
// REQ-OFF-3): the forms check what the database checks, with the same limits, and a database
// refusal finds the field it is about.
import { describe, expect, it } from 'vitest';
import { texts } from '../../src/adminOfferTexts';
import { DbError } from '../../src/features/admin/db';
import { ago, staleness } from '../../src/features/admin/offers/freshness';
import { amountValue, linkHost, offerSchema } from '../../src/features/admin/offers/offerSchema';
import { refusedField } from '../../src/features/admin/sellers/refusedField';
import {
  emptySeller,
  SELLER_FIELDS,
  sellerSchema,
  siteOrigin,
  taggedExample,
} from '../../src/features/admin/sellers/sellerSchema';
import { settingsSchema } from '../../src/features/admin/settings/settingsSchema';

const issues = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

const dbError = (code: string, message: string, hint: string | null = null) =>
  new DbError({ code, message, hint: hint ?? '', details: '', name: 'PostgrestError' } as never);

describe('seller form', () => {
  const seller = { ...emptySeller, name: 'Sports Direct', site: 'https://www.sportsdirect.com' };

  it('wants both affiliate parts or neither, in characters a query string carries', () => {
    expect(sellerSchema.safeParse(seller).success).toBe(true);
    expect(issues(sellerSchema.safeParse({ ...seller, affiliate_param: 'tag' }))).toEqual({
      affiliate_value: texts.sellers.bothOrNeither,
    });
    expect(
      issues(sellerSchema.safeParse({ ...seller, affiliate_param: 'a b', affiliate_value: 'x' })),
    ).toEqual({ affiliate_param: texts.sellers.paramInvalid });
    expect(
      issues(
        sellerSchema.safeParse({
          ...seller,
          affiliate_param: 'x'.repeat(41),
          affiliate_value: 'v',
        }),
      ),
    ).toEqual({ affiliate_param: texts.sellers.paramInvalid });
    expect(
      issues(sellerSchema.safeParse({ ...seller, affiliate_param: 'tag', affiliate_value: 'a&b' })),
    ).toEqual({ affiliate_value: texts.sellers.valueInvalid });
  });

  it('keeps the site as its origin and previews a tagged link', () => {
    expect(siteOrigin('https://www.sportsdirect.com/football/')).toBe(
      'https://www.sportsdirect.com',
    );
    expect(taggedExample('https://www.sportsdirect.com/x', 'tag', 'mar-21')).toBe(
      'https://www.sportsdirect.com/product?tag=mar-21',
    );
    expect(taggedExample('https://www.sportsdirect.com', 'tag', '')).toBeNull();
    expect(issues(sellerSchema.safeParse({ ...seller, site: 'sportsdirect.com' }))).toEqual({
      site: texts.sellers.siteInvalid,
    });
  });

  it("finds the field a database refusal names: the hint, or the constraint's column", () => {
    const unique = dbError(
      '23505',
      'duplicate key value violates unique constraint "sellers_host_key"',
    );
    expect(refusedField(unique, SELLER_FIELDS, { host: 'site' })).toBe('site');
    const name = dbError(
      '23505',
      'duplicate key value violates unique constraint "sellers_name_folded_key"',
    );
    expect(refusedField(name, SELLER_FIELDS, { host: 'site' })).toBe('name');
    const check = dbError(
      '23514',
      'new row for relation "sellers" violates check constraint "sellers_affiliate_check"',
    );
    expect(refusedField(check, SELLER_FIELDS)).toBeNull();
    expect(refusedField(dbError('23514', 'Too long', 'network'), SELLER_FIELDS)).toBe('network');
    expect(refusedField(new Error('offline'), SELLER_FIELDS)).toBeNull();
  });
});

describe('offer form', () => {
  const offer = {
    seller_id: 's1',
    link: 'https://shop.example.com/x',
    price_gbp: '',
    delivery_gbp: '',
    availability: '' as const,
  };

  it('takes amounts in pounds, empty as not known', () => {
    expect(
      offerSchema.safeParse({ ...offer, price_gbp: '£1,234.50', delivery_gbp: '0' }).success,
    ).toBe(true);
    expect(issues(offerSchema.safeParse({ ...offer, price_gbp: '12.345' }))).toEqual({
      price_gbp: texts.offerPanel.amountInvalid,
    });
    expect(issues(offerSchema.safeParse({ ...offer, delivery_gbp: '-1' }))).toEqual({
      delivery_gbp: texts.offerPanel.amountInvalid,
    });
    expect(amountValue('£1,234.50')).toBe(1234.5);
    expect(amountValue(' ')).toBeNull();
    expect(linkHost('https://WWW.Shop.example.com:8443/x')).toBe('shop.example.com');
  });

  it('judges freshness as the store does, and says how long ago', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    const limits = { staleDays: 7, hiddenDays: 30 };
    const at = (days: number) => new Date(now - days * 86_400_000).toISOString();
    const o = (price_gbp: number | null, confirmed: string | null) =>
      ({ price_gbp, price_confirmed_at: confirmed }) as never;
    expect(staleness(o(10, at(6)), limits, now)).toBeNull();
    expect(staleness(o(10, at(8)), limits, now)).toBe('stale');
    expect(staleness(o(10, at(31)), limits, now)).toBe('hidden');
    expect(staleness(o(10, null), limits, now)).toBe('hidden');
    expect(staleness(o(null, null), limits, now)).toBeNull();
    expect(ago(at(10), now)).toBe('10 days ago');
    expect(ago(new Date(now - 30_000).toISOString(), now)).toBe('now');
  });
});

describe('freshness settings', () => {
  const base = Object.fromEntries(Object.keys(settingsSchema.shape).map((k) => [k, '']));
  const settings = (stale: string, hidden: string) => ({
    ...base,
    store_name: 'MAR',
    contact_email: 'shop@example.co.uk',
    disclosure_text: 'Ad',
    price_stale_after_days: stale,
    price_hidden_after_days: hidden,
    admins_require_mfa: false,
  });

  it("stale 1..365 days, hidden from the stale days up to 3650, in the database's words", () => {
    expect(settingsSchema.safeParse(settings('7', '30')).success).toBe(true);
    expect(settingsSchema.safeParse(settings('365', '3650')).success).toBe(true);
    expect(issues(settingsSchema.safeParse(settings('0', '30')))).toEqual({
      price_stale_after_days: texts.freshness.staleInvalid,
    });
    expect(issues(settingsSchema.safeParse(settings('7.5', '30')))).toEqual({
      price_stale_after_days: texts.freshness.staleInvalid,
    });
    expect(issues(settingsSchema.safeParse(settings('10', '9')))).toEqual({
      price_hidden_after_days: texts.freshness.hiddenInvalid,
    });
    expect(issues(settingsSchema.safeParse(settings('10', '3651')))).toEqual({
      price_hidden_after_days: texts.freshness.hiddenInvalid,
    });
  });
});
