// Build-time pre-rendering (scripts/vite-plugins/prerender.ts builds this for Node and calls `render`):
// the public pages are written as HTML so a visitor sees them before any JavaScript has run,
// and app/start.tsx hydrates them. Not part of the browser bundle.
import { prerender } from 'react-dom/static';
import {
  createStaticHandler,
  createStaticRouter,
  MemoryRouter,
  StaticRouterProvider,
} from 'react-router-dom';
import { AppProviders } from './app/AppProviders';
import { documentTitle, type RouteHandle } from './routing/RouteMeta';
import { routes } from './app/router';
import {
  CARD_KIND_ATTRIBUTE,
  CARD_TEMPLATE_ID,
  CARD_TOKENS,
} from './features/storefront/earlyFirstPage';
import { ProductGrid } from './features/storefront/ProductGrid';
import type { StoreProduct } from './lib/domain/tables';

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
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${pathname}: the router answered a redirect`);
  // A route whose code failed to load would be written out as the error page: stop the build.
  if (context.errors) {
    const [first] = Object.values(context.errors) as unknown[];
    throw new Error(`${pathname}: ${first instanceof Error ? first.stack : String(first)}`);
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  // prerender (not renderToString) waits for lazy components, so the HTML is complete.
  // The web-streams variant: the app's tsconfig has no Node types, and Node 20 has web streams.
  const { prelude } = await prerender(
    <AppProviders>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
  const handle = [...context.matches]
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
  const sample = (id: string, link: string): StoreProduct => ({
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
  const kinds = ['link', 'no-link'];
  let n = 0;
  const marked = grid.replace(/<article/g, () => `<article ${CARD_KIND_ATTRIBUTE}="${kinds[n++]}"`);
  return `<template id="${CARD_TEMPLATE_ID}">${marked}</template>`;
}
