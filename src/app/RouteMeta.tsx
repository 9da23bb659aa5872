import { useEffect } from 'react';
import { useLocation, useMatches } from 'react-router-dom';
import { texts } from '../texts';

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

export function applyMeta(meta: PageMeta) {
  document.title = documentTitle(meta);
  let tag = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = 'description';
    document.head.append(tag);
  }
  tag.content = meta.description;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'meta' in handle;
}

/** Keeps the document title and meta description in step with the deepest matched route. */
export function RouteMeta() {
  const matches = useMatches();
  const { search } = useLocation();
  const handle = [...matches]
    .reverse()
    .map((m) => m.handle)
    .find(isRouteHandle);

  useEffect(() => {
    if (!handle) return;
    const meta =
      typeof handle.meta === 'function' ? handle.meta(new URLSearchParams(search)) : handle.meta;
    applyMeta(meta);
  }, [handle, search]);

  return null;
}
