import { createBrowserRouter } from 'react-router-dom';
import { ContactPage } from '../features/contact/ContactPage';
import { ErrorPage } from '../features/pages/ErrorPage';
import { NotFoundPage } from '../features/pages/NotFoundPage';
import { HomePage } from '../features/storefront/HomePage';
import { Layout } from './Layout';

/**
 * Routes of the spec (section 2). Rarely visited or heavy pages are split into their own
 * chunks so a visitor's first load is the storefront alone.
 */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <ErrorPage />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/contact', element: <ContactPage /> },
      {
        path: '/about',
        lazy: async () => ({ Component: (await import('../features/pages/AboutPage')).AboutPage }),
      },
      {
        path: '/policy',
        lazy: async () => ({ Component: (await import('../features/pages/PolicyPage')).PolicyPage }),
      },
      {
        path: '/login',
        lazy: async () => ({ Component: (await import('../features/auth/LoginPage')).LoginPage }),
      },
      {
        path: '/admin',
        lazy: async () => ({ Component: (await import('../features/admin/AdminPage')).AdminPage }),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
