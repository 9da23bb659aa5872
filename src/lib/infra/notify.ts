import type { NotificationData } from '@mantine/notifications';
import { constants } from '../../texts';

// @mantine/notifications (container, transitions, store) is loaded after the first paint, as
// AppProviders mounts its container lazily; a toast raised earlier waits for it. The module is
// fetched once and cached, and toasts keep the order in which they were raised.
function withToasts(action: (m: typeof import('@mantine/notifications')) => void, what: string) {
  import('@mantine/notifications').then(action, (error: unknown) =>
    console.error('Updating the notifications failed', what, error),
  );
}

const ERROR_COLOR = 'red';

function show(data: NotificationData) {
  withToasts((m) => m.notifications.show(data), String(data.message));
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
    show({ message, color: ERROR_COLOR, autoClose: constants.toastErrorMs });
  },
  /**
   * Removes the error toasts still shown or queued, e.g. an old "login failed" once the sign-in
   * succeeds: it no longer applies. Toasts raised after this call stay (same module promise,
   * so calls keep their order).
   */
  clearErrors() {
    withToasts(
      (m) =>
        m.notifications.updateState(m.notificationsStore, (list) =>
          list.filter((n) => n.color !== ERROR_COLOR),
        ),
      'clear errors',
    );
  },
};
