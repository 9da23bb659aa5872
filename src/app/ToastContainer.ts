// The toast container with its styles (decision 0258): the home page's stylesheet does not carry
// them, they come with the container AppProviders loads after the first paint.
import './toasts.css';

export { Notifications } from '@mantine/notifications';
