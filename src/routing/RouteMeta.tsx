import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { currentStoreSettings, siteOrigin, useStoreSettings } from '../lib/infra/storeSettings';
import { texts } from '../texts';
import { paths } from './paths';

export interface PageMeta {
  /** Page part of the title; the store name is appended. Omit for the store name alone. */
  title?: string;
  description: string;
}

/** A route's `handle`: static meta, or meta that depends on the query string (home category). */
export interface RouteHandle {
  meta: PageMeta | ((search: URLSearchParams) => PageMeta);
}

export function documentTitle(meta: Pick<PageMeta, 'title'>): string {
  return meta.title ? `${meta.title} | ${texts.brand.title}` : texts.brand.title;
}

/** Routes search engines must not index: the admin area and its sign-in page. */
const NOINDEX_PATHS: string[] = [paths.admin, paths.login];

/** Sets (or, with `content` null, removes) a <meta> found by its name or property attribute. */
function setMeta(attribute: 'name' | 'property', key: string, content: string | null) {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (content === null) {
    tag?.remove();
    return;
  }
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute(attribute, key);
    document.head.append(tag);
  }
  tag.content = content;
}

export function applyMeta(meta: PageMeta, pathname = window.location.pathname) {
  const title = documentTitle(meta);
  document.title = title;
  setMeta('name', 'description', meta.description);
  // Open Graph: what a shared link shows.
  setMeta('property', 'og:site_name', currentStoreSettings().name);
  setMeta('property', 'og:type', 'website');
  setMeta('property', 'og:title', title);
  setMeta('property', 'og:description', meta.description);
  // The configured public address (storeSettings), so a link shared from a preview host or a
  // mirror still names the store's own site.
  setMeta('property', 'og:url', siteOrigin() + pathname + window.location.search);
  setMeta('property', 'og:image', `${siteOrigin()}/logo.svg`);
  setMeta('property', 'og:locale', 'en_GB');
  const hidden = NOINDEX_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  setMeta('name', 'robots', hidden ? 'noindex, nofollow' : null);
}

/** Keeps the document title and meta description in step with the deepest matched route's handle. */
export function RouteMeta({ handle }: { handle: RouteHandle | undefined }) {
  const { pathname, search } = useLocation();
  // Re-applied when the store settings row arrives: og:site_name and og:url follow the owner's.
  const settings = useStoreSettings();

  useEffect(() => {
    if (!handle) return;
    const meta =
      typeof handle.meta === 'function' ? handle.meta(new URLSearchParams(search)) : handle.meta;
    applyMeta(meta, pathname);
  }, [handle, pathname, search, settings]);

  return null;
}
