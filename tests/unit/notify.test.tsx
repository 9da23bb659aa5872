// @vitest-environment jsdom
// The app's toasts (src/lib/infra/notify.ts in AppProviders' container): REQ-CONST-5's limit of
// 20 at once, and REQ-PATH-11's merging of identical toasts. The browser test
// (spec-texts.spec.ts) raises the same error 25 times, which now shows once, so the limit is
// counted here with different messages.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { notify } from '../../src/lib/infra/notify';
import { constants } from '../../src/texts';

afterEach(async () => {
  const { notifications } = await import('@mantine/notifications');
  notifications.clean();
  cleanup();
});

/** The app's toast container, loaded after the first paint, is there. */
async function renderApp() {
  render(<AppProviders>{null}</AppProviders>);
  await waitFor(() => expect(document.querySelector('.mantine-Notifications-root')).not.toBeNull());
}

describe('toasts', () => {
  it('REQ-CONST-5 shows at most 20 different toasts at once', async () => {
    await renderApp();
    for (let i = 0; i < 25; i += 1) notify.error(`Error number ${i}`);
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(constants.toastLimit));
  });

  it('REQ-PATH-11 shows an identical toast once, however often it is raised', async () => {
    await renderApp();
    for (let i = 0; i < 25; i += 1) notify.error('Title is Required');
    notify.success('Product Added');
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    expect(screen.getAllByText('Title is Required')).toHaveLength(1);
  });
});
