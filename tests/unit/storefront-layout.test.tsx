// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../src/adminTexts';
import { renderRoutes } from './render';

// The layout's collaborators are isolated: auth state and logout come from the auth feature,
// the settings from the store settings' hook (the database's row in the app).
const auth = vi.hoisted(() => ({ state: { loading: false, session: null as object | null } }));
const logout = vi.hoisted(() => vi.fn(async () => {}));
vi.mock('../../src/features/auth/AuthProvider', () => ({ useAuth: () => auth.state }));
vi.mock('../../src/features/auth/useLogout', () => ({ useLogout: () => logout }));
const settings = vi.hoisted(() => ({
  name: 'MAR Online Store UK',
  contactEmail: 'privacy@example.com',
  siteUrl: undefined,
  social: [{ network: 'instagram' as const, url: 'https://social.example.com/mar' }] as {
    network: 'instagram';
    url: string;
  }[],
  disclosure: 'Ad',
  trader: { name: 'Example Ltd', address: '1 High Street, Leeds', companyNumber: '01234567' },
}));
vi.mock('../../src/lib/infra/storeSettings', async (original) => ({
  ...(await original<typeof import('../../src/lib/infra/storeSettings')>()),
  useStoreSettings: () => settings,
}));

const { Layout } = await import('../../src/app/Layout');
const { RouteMeta } = await import('../../src/routing/RouteMeta');

function renderLayout() {
  // The app renders RouteMeta beside the layout with the matched route's handle (AppRoutes).
  return renderRoutes([
    {
      element: (
        <>
          <RouteMeta handle={{ meta: { description: 'Home page' } }} />
          <Layout />
        </>
      ),
      children: [{ path: '/', element: <p>home page</p> }],
    },
  ]);
}

const mainNav = () => within(screen.getByRole('banner')).getByRole('navigation', { name: 'Main' });

describe('<Layout />', () => {
  beforeEach(() => {
    logout.mockClear();
  });

  it('shows Home, Login and Contact Us to a visitor, plus the footer', () => {
    auth.state = { loading: false, session: null };
    renderLayout();
    expect(screen.getByText('home page')).toBeInTheDocument();
    expect(document.title).toBe(texts.brand.title);
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute(
      'content',
      'Home page',
    );
    expect(
      within(mainNav())
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([texts.nav.home, texts.nav.login, texts.nav.contact]);
    expect(within(mainNav()).queryByRole('button', { name: texts.nav.logout })).toBeNull();
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(texts.brand.footer);
    expect(within(footer).getByRole('link', { name: texts.nav.about })).toHaveAttribute(
      'href',
      '/about',
    );
    expect(within(footer).getByRole('link', { name: texts.nav.policy })).toHaveAttribute(
      'href',
      '/policy',
    );
    expect(within(footer).getByRole('link', { name: texts.nav.contact })).toHaveAttribute(
      'href',
      '/contact',
    );
    // Follow us: the configured pages by name, in a new tab, rel="me" (docs/decisions/0211).
    expect(within(footer).getByTestId('follow-us')).toHaveTextContent(texts.brand.followUs);
    const follow = within(footer).getByRole('link', { name: /Instagram/ });
    expect(follow).toHaveAttribute('href', 'https://social.example.com/mar');
    expect(follow).toHaveAttribute('rel', 'me noopener');
    expect(follow).toHaveAttribute('target', '_blank');
    // Who runs the shop (E-Commerce Regulations 2002 reg. 6).
    expect(within(footer).getByTestId('trader-details')).toHaveTextContent(
      'Example Ltd, 1 High Street, Leeds · E-mail: privacy@example.com · Company number: 01234567',
    );
  });

  it('shows no Follow us link while the store has no social page configured', () => {
    auth.state = { loading: false, session: null };
    const configured = settings.social;
    settings.social = [];
    try {
      renderLayout();
      expect(screen.getByRole('contentinfo')).toBeInTheDocument();
      expect(screen.queryByTestId('follow-us')).toBeNull();
    } finally {
      settings.social = configured;
    }
  });

  it('shows Admin and Logout instead of Login when signed in; Logout calls the hook', () => {
    auth.state = { loading: false, session: { user: { id: 'u1' } } };
    renderLayout();
    expect(
      within(mainNav())
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([texts.nav.home, texts.nav.admin, texts.nav.contact]);
    fireEvent.click(within(mainNav()).getByRole('button', { name: texts.nav.logout }));
    expect(logout).toHaveBeenCalledTimes(1);
  });

  it('shows neither Login nor Admin while the stored session is being restored', () => {
    auth.state = { loading: true, session: null };
    renderLayout();
    expect(
      within(mainNav())
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([texts.nav.home, texts.nav.contact]);
  });
});
