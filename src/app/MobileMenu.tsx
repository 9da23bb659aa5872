import { Drawer, type DrawerProps } from '@mantine/core';
import '../lib/ui/mantine-overlays.css';

/**
 * The phone navigation drawer. Kept in its own module and loaded on the first open: Drawer
 * brings Mantine's modal, scroll-area, focus-trap and positioning code, which the storefront
 * never needs on a wide screen or before the menu is used.
 */
export default function MobileMenu(props: DrawerProps) {
  return <Drawer {...props} />;
}
