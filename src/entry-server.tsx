// Build-time pre-rendering (scripts/vite-plugins/prerender.ts builds this for Node and calls `render`):
// the public pages are written as HTML so a visitor sees them before any JavaScript has run,
// and app/start.tsx hydrates them. Not part of the browser bundle.
import { prerender } from 'react-dom/static';
import { matchRoutes, MemoryRouter, StaticRouter } from 'react-router-dom';
import { AppProviders } from './app/AppProviders';
import { documentTitle, type RouteHandle } from './routing/RouteMeta';
import { AppRoutes, routes } from './app/router';
import {
  CARD_KIND_ATTRIBUTE,
  CARD_TEMPLATE_ID,
  CARD_TOKENS,
} from './features/storefront/earlyFirstPage';
import { ProductGrid } from './features/storefront/ProductGrid';
import type { CardProduct } from './lib/domain/tables';

export { PRERENDERED_ATTRIBUTE, PRERENDERED_ROUTES } from './routing/prerender';
export { storeSettings } from './lib/infra/storeSettings';
export { renderStorefrontContentWith, STOREFRONT_CONTENT_ID } from './lib/infra/storefrontContent';

export interface RenderedPage {
  /** Markup for #root. */
  html: string;
  title: string;
  description: string;
}

/** Renders one route (a path such as `/contact`) with everything its lazy parts need. */
export async function render(pathname: string): Promise<RenderedPage> {
  // A route whose code fails to load (or throws) must stop the build, not be written out as the
  // error page.
  const failures: unknown[] = [];
  // prerender (not renderToString) waits for lazy pages, so the HTML is complete.
  // The web-streams variant: the app's tsconfig has no Node types, and Node 20 has web streams.
  const { prelude } = await prerender(
    <AppProviders>
      <StaticRouter location={pathname}>
        <AppRoutes />
      </StaticRouter>
    </AppProviders>,
    { onError: (error) => void failures.push(error) },
  );
  if (failures.length) {
    const [first] = failures;
    throw new Error(`${pathname}: ${first instanceof Error ? first.stack : String(first)}`);
  }
  const handle = [...(matchRoutes(routes, pathname) ?? [])]
    .reverse()
    .map((m) => m.route.handle as RouteHandle | undefined)
    .find((h) => h?.meta);
  if (!handle) throw new Error(`${pathname}: no route meta`);
  const meta = typeof handle.meta === 'function' ? handle.meta(new URLSearchParams()) : handle.meta;
  return {
    html: await new Response(prelude).text(),
    title: documentTitle(meta),
    description: meta.description,
  };
}

/**
 * The <template> the home page's early script draws its cards from (earlyFirstPage.ts): the
 * product grid as React renders it, with two cards whose values are stand-ins, one with a seller
 * link and one without.
 */
export async function renderCardTemplates(): Promise<string> {
  const sample = (id: string, link: string): CardProduct => ({
    id,
    title: CARD_TOKENS.title,
    slug: CARD_TOKENS.slug,
    price: CARD_TOKENS.price,
    price_value: null,
    cat: CARD_TOKENS.cat,
    com: CARD_TOKENS.com,
    image: CARD_TOKENS.image,
    link,
  });
  const { prelude } = await prerender(
    <AppProviders>
      <MemoryRouter>
        <ProductGrid products={[sample('link', CARD_TOKENS.link), sample('no-link', '')]} />
      </MemoryRouter>
    </AppProviders>,
  );
  const html = await new Response(prelude).text();
  const grid = /<div[^>]*data-testid="product-grid"[^>]*>[\s\S]*<\/article><\/div>/.exec(html)?.[0];
  const cards = grid?.match(/<article[\s\S]*?<\/article>/g);
  if (!grid || cards?.length !== 2) throw new Error('card templates: no product grid rendered');
  // The samples have no note under the price; the token goes into its empty element.
  const note = /(data-testid="product-price-note"[^>]*>)(<\/p>)/g;
  if (grid.match(note)?.length !== 2) throw new Error('card templates: no price note');
  const kinds = ['link', 'no-link'];
  let n = 0;
  const marked = grid
    .replace(note, `$1${CARD_TOKENS.note}$2`)
    .replace(/<article/g, () => `<article ${CARD_KIND_ATTRIBUTE}="${kinds[n++]}"`);
  return `<template id="${CARD_TEMPLATE_ID}">${marked}</template>`;
}
