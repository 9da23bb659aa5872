// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../src/features/pages/ErrorBoundary';
import { NotFoundPage } from '../../src/features/pages/NotFoundPage';
import { PolicyPage } from '../../src/features/pages/PolicyPage';
import { constants, texts } from '../../src/adminTexts';
import { renderWithProviders } from './render';

describe('static pages', () => {
  it('404: the spec text and a Go Back link to /', () => {
    renderWithProviders(<NotFoundPage />);
    expect(
      screen.getByRole('heading', { level: 1, name: texts.notFound.title }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: texts.notFound.goBack })).toHaveAttribute('href', '/');
  });

  it('REQ-WEIGHT-2 error screen: a page that fails to render (a chunk that fails to load) shows the generic error page and logs the error', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Broken(): never {
      throw new Error('chunk failed to load');
    }
    renderWithProviders(
      <ErrorBoundary pathname="/">
        <Broken />
      </ErrorBoundary>,
    );
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
