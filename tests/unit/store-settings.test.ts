import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DISCLOSURE,
  readStoreSettings,
  settingsFromRow,
  type StoreSettingsRow,
} from '../../src/lib/infra/storeSettings';
import { disclosureParts } from '../../src/lib/domain/disclosure';
import { texts } from '../../src/texts';

const row: StoreSettingsRow = {
  store_name: ' Sports Corner ',
  contact_email: 'hello@sports.example',
  site_url: 'https://shop.example/',
  instagram_url: 'https://www.instagram.com/sports',
  facebook_url: null,
  x_url: 'https://x.com/sports',
  tiktok_url: '',
  youtube_url: 'javascript:alert(1)',
  disclosure_text: 'Ad: we earn money.',
  trader_name: 'Sports Corner Ltd',
  trader_address: '1 High Street, Leeds',
  company_number: '01234567',
  vat_number: null,
  price_stale_after_days: 3,
  price_hidden_after_days: 14,
};

describe('store settings (docs/decisions/0211)', () => {
  it('builds with defaults and no placeholder social page; only the site address from the env', () => {
    expect(readStoreSettings({})).toEqual({
      name: 'MAR Online Store UK',
      contactEmail: 'privacy@mar-online-store.co.uk',
      siteUrl: undefined,
      social: [],
      disclosure: DEFAULT_DISCLOSURE,
      trader: {},
      // REQ-OFF-3: the database's defaults until the row is read.
      priceLimits: { staleDays: 7, hiddenDays: 30 },
    });
    expect(readStoreSettings({ VITE_SITE_URL: 'https://shop.example/' }).siteUrl).toBe(
      'https://shop.example',
    );
  });

  it('takes the database row, trimmed, social pages in order, no non-http(s) link', () => {
    expect(settingsFromRow(row, readStoreSettings({}))).toEqual({
      name: 'Sports Corner',
      contactEmail: 'hello@sports.example',
      siteUrl: 'https://shop.example',
      social: [
        { network: 'instagram', url: 'https://www.instagram.com/sports' },
        { network: 'x', url: 'https://x.com/sports' },
      ],
      disclosure: 'Ad: we earn money.',
      trader: {
        name: 'Sports Corner Ltd',
        address: '1 High Street, Leeds',
        companyNumber: '01234567',
        vatNumber: undefined,
      },
      priceLimits: { staleDays: 3, hiddenDays: 14 },
    });
  });

  it('ignores a site address that is not http(s) rather than linking to it', () => {
    const settings = readStoreSettings({ VITE_SITE_URL: 'not a url' });
    expect(settings.siteUrl).toBeUndefined();
  });
});

describe('disclosureParts', () => {
  it('keeps the "Ad" label whether or not the owner wrote it', () => {
    expect(disclosureParts('Ad: we earn a commission.')).toEqual({
      label: 'Ad',
      line: 'we earn a commission.',
    });
    expect(disclosureParts('  ad :  we are paid by sellers.')).toEqual({
      label: 'Ad',
      line: 'we are paid by sellers.',
    });
    expect(disclosureParts('We are paid by sellers.')).toEqual({
      label: 'Ad',
      line: 'We are paid by sellers.',
    });
  });

  it('falls back to the built-in line when only the label is left', () => {
    expect(disclosureParts('Ad:').line).toBe(texts.disclosure.line);
  });
});
