// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorPage } from '../../src/features/pages/ErrorPage';
import { NotFoundPage } from '../../src/features/pages/NotFoundPage';
import { PolicyPage } from '../../src/features/pages/PolicyPage';
import { constants, texts } from '../../src/adminTexts';
import { renderRoutes, renderWithProviders } from './render';

describe('static pages', () => {
  it('404: the spec text and a Go Back link to /', () => {
    renderWithProviders(<NotFoundPage />);
    expect(
      screen.getByRole('heading', { level: 1, name: texts.notFound.title }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: texts.notFound.goBack })).toHaveAttribute('href', '/');
  });

  it('error screen: a routing failure shows the generic error page and logs the error', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderRoutes([
      {
        path: '/',
        errorElement: <ErrorPage />,
        loader: () => {
          throw new Error('chunk failed to load');
        },
        element: <p>never shown</p>,
      },
    ]);
    expect(
      await screen.findByRole('heading', { level: 1, name: texts.pages.errorHeading }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: texts.pages.errorBack })).toHaveAttribute('href', '/');
    // Logged and titled by an effect, which may run after the heading is on screen.
    await waitFor(() =>
      expect(spy).toHaveBeenCalledWith('Unexpected application error', expect.any(Error)),
    );
    await waitFor(() =>
      expect(document.title).toBe(`${texts.pages.errorHeading} | ${texts.brand.title}`),
    );
    spy.mockRestore();
  });

  it('error screen: a 404 route response shows the 404 page', async () => {
    renderRoutes([{ path: '/', errorElement: <ErrorPage />, element: <p>home</p> }], {
      route: '/unknown',
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: texts.notFound.title }),
    ).toBeInTheDocument();
  });

  it('privacy policy: last updated June 2023, the age threshold and a link to the contact page', () => {
    renderWithProviders(<PolicyPage />);
    expect(screen.getByText(texts.pages.policyUpdated)).toBeInTheDocument();
    expect(
      screen.getByRole('heading', {
        level: 2,
        name: new RegExp(`Children under ${constants.privacyAgeThreshold}`),
      }),
    ).toBeInTheDocument();
    const contactLinks = screen.getAllByRole('link', { name: texts.nav.contact });
    expect(contactLinks.length).toBeGreaterThan(0);
    for (const link of contactLinks) expect(link).toHaveAttribute('href', '/contact');
  });
});
