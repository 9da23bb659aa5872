// @vitest-environment jsdom
// The Privacy Policy renders the facts of privacyFacts.ts (decision 0214), with the store's name
// and address from the store settings row, and the facts hold for the contact function's
// settings. The database's side: tests/integration/privacy-facts.test.ts; the browser's:
// e2e/privacy-facts.spec.ts.
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PolicyPage } from '../../src/features/pages/PolicyPage';
import { privacyFacts, retention } from '../../src/features/pages/privacyFacts';
import { storeSettings, updateStoreSettings } from '../../src/lib/infra/storeSettings';
import { loadConfig } from '../../supabase/functions/contact/config.ts';
import { renderWithProviders } from './render';
import { storeSettingsRow } from './storeSettingsRow';

const row = storeSettingsRow({
  store_name: 'Sports Corner',
  contact_email: 'hello@sports.example',
  disclosure_text: 'Ad: we earn money.',
});

afterEach(() => {
  act(() =>
    updateStoreSettings({
      ...row,
      store_name: storeSettings.name,
      contact_email: storeSettings.contactEmail,
    }),
  );
});

describe('Privacy Policy facts', () => {
  it('shows every fact: what is kept, what not, how long and the lawful basis', () => {
    renderWithProviders(<PolicyPage />);
    for (const fact of privacyFacts(storeSettings.name)) {
      const section = screen.getByTestId(`policy-fact-${fact.id}`);
      expect(within(section).getByRole('heading', { level: 3, name: fact.title })).toBeVisible();
      for (const text of [fact.kept, fact.notKept, fact.howLong, fact.basis]) {
        expect(section).toHaveTextContent(text);
      }
    }
    const main = document.body;
    expect(main).toHaveTextContent(
      `contact messages: ${retention.contactMessageMonths} months after they were sent`,
    );
    expect(main).toHaveTextContent(`${retention.contactAddressDays} days`);
    expect(main).toHaveTextContent('Data (Use and Access) Act 2025');
  });

  it('names the store and its address as the settings row has them', () => {
    renderWithProviders(<PolicyPage />);
    act(() => updateStoreSettings(row));
    expect(document.body).toHaveTextContent('This policy explains how Sports Corner (');
    expect(screen.getAllByRole('link', { name: row.contact_email })[0]).toHaveAttribute(
      'href',
      `mailto:${row.contact_email}`,
    );
    expect(document.body).not.toHaveTextContent(storeSettings.name);
  });

  // The address is cleared after contactAddressDays: the form's limit must never need it longer.
  it('keeps the IP address no longer than the longest rate-limit window the contact function accepts', () => {
    const limit = retention.contactAddressDays * 24 * 3600;
    const window = (value: number) => {
      try {
        const env: Record<string, string> = {
          SUPABASE_URL: 'http://127.0.0.1:54321',
          SUPABASE_SERVICE_ROLE_KEY: 'service-key',
          CONTACT_RATE_LIMIT_WINDOW_SECONDS: String(value),
        };
        return loadConfig((k) => env[k]).rateLimit.windowSeconds;
      } catch {
        return null;
      }
    };
    expect(window(limit)).toBe(limit);
    const over = window(limit + 1);
    expect(over === null || over <= limit).toBe(true);
  });
});
