import { useSyncExternalStore } from 'react';
import { env } from './env';
import { fetchPublicRow } from './storeSettings';

/**
 * The owner's storefront content (public.storefront_content, one row; docs/decisions/0212): the
 * home banner's three slides and the About page's text, edited on the admin's Storefront tab. Like
 * the store settings (src/lib/infra/storeSettings.ts), the row is read once per page load with a plain
 * fetch (no client library on the storefront's first load) and shown after the first render; the
 * pre-rendered HTML and hydration show the built-in defaults (docs/decisions/0190).
 */

export const SLIDE_NUMBERS = [1, 2, 3] as const;
export type SlideNumber = (typeof SLIDE_NUMBERS)[number];
export type SlidePart = 'image' | 'alt' | 'heading' | 'text' | 'link';
export type SlideColumn = `slide_${SlideNumber}_${SlidePart}`;

/** public.storefront_content as the API returns it (the id and updated_at besides). */
export type StorefrontContentRow = Record<SlideColumn, string | null> & { about_text: string };

export interface Slide {
  image: string;
  alt: string;
  heading: string;
  text: string;
  /** A path inside the store, or undefined: the slide is not a link. */
  link?: string;
}

/**
 * A path of this site ("/about", "/?cat=Football"), or undefined: one leading slash and no second
 * one or backslash after it ("//host" and "/\host" are other sites), no spaces or control
 * characters. The same rule as private.storefront_content_check; a scheme such as "javascript:"
 * never starts with "/".
 */
export function sitePath(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  // eslint-disable-next-line no-control-regex
  return /^\/([^/\\\s\u0000-\u001f\u007f][^\\\s\u0000-\u001f\u007f]*)?$/.test(text) &&
    text.length <= 200
    ? text
    : undefined;
}

const text = (raw: unknown): string | undefined =>
  typeof raw === 'string' && raw.trim() ? raw.trim() : undefined;

/** The row's slides, each part checked again; a part that fails falls back to the default's. */
export function slidesFromRow(
  row: StorefrontContentRow | null,
  defaults: readonly Slide[],
): Slide[] {
  if (!row) return [...defaults];
  return defaults.map((fallback, i) => {
    const n = SLIDE_NUMBERS[i];
    if (!n) return fallback;
    // The database accepts only a site path or an upload's address (migration …2610).
    const image = text(row[`slide_${n}_image`]);
    // A stored picture comes with its stored description; the default's would not fit it.
    const picture = image
      ? { image, alt: text(row[`slide_${n}_alt`]) ?? '' }
      : { image: fallback.image, alt: fallback.alt };
    return {
      ...picture,
      heading: text(row[`slide_${n}_heading`]) ?? fallback.heading,
      text: text(row[`slide_${n}_text`]) ?? fallback.text,
      link: sitePath(row[`slide_${n}_link`]),
    };
  });
}

/** Reads the row with the anon key: one GET of one row (the SPA and tests). */
export function fetchStorefrontContentRow(
  supabaseUrl: string,
  anonKey: string,
): Promise<StorefrontContentRow> {
  return fetchPublicRow(supabaseUrl, anonKey, 'storefront_content', '*');
}

// The row once it has arrived; null: the built-in defaults (before, or when the read failed).
let current: StorefrontContentRow | null = null;
let requested = false;
const listeners = new Set<() => void>();

function load() {
  if (requested || typeof window === 'undefined') return;
  requested = true;
  let url: string, key: string;
  try {
    url = env.supabaseUrl;
    key = env.supabaseAnonKey;
  } catch {
    return; // A build without the Supabase settings: the defaults are all there is.
  }
  fetchStorefrontContentRow(url, key).then(
    (row) => updateStorefrontContent(row),
    (error: unknown) => {
      console.error('Loading the storefront content failed', error);
    },
  );
}

/** Shows a row at once (the Storefront tab after a save, and the fetch above). */
export function updateStorefrontContent(row: StorefrontContentRow): void {
  current = row;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  load();
  return () => listeners.delete(listener);
}

/**
 * The stored row for rendering, or null (use the defaults). Hydration renders null, as the
 * pre-rendered HTML has the defaults; React re-renders with the row once it is there.
 */
export function useStorefrontContent(): StorefrontContentRow | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
