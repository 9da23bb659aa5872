// Build-time pre-rendering (scripts/vite-prerender.ts builds this for Node and calls `render`):
// the public pages are written as HTML so a visitor sees them before any JavaScript has run,
// and app/start.tsx hydrates them. Not part of the browser bundle.
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { AppProviders } from './app/AppProviders';
import { documentTitle, type RouteHandle } from './app/RouteMeta';
import { routes } from './app/router';

export { PRERENDERED_ATTRIBUTE, PRERENDERED_ROUTES } from './app/prerender';
export { storeSettings } from './lib/storeSettings';

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
