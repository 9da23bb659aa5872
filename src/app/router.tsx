import { use, type ComponentType } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { ErrorBoundary } from '../features/pages/ErrorBoundary';
import { NotFoundPage } from '../features/pages/NotFoundPage';
import { CATEGORY_PARAM, HomePage } from '../features/storefront/HomePage';
import { texts } from '../texts';
import { Layout } from './Layout';
import { RouteMeta, type RouteHandle } from '../routing/RouteMeta';
import { paths } from '../routing/paths';

/** A route of the app: `preload` fetches the code of a page that comes in a chunk of its own. */
type AppRoute = RouteObject & { preload?: () => Promise<unknown>; children?: AppRoute[] };

/**
 * A page in a chunk of its own (REQ-WEIGHT-2): its code is fetched when the route is first
 * rendered (a navigation is a transition, so the page shown stays until it arrives) or, for the
 * URL the app starts on, before the first render (preloadRoutes), so hydration finds the page.
 */
function lazyPage(load: () => Promise<ComponentType>): Pick<AppRoute, 'element' | 'preload'> {
  let code: Promise<ComponentType> | undefined;
  let Loaded: ComponentType | undefined;
  const preload = () =>
    (code ??= load().then((component) => {
      Loaded = component;
      return component;
    }));
  function Page() {
    // `use` suspends until the code is there (a failed download goes to the ErrorBoundary).
    const Component = Loaded ?? use(preload());
    return <Component />;
  }
  return { element: <Page />, preload };
}

const meta = (title: string | undefined, description: string): RouteHandle => ({
  meta: { title, description },
});

const homeHandle: RouteHandle = {
  // A shared category link gets the category in its title.
  meta: (search) => ({
    title: search.get(CATEGORY_PARAM)?.trim() || undefined,
    description: texts.meta.home,
  }),
};

/**
 * Routes of REQ-NAV-5 and REQ-NAV-7. Rarely visited or heavy pages are split into their own
 * chunks so a visitor's first load is the storefront alone. Each route's `handle` gives its
 * document title and meta description (see RouteMeta). The browser router (app/start.tsx) and the
 * build-time pre-rendering (entry-server.tsx) share them.
 */
export const routes: AppRoute[] = [
  {
    element: <Layout />,
    children: [
      { path: paths.home, element: <HomePage />, handle: homeHandle },
      {
        path: paths.contact,
        handle: meta(texts.nav.contact, texts.meta.contact),
        // The form stack (react-hook-form, zod) is only needed here.
        ...lazyPage(async () => (await import('../features/contact/ContactPage')).ContactPage),
      },
      {
        path: paths.about,
        handle: meta(texts.pages.aboutHeading, texts.meta.about),
        ...lazyPage(async () => (await import('../features/pages/AboutPage')).AboutPage),
      },
      {
        path: paths.policy,
        handle: meta(texts.pages.policyHeading, texts.meta.policy),
        ...lazyPage(async () => (await import('../features/pages/PolicyPage')).PolicyPage),
      },
      {
        path: paths.howWeEarn,
        handle: meta(texts.howWeEarn.heading, texts.howWeEarn.meta),
        ...lazyPage(async () => (await import('../features/pages/HowWeEarnPage')).HowWeEarnPage),
      },
      {
        // A product's page: no route meta (the page sets its own head from the product).
        path: paths.product,
        ...lazyPage(async () => {
          const { ProductPage } = await import('../features/storefront/product/ProductPage');
          return () => <ProductPage notFound={<NotFoundPage />} />;
        }),
      },
      {
        path: paths.login,
        handle: meta(texts.login.heading, texts.meta.login),
        ...lazyPage(async () => (await import('../features/auth/LoginPage')).LoginPage),
      },
      {
        path: paths.forgotPassword,
        handle: meta(texts.passwordReset.requestHeading, texts.passwordReset.metaRequest),
        ...lazyPage(
          async () => (await import('../features/auth/ForgotPasswordPage')).ForgotPasswordPage,
        ),
      },
      {
        path: paths.resetPassword,
        handle: meta(texts.passwordReset.setHeading, texts.passwordReset.metaSet),
        ...lazyPage(
          async () => (await import('../features/auth/ResetPasswordPage')).ResetPasswordPage,
        ),
      },
      {
        path: paths.admin,
        handle: meta(texts.admin.heading, texts.meta.admin),
        ...lazyPage(async () => (await import('../features/admin/AdminPage')).AdminPage),
      },
      {
        path: '*',
        element: <NotFoundPage />,
        handle: meta(texts.notFound.title, texts.meta.notFound),
      },
    ],
  },
];

/** Fetches the code of the pages `pathname` shows, before the app's first render (start.tsx). */
export async function preloadRoutes(pathname: string): Promise<void> {
  await Promise.all((matchRoutes(routes, pathname) ?? []).map(({ route }) => route.preload?.()));
}

/** The deepest matched route's title and description (RouteMeta). */
function routeHandle(matches: ReturnType<typeof matchRoutes<AppRoute>>): RouteHandle | undefined {
  return [...(matches ?? [])].reverse().find((m) => m.route.handle?.meta)?.route.handle as
    RouteHandle | undefined;
}

/**
 * The routes under the declarative router (<BrowserRouter> in start.tsx, <StaticRouter> in
 * entry-server.tsx): the data router's extra code (loaders, actions, fetchers) cost the home
 * page about 15 kB gzip it never used (decision 0258).
 */
export function AppRoutes() {
  const location = useLocation();
  // No location argument: with one, useRoutes tells the pages every navigation was a POP, and a
  // product page opened from a listing would keep the listing's scroll position (REQ-PATH-1).
  const element = useRoutes(routes);
  return (
    <ErrorBoundary pathname={location.pathname}>
      <RouteMeta handle={routeHandle(matchRoutes(routes, location))} />
      {element}
    </ErrorBoundary>
  );
}
