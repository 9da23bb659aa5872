import { useSyncExternalStore } from 'react';
import { CATALOGUE_API } from './catalogueApiPath.ts';
import { DEFAULT_FRESHNESS_LIMITS, type FreshnessLimits } from '../domain/offerPrice.ts';

/**
 * The store's own details in ONE place: its name, contact e-mail, public address, social pages
 * ("Follow us"), the Buy Now disclosure text and who runs the shop (E-Commerce Regulations 2002
 * reg. 6). They live in the database (public.store_settings, one row; docs/decisions/0211) and
 * admins edit them on the Settings tab. The pre-rendered HTML is built with the row as the build
 * read it; the SPA reads the row once per page load and shows it after the first render, so a
 * change shows on the next page load without a rebuild (pre-rendered HTML: at the next build).
 */
const value = (raw: unknown): string | undefined =>
  typeof raw === 'string' && raw.trim() ? raw.trim() : undefined;

/** An absolute http(s) address, or undefined (a typo must not become a broken or unsafe link). */
export function httpUrl(raw: unknown): string | undefined {
  const text = value(raw);
  if (!text) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The social networks the store can link to, in the order "Follow us" lists them. */
export const SOCIAL_NETWORKS = ['instagram', 'facebook', 'x', 'tiktok', 'youtube'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

export interface StoreSettings {
  /** The trading name, as used in running text and `og:site_name`. */
  name: string;
  /** Where visitors write (Privacy Policy, who runs the shop). */
  contactEmail: string;
  /** The public address without a trailing slash. Unset: where the page was loaded from. */
  siteUrl: string | undefined;
  /** The configured social pages, in SOCIAL_NETWORKS order (none: no "Follow us" links). */
  social: { network: SocialNetwork; url: string }[];
  /** The Buy Now disclosure ("Ad: …"). */
  disclosure: string;
  /** Who runs the shop; each part shown only when set. */
  trader: { name?: string; address?: string; companyNumber?: string; vatNumber?: string };
  /** When an offer's price is old (REQ-OFF-3): noted after `staleDays`, no number after `hiddenDays`. */
  priceLimits: FreshnessLimits;
}

export const DEFAULT_DISCLOSURE =
  'Ad: we earn a commission from the seller when you buy through our links. It does not change the price you pay.';

/** The built-in defaults: what a build that could not read the row shows until the row arrives. */
export function readStoreSettings(buildEnv: Record<string, unknown>): StoreSettings {
  return {
    name: 'MAR Online Store UK',
    contactEmail: 'privacy@mar-online-store.co.uk',
    // VITE_SITE_URL stays: the sitemap and canonical URLs of a build need an address.
    siteUrl: httpUrl(buildEnv.VITE_SITE_URL)?.replace(/\/+$/, ''),
    social: [],
    disclosure: DEFAULT_DISCLOSURE,
    trader: {},
    priceLimits: DEFAULT_FRESHNESS_LIMITS,
  };
}

/** public.store_settings as the API returns it (the columns STORE_SETTINGS_COLUMNS lists). */
export interface StoreSettingsRow {
  store_name: string;
  contact_email: string;
  site_url: string | null;
  instagram_url: string | null;
  facebook_url: string | null;
  x_url: string | null;
  tiktok_url: string | null;
  youtube_url: string | null;
  disclosure_text: string;
  trader_name: string | null;
  trader_address: string | null;
  company_number: string | null;
  vat_number: string | null;
  price_stale_after_days: number;
  price_hidden_after_days: number;
}

export const STORE_SETTINGS_COLUMNS =
  'store_name,contact_email,site_url,instagram_url,facebook_url,x_url,tiktok_url,youtube_url,' +
  'disclosure_text,trader_name,trader_address,company_number,vat_number,' +
  'price_stale_after_days,price_hidden_after_days';

/** A whole number of days, or undefined (a row from before the column existed). */
const days = (raw: unknown): number | undefined =>
  typeof raw === 'number' && Number.isInteger(raw) && raw > 0 ? raw : undefined;

/** The row as settings; the database checked the values, links are checked again here. */
export function settingsFromRow(row: StoreSettingsRow, fallback: StoreSettings): StoreSettings {
  return {
    name: value(row.store_name) ?? fallback.name,
    contactEmail: value(row.contact_email) ?? fallback.contactEmail,
    siteUrl: httpUrl(row.site_url)?.replace(/\/+$/, '') ?? fallback.siteUrl,
    social: SOCIAL_NETWORKS.flatMap((network) => {
      const url = httpUrl(row[`${network}_url`]);
      return url ? [{ network, url }] : [];
    }),
    disclosure: value(row.disclosure_text) ?? fallback.disclosure,
    trader: {
      name: value(row.trader_name),
      address: value(row.trader_address),
      companyNumber: value(row.company_number),
      vatNumber: value(row.vat_number),
    },
    priceLimits: {
      staleDays: days(row.price_stale_after_days) ?? fallback.priceLimits.staleDays,
      hiddenDays: days(row.price_hidden_after_days) ?? fallback.priceLimits.hiddenDays,
    },
  };
}

/**
 * One row of a one-row table everyone reads (store_settings, storefront_content), with the anon
 * key: one GET. Plain fetch, so the storefront's first load carries no client library for it.
 */
export async function fetchPublicRow<T>(
  supabaseUrl: string,
  anonKey: string,
  table: string,
  select: string,
): Promise<T> {
  const response = await fetch(`${supabaseUrl}/rest/v1/${table}?select=${select}&id=eq.true`, {
    headers: {
      apikey: anonKey,
      Authorization: `Bearer ${anonKey}`,
      Accept: 'application/vnd.pgrst.object+json',
    },
    credentials: 'omit',
  });
  if (!response.ok) throw new Error(`${table}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/**
 * The same row as the storefront reads it: through the site's own /api/catalogue, no key and no
 * cookies, so a CDN shares one copy for every visitor (REQ-CDN-1); a change shows within the
 * cache's bound (docs/cdn.md), and at once for the admin who saved it (updateStoreSettings).
 */
export async function fetchSharedRow<T>(table: string, select: string): Promise<T> {
  const response = await fetch(
    `${location.origin}${CATALOGUE_API}/${table}?select=${select}&id=eq.true`,
    { headers: { Accept: 'application/vnd.pgrst.object+json' }, credentials: 'omit' },
  );
  if (!response.ok) throw new Error(`${table}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** Reads the row with the anon key (the SPA, the host function per request, tests). */
export function fetchStoreSettingsRow(
  supabaseUrl: string,
  anonKey: string,
): Promise<StoreSettingsRow> {
  return fetchPublicRow(supabaseUrl, anonKey, 'store_settings', STORE_SETTINGS_COLUMNS);
}

/**
 * The row as the build read it (vite.config.ts defines it, scripts/vite-plugins/build-store-settings.ts reads
 * it): the browser bundle and the pre-rendered HTML get the same values, so hydration matches and
 * visitors without JavaScript see Follow us and who runs the shop as of the last build.
 * Undefined outside Vite (Node, unit tests); null when the build could not read the row.
 */
declare const __STORE_SETTINGS_ROW__: StoreSettingsRow | null | undefined;
const buildRow: StoreSettingsRow | null =
  typeof __STORE_SETTINGS_ROW__ === 'undefined' ? null : __STORE_SETTINGS_ROW__;

// `import.meta.env` is Vite's; Node (the browser tests import this module) has none.
/** The build's defaults (pre-rendering, and anything outside React). */
export const storeSettings: StoreSettings = (() => {
  const builtIn = readStoreSettings((import.meta.env as Record<string, unknown> | undefined) ?? {});
  return buildRow ? settingsFromRow(buildRow, builtIn) : builtIn;
})();

// The live settings: the build's defaults until the database's row has arrived.
let current = storeSettings;
let requested = false;
const listeners = new Set<() => void>();

function load() {
  if (requested || typeof window === 'undefined') return;
  requested = true;
  fetchSharedRow<StoreSettingsRow>('store_settings', STORE_SETTINGS_COLUMNS).then(
    (row) => updateStoreSettings(row),
    (error: unknown) => {
      // The defaults stay; the next page load tries again.
      console.error('Loading the store settings failed', error);
    },
  );
}

/**
 * `next`, with each part that equals the same part of `prev` taken from `prev`; `prev` itself when
 * nothing changed. A component reading a part that did not change then does not render again: a
 * row that arrives as the build had it re-rendered every product card, one long task on a phone.
 */
export function shareUnchanged(next: StoreSettings, prev: StoreSettings): StoreSettings {
  let changed = false;
  const shared: Record<string, unknown> = { ...next };
  for (const key of Object.keys(next) as (keyof StoreSettings)[]) {
    if (JSON.stringify(next[key]) === JSON.stringify(prev[key])) shared[key] = prev[key];
    else changed = true;
  }
  return changed ? (shared as unknown as StoreSettings) : prev;
}

/** Shows a row at once (the Settings tab after a save, and the fetch above). */
export function updateStoreSettings(row: StoreSettingsRow): void {
  const next = shareUnchanged(settingsFromRow(row, storeSettings), current);
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  load();
  return () => listeners.delete(listener);
}

/**
 * The settings for rendering. Hydration renders the build's defaults (the server snapshot), as
 * the pre-rendered HTML has them, and React re-renders with the row once it is there: no
 * hydration mismatch (docs/decisions/0190).
 */
export function useStoreSettings(): StoreSettings {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => storeSettings,
  );
}

/**
 * One part of the settings for rendering: the component renders again only when that part
 * changes (every product card reads the price limits; the listing's disclosure line the text).
 */
export function useStoreSetting<K extends keyof StoreSettings>(key: K): StoreSettings[K] {
  return useSyncExternalStore(
    subscribe,
    () => current[key],
    () => storeSettings[key],
  );
}

/** The settings as known now (outside React: the document's meta tags). */
export function currentStoreSettings(): StoreSettings {
  return current;
}

/** The site's origin for absolute links: the configured address, else where the page runs. */
export function siteOrigin(): string {
  return current.siteUrl ?? (typeof window === 'undefined' ? '' : window.location.origin);
}
