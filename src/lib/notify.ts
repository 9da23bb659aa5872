import { notifications } from '@mantine/notifications';
import { constants } from '../texts';

/**
 * The spec's toasts: success lasts 2 s, error 4 s (the container limits them to 20).
 * Toasts render in Mantine's notification container, which is an ARIA live region.
 */
export const notify = {
  success(message: string) {
    notifications.show({ message, color: 'green', autoClose: constants.toastSuccessMs });
  },
  error(message: string) {
    notifications.show({ message, color: 'red', autoClose: constants.toastErrorMs });
  },
};
