import {
  ActionIcon,
  Anchor,
  Box,
  Burger,
  Container,
  Group,
  Stack,
  Text,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../features/auth/AuthProvider';
import { useLogout } from '../features/auth/useLogout';
import { texts } from '../texts';
import classes from './Layout.module.css';
import { HeaderSearch } from './HeaderSearch';
import { FollowUs, TraderDetails } from '../lib/ui/StoreDetails';
import storeDetailsClasses from '../lib/ui/StoreDetails.module.css';
import { paths } from '../routing/paths';

// Loaded on the first tap on the burger (see MobileMenu).
const MobileMenu = lazy(() => import('./MobileMenu'));

interface NavItem {
  key: string;
  label: string;
  to?: string;
  onClick?: () => void;
}

/** The spec's navigation: Login only when signed out; Admin and Logout only when signed in. */
function useNavItems(): NavItem[] {
  const { session, loading } = useAuth();
  const logout = useLogout();
  const items: NavItem[] = [{ key: 'home', label: texts.nav.home, to: paths.home }];
  // While the stored session is being restored, show neither so the bar does not flicker.
  if (!loading && !session) items.push({ key: 'login', label: texts.nav.login, to: paths.login });
  if (!loading && session) items.push({ key: 'admin', label: texts.nav.admin, to: paths.admin });
  items.push({ key: 'contact', label: texts.nav.contact, to: paths.contact });
  if (!loading && session)
    items.push({ key: 'logout', label: texts.nav.logout, onClick: () => void logout() });
  return items;
}

function NavItems({
  items,
  className,
  onNavigate,
}: {
  items: NavItem[];
  className?: string;
  onNavigate?: () => void;
}) {
  return items.map((item) =>
    item.to ? (
      <NavLink key={item.key} to={item.to} end className={className} onClick={onNavigate}>
        {item.label}
      </NavLink>
    ) : (
      <button
        key={item.key}
        type="button"
        className={className}
        onClick={() => {
          onNavigate?.();
          item.onClick?.();
        }}
      >
        {item.label}
      </button>
    ),
  );
}

/**
 * Light/dark switch. The scheme follows the system setting until the visitor chooses one here
 * (Mantine keeps the choice in local storage).
 */
function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: true });
  const dark = computed === 'dark';
  const label = dark ? texts.a11y.colorScheme.toLight : texts.a11y.colorScheme.toDark;
  return (
    <ActionIcon
      variant="default"
      size="lg"
      radius="md"
      aria-label={label}
      title={label}
      onClick={() => setColorScheme(dark ? 'light' : 'dark')}
    >
      {/* Both icons are in the page and CSS shows the one for the scheme in force, so the
          pre-rendered HTML is right before React knows the scheme (the label follows after). */}
      <Box component="span" className={classes.schemeIcon} lightHidden data-testid="icon-sun">
        {/* Sun: switch to light. */}
        <svg
          width="18"
          height="18"
          viewBox="0 0 24 24"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <circle cx="12" cy="12" r="4" />
          <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
        </svg>
      </Box>
      <Box component="span" className={classes.schemeIcon} darkHidden data-testid="icon-moon">
        {/* Moon: switch to dark. */}
        <svg
          width="18"
          height="18"
          viewBox="0 0 24 24"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        >
          <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" />
        </svg>
      </Box>
    </ActionIcon>
  );
}

function FooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} className={storeDetailsClasses.link}>
      {children}
    </Anchor>
  );
}

/** Common layout: navigation bar, main area (at least 80% of the viewport) and footer. */
export function Layout() {
  const [menuOpen, menu] = useDisclosure(false);
  // Mounted from the first open on, so later closes still animate.
  const [menuUsed, setMenuUsed] = useState(false);
  if (menuOpen && !menuUsed) setMenuUsed(true);
  const items = useNavItems();
  const { pathname } = useLocation();
  const burger = useRef<HTMLButtonElement>(null);
  // Escape, the close button or the overlay: focus goes back to the menu button. Mantine's own
  // return misses the first close, as the lazily loaded drawer mounts already open (REQ-PATH-4).
  const closeMenu = () => {
    menu.close();
    burger.current?.focus();
  };

  // A route change (also via back/forward) closes the mobile menu.
  useEffect(() => {
    menu.close();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `menu` handlers are stable
  }, [pathname]);

  return (
    // Plain elements rather than Mantine's AppShell (a fixed header and the main area are all this
    // layout uses of it; AppShell's navbar, aside and resizing code cost the home page 10 kB gzip).
    <div className={classes.shell}>
      {/* Without JavaScript the hash link still leads there; with it, focus moves too. */}
      <a
        href="#main"
        className={classes.skipLink}
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {texts.a11y.skipToContent}
      </a>
      <header className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
            <Link
              to={paths.home}
              className={classes.brand}
              aria-label={`${texts.brand.title} – ${texts.nav.home}`}
            >
              <img src="/logo.svg" alt="" width={40} height={40} />
              <span className={classes.brandText}>{texts.brand.title}</span>
            </Link>
            {/* Navigation and the colour-scheme toggle sit together on the right. */}
            <Group gap="sm" wrap="nowrap" className={classes.controls}>
              <Group component="nav" gap={4} visibleFrom="sm" aria-label={texts.a11y.mainNav}>
                <NavItems items={items} className={classes.link} />
              </Group>
              <HeaderSearch />
              <ColorSchemeToggle />
              <Burger
                ref={burger}
                opened={menuOpen}
                onClick={menu.toggle}
                hiddenFrom="sm"
                aria-label={menuOpen ? texts.storefront.menu.close : texts.storefront.menu.open}
                aria-expanded={menuOpen}
                aria-controls="mobile-menu"
              />
            </Group>
          </Group>
        </Container>
      </header>

      {menuUsed && (
        <Suspense fallback={null}>
          <MobileMenu
            id="mobile-menu"
            opened={menuOpen}
            onClose={closeMenu}
            position="right"
            size="min(20rem, 85vw)"
            title={texts.storefront.menu.title}
            hiddenFrom="sm"
            closeButtonProps={{ 'aria-label': texts.storefront.menu.close }}
          >
            <Stack component="nav" gap={4} aria-label={texts.a11y.mainNav}>
              <NavItems items={items} className={classes.drawerLink} onNavigate={menu.close} />
            </Stack>
          </MobileMenu>
        </Suspense>
      )}

      <main id="main" tabIndex={-1} className={classes.main}>
        <Container size="lg" py="md">
          <Outlet />
        </Container>
      </main>

      <footer className={classes.footer}>
        <Container size="lg">
          <Stack gap="sm" align="center">
            <Group component="nav" gap="lg" justify="center" aria-label={texts.a11y.footerNav}>
              <FooterLink to={paths.about}>{texts.nav.about}</FooterLink>
              <FooterLink to={paths.policy}>{texts.nav.policy}</FooterLink>
              <FooterLink to={paths.contact}>{texts.nav.contact}</FooterLink>
            </Group>
            <FollowUs />
            <TraderDetails />
            <Text size="sm" c="dimmed" ta="center">
              {texts.brand.footer}
            </Text>
          </Stack>
        </Container>
      </footer>
    </div>
  );
}
