import { lazy, Suspense, type ReactNode } from 'react';
import { AuthProvider } from '../features/auth/AuthProvider';
import { constants } from '../texts';
import { StoreMantineProvider } from './StoreMantineProvider';
import { theme } from './theme';
import './darkScheme.css';

// The toast container (and its transition code) loads after the first paint; toasts raised
// before it arrives wait in @mantine/notifications' store and show once it mounts.
const Notifications = lazy(() =>
  import('./ToastContainer').then((m) => ({ default: m.Notifications })),
);

/**
 * Everything around the router, the same in the browser (start.tsx) and in the build-time
 * pre-render (entry-server.tsx): hydration needs both to produce identical markup.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    // Mantine's provider without its run-time CSS variables: they are in the first stylesheet
    // (app/mantineVariables.css, REQ-WEIGHT-5).
    <StoreMantineProvider theme={theme} defaultColorScheme="auto">
      <Suspense fallback={null}>
        {/* At the bottom: at the top they covered the logo, the menu button, the page heading
            and the admin tabs (REQ-FIND-8). */}
        <Notifications limit={constants.toastLimit} position="bottom-right" />
      </Suspense>
      <AuthProvider>{children}</AuthProvider>
    </StoreMantineProvider>
  );
}
