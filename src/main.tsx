import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { lazy, startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { router } from './app/router';
import { cssVariablesResolver, theme } from './app/theme';
import { AuthProvider } from './features/auth/AuthProvider';
import { constants } from './texts';

// The toast container (and its transition code) loads after the first paint; toasts raised
// before it arrives wait in @mantine/notifications' store and show once it mounts.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing from index.html');

// A transition renders concurrently: React yields to the browser every few milliseconds
// instead of blocking the main thread for the whole first render (Total Blocking Time).
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="auto"
      >
        <Suspense fallback={null}>
          <Notifications limit={constants.toastLimit} position="top-right" />
        </Suspense>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
