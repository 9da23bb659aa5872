/**
 * The store's own details in ONE place: its name, contact address, social page and public
 * address. Set at build time through VITE_ env values (README "Store settings"); the defaults are
 * the store's current details. The footer, the Privacy Policy and the SEO tags (RouteMeta, the
 * pre-rendered HTML) read them here, never from their own copies.
 */
const value = (raw: unknown): string | undefined =>
  typeof raw === 'string' && raw.trim() ? raw.trim() : undefined;

/** An absolute http(s) address, or undefined (a typo must not become a broken or unsafe link). */
function httpUrl(raw: unknown): string | undefined {
  const text = value(raw);
  if (!text) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export interface StoreSettings {
  /** The trading name, as used in running text and `og:site_name`. */
  name: string;
  /** Where visitors write about their data (Privacy Policy). */
  contactEmail: string;
  /**
   * The store's social media page ("Follow us"). Undefined until configured: the footer then
   * shows no Follow us link rather than a placeholder.
   */
  socialUrl: string | undefined;
  /**
   * The public address of the site without a trailing slash (canonical URLs, `og:url`). Unset:
   * the address the page was loaded from.
   */
  siteUrl: string | undefined;
}

/** The settings from a set of VITE_ values (exported for the tests). */
export function readStoreSettings(env: Record<string, unknown>): StoreSettings {
  return {
    name: value(env.VITE_STORE_NAME) ?? 'MAR Online Store UK',
    contactEmail: value(env.VITE_STORE_EMAIL) ?? 'privacy@mar-online-store.co.uk',
    socialUrl: httpUrl(env.VITE_SOCIAL_URL),
    siteUrl: httpUrl(env.VITE_SITE_URL)?.replace(/\/+$/, ''),
  };
}

// `import.meta.env` is Vite's; Node (the browser tests import this module) has none.
export const storeSettings: StoreSettings = readStoreSettings(
  (import.meta.env as Record<string, unknown> | undefined) ?? {},
);

/** The site's origin for absolute links: the configured address, else where the page runs. */
export function siteOrigin(): string {
  return storeSettings.siteUrl ?? (typeof window === 'undefined' ? '' : window.location.origin);
}
