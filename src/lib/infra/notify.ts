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

/**
 * A toast's id is its colour and text: the same message raised again while it shows is not
 * stacked again (REQ-PATH-11: 25 clicks on Add stacked 18 "Title is Required" over the table).
 */
function show(data: NotificationData) {
  const id = `${data.color}:${String(data.message)}`;
  withToasts((m) => {
    const { notifications, queue } = m.notificationsStore.getState();
    const shown = [...notifications, ...queue].find((n) => n.id === id);
    if (!shown) m.notifications.show({ ...data, id });
    // Raised again: its time starts again (Mantine restarts the timer when autoClose changes,
    // so it alternates by a millisecond).
    else if (typeof data.autoClose === 'number')
      m.notifications.update({
        ...data,
        id,
        autoClose: data.autoClose + (shown.autoClose === data.autoClose ? 1 : 0),
      });
  }, String(data.message));
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
