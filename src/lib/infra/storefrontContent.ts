import { useSyncExternalStore } from 'react';
import { fetchPublicRow, fetchSharedRow } from './storeSettings.ts';

/**
 * The owner's storefront content (public.storefront_content, one row; docs/decisions/0212): the
 * home banner's three slides and the About page's text, edited on the admin's Storefront tab. Like
 * the store settings (src/lib/infra/storeSettings.ts), the row is read once per page load with a plain
 * fetch (no client library on the storefront's first load). The build reads it too and the
 * pre-rendered home and About pages carry it as JSON (STOREFRONT_CONTENT_ID), so their first paint
 * already shows the owner's banner and text and hydration renders the same (docs/decisions/0190);
 * the fetch then only matters when the row changed after the build.
 */

/** The id of the <script type="application/json"> the pre-rendered pages carry the row in. */
export const STOREFRONT_CONTENT_ID = 'storefront-content';

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
  /** A path inside the store or a web address (REQ-PATH-7), or undefined: not a link. */
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

/**
 * A web address a slide may lead to (REQ-PATH-7), or undefined: http(s), a host, then a path,
 * query or fragment without spaces. The same rule as private.storefront_content_check.
 */
export function webAddress(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  return text.length <= 300 &&
    // eslint-disable-next-line no-control-regex
    /^https?:\/\/[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?([/?#][^\s\u0000-\u001f\u007f]*)?$/.test(
      text,
    )
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
      link: sitePath(row[`slide_${n}_link`]) ?? webAddress(row[`slide_${n}_link`]),
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

// The row as the page was rendered with: the build's (pre-rendering sets it; a pre-rendered page
// carries it), or null: the built-in defaults.
let rendered: StorefrontContentRow | null | undefined;

/** Pre-rendering: the row the build read (null: the defaults). */
export function renderStorefrontContentWith(row: StorefrontContentRow | null): void {
  rendered = row;
  current = row;
}

function renderedRow(): StorefrontContentRow | null {
  if (rendered !== undefined) return rendered;
  rendered = null;
  if (typeof document === 'undefined') return rendered;
  const json = document.getElementById(STOREFRONT_CONTENT_ID)?.textContent;
  try {
    if (json) rendered = JSON.parse(json) as StorefrontContentRow;
  } catch {
    rendered = null; // A damaged embed: the defaults, then the fetched row.
  }
  return rendered;
}

// The row shown now: the rendered one until the fetched one has arrived.
let current: StorefrontContentRow | null = renderedRow();
let requested = false;
const listeners = new Set<() => void>();

function load() {
  if (requested || typeof window === 'undefined') return;
  requested = true;
  fetchSharedRow<StorefrontContentRow>('storefront_content', '*').then(
    (row) => updateStorefrontContent(row),
    (error: unknown) => {
      console.error('Loading the storefront content failed', error);
    },
  );
}

/** Shows a row at once (the Storefront tab after a save, and the fetch above). */
export function updateStorefrontContent(row: StorefrontContentRow): void {
  // The row as the page already shows it: nothing to draw again (the banner would re-render in
  // one long task after every page load).
  if (JSON.stringify(row) === JSON.stringify(current)) return;
  current = row;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  load();
  return () => listeners.delete(listener);
}

/**
 * The stored row for rendering, or null (use the defaults). Hydration renders the row the page
 * was pre-rendered with; React re-renders with the fetched row if it differs.
 */
export function useStorefrontContent(): StorefrontContentRow | null {
  return useSyncExternalStore(subscribe, () => current, renderedRow);
}
