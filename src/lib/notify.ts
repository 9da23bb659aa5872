import type { NotificationData } from '@mantine/notifications';
import { constants } from '../texts';

// @mantine/notifications (container, transitions, store) is loaded after the first paint, as
// AppProviders mounts its container lazily; a toast raised earlier waits for it. The module is
// fetched once and cached, and toasts keep the order in which they were raised.
function show(data: NotificationData) {
  import('@mantine/notifications').then(
    (m) => m.notifications.show(data),
    (error: unknown) => console.error('Showing a notification failed', data.message, error),
  );
}

/**
 * The spec's toasts: success lasts 2 s, error 4 s (the container limits them to 20).
 * Toasts render in Mantine's notification container, which is an ARIA live region.
 */
export const notify = {
  success(message: string) {
    show({ message, color: 'green', autoClose: constants.toastSuccessMs });
  },
  error(message: string) {
    show({ message, color: 'red', autoClose: constants.toastErrorMs });
  },
};
