// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../src/adminTexts';
import { renderRoutes } from './render';

// The layout's collaborators are isolated: auth state and logout come from the auth feature,
// the social URL from the store settings (the build's env).
const auth = vi.hoisted(() => ({ state: { loading: false, session: null as object | null } }));
const logout = vi.hoisted(() => vi.fn(async () => {}));
vi.mock('../../src/features/auth/AuthProvider', () => ({ useAuth: () => auth.state }));
vi.mock('../../src/features/auth/useLogout', () => ({ useLogout: () => logout }));
const settings = vi.hoisted(() => ({
  name: 'MAR Online Store UK',
  contactEmail: 'privacy@example.com',
  socialUrl: 'https://social.example.com/mar' as string | undefined,
  siteUrl: undefined,
}));
vi.mock('../../src/lib/storeSettings', async (original) => ({
  ...(await original<typeof import('../../src/lib/storeSettings')>()),
  storeSettings: settings,
}));

const { Layout } = await import('../../src/app/Layout');

function renderLayout() {
  // Layout reads route handles (titles), which needs a data router like the app's.
  return renderRoutes([
    {
      element: <Layout />,
      children: [
        { path: '/', element: <p>home page</p>, handle: { meta: { description: 'Home page' } } },
      ],
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
    const follow = within(footer).getByRole('link', { name: new RegExp(texts.brand.followUs) });
    expect(follow).toHaveAttribute('href', 'https://social.example.com/mar');
    expect(follow).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('shows no Follow us link while the store has no social page configured', () => {
    auth.state = { loading: false, session: null };
    settings.socialUrl = undefined;
    try {
      renderLayout();
      expect(screen.getByRole('contentinfo')).toBeInTheDocument();
      expect(screen.queryByTestId('follow-us')).toBeNull();
    } finally {
      settings.socialUrl = 'https://social.example.com/mar';
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
