import { describe, expect, it } from 'vitest';
import { readStoreSettings } from '../../src/lib/storeSettings';

describe('readStoreSettings', () => {
  it('uses the defaults when nothing is configured, and no placeholder social page', () => {
    expect(readStoreSettings({})).toEqual({
      name: 'MAR Online Store UK',
      contactEmail: 'privacy@mar-online-store.co.uk',
      socialUrl: undefined,
      siteUrl: undefined,
    });
  });

  it('takes the configured values, trimmed, and the site address without a trailing slash', () => {
    expect(
      readStoreSettings({
        VITE_STORE_NAME: ' Sports Corner ',
        VITE_STORE_EMAIL: 'hello@sports.example',
        VITE_SOCIAL_URL: 'https://social.example/sports',
        VITE_SITE_URL: 'https://shop.example/',
      }),
    ).toEqual({
      name: 'Sports Corner',
      contactEmail: 'hello@sports.example',
      socialUrl: 'https://social.example/sports',
      siteUrl: 'https://shop.example',
    });
  });

  it('ignores an address that is not http(s) rather than linking to it', () => {
    const settings = readStoreSettings({
      VITE_SOCIAL_URL: 'javascript:alert(1)',
      VITE_SITE_URL: 'not a url',
    });
    expect(settings.socialUrl).toBeUndefined();
    expect(settings.siteUrl).toBeUndefined();
  });
});
