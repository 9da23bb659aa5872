/// <reference types="vite/client" />
// The one way unit tests render components: inside the store's Mantine theme with the toast
// container, under a router. The DOM stubs Mantine needs come from setup.ts.
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { cleanup, render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import {
  createMemoryRouter,
  MemoryRouter,
  RouterProvider,
  type RouteObject,
} from 'react-router-dom';
import { afterEach } from 'vitest';
import { cssVariablesResolver, theme } from '../../src/app/theme';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications />
      {children}
    </MantineProvider>
  );
}

/** Renders `ui` at `route` under a plain router. */
export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  return render(
    <Providers>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </Providers>,
  );
}

/** Renders `routes` at `route` under a data router (route handles, error elements), as the app. */
export function renderRoutes(routes: RouteObject[], { route = '/' }: { route?: string } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  return render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
}

/** Makes `(prefers-reduced-motion: reduce)` match, as a visitor's OS setting would. */
export function preferReducedMotion(): void {
  const matchMedia = window.matchMedia;
  window.matchMedia = (query) =>
    query.includes('prefers-reduced-motion: reduce')
      ? { ...matchMedia(query), matches: true }
      : matchMedia(query);
}
