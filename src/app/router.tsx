import type { RouteObject } from 'react-router-dom';
import { ErrorPage } from '../features/pages/ErrorPage';
import { NotFoundPage } from '../features/pages/NotFoundPage';
import { CATEGORY_PARAM, HomePage } from '../features/storefront/HomePage';
import { texts } from '../texts';
import { Layout } from './Layout';
import type { RouteHandle } from '../routing/RouteMeta';
import { paths } from '../routing/paths';

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
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <ErrorPage />,
    children: [
      { path: paths.home, element: <HomePage />, handle: homeHandle },
      {
        path: paths.contact,
        handle: meta(texts.nav.contact, texts.meta.contact),
        // The form stack (react-hook-form, zod) is only needed here.
        lazy: async () => ({
          Component: (await import('../features/contact/ContactPage')).ContactPage,
        }),
      },
      {
        path: paths.about,
        handle: meta(texts.pages.aboutHeading, texts.meta.about),
        lazy: async () => ({ Component: (await import('../features/pages/AboutPage')).AboutPage }),
      },
      {
        path: paths.policy,
        handle: meta(texts.pages.policyHeading, texts.meta.policy),
        lazy: async () => ({
          Component: (await import('../features/pages/PolicyPage')).PolicyPage,
        }),
      },
      {
        path: paths.howWeEarn,
        handle: meta(texts.howWeEarn.heading, texts.howWeEarn.meta),
        lazy: async () => ({
          Component: (await import('../features/pages/HowWeEarnPage')).HowWeEarnPage,
        }),
      },
      {
        // A product's page: no route meta (the page sets its own head from the product).
        path: paths.product,
        lazy: async () => {
          const { ProductPage } = await import('../features/storefront/product/ProductPage');
          return { Component: () => <ProductPage notFound={<NotFoundPage />} /> };
        },
      },
      {
        path: paths.login,
        handle: meta(texts.login.heading, texts.meta.login),
        lazy: async () => ({ Component: (await import('../features/auth/LoginPage')).LoginPage }),
      },
      {
        path: paths.forgotPassword,
        handle: meta(texts.passwordReset.requestHeading, texts.passwordReset.metaRequest),
        lazy: async () => ({
          Component: (await import('../features/auth/ForgotPasswordPage')).ForgotPasswordPage,
        }),
      },
      {
        path: paths.resetPassword,
        handle: meta(texts.passwordReset.setHeading, texts.passwordReset.metaSet),
        lazy: async () => ({
          Component: (await import('../features/auth/ResetPasswordPage')).ResetPasswordPage,
        }),
      },
      {
        path: paths.admin,
        handle: meta(texts.admin.heading, texts.meta.admin),
        lazy: async () => ({ Component: (await import('../features/admin/AdminPage')).AdminPage }),
      },
      {
        path: '*',
        element: <NotFoundPage />,
        handle: meta(texts.notFound.title, texts.meta.notFound),
      },
    ],
  },
];
