// A public.store_settings row as the storefront reads it, for unit tests: no social page, no
// trader details, the database's default price limits; `changes` sets what a test is about.
import type { StoreSettingsRow } from '../../src/lib/infra/storeSettings';

export function storeSettingsRow(changes: Partial<StoreSettingsRow> = {}): StoreSettingsRow {
  return {
    store_name: 'MAR Online Store UK',
    contact_email: 'privacy@mar-online-store.co.uk',
    site_url: null,
    instagram_url: null,
    facebook_url: null,
    x_url: null,
    tiktok_url: null,
    youtube_url: null,
    disclosure_text: 'Ad: we earn a commission.',
    trader_name: null,
    trader_address: null,
    company_number: null,
    vat_number: null,
    price_stale_after_days: 7,
    price_hidden_after_days: 30,
    ...changes,
  };
}
