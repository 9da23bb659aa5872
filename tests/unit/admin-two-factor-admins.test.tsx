// @vitest-environment jsdom
// REQ-MFA-2 in the admin area: the Settings switch that requires two-factor sign-in of every
// admin (asks first when the admin has no factor), and removing a colleague's factor on the
// Admins tab. Database calls isolated; the rules themselves are tested in admin-mfa.test.ts.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { texts as twoFactorTexts } from '../../src/adminTwoFactorTexts';
import { renderWithProviders } from './render';
import { storeSettingsRow } from './storeSettingsRow';

vi.mock('../../src/lib/infra/supabase', () => ({ supabase: {} }));
vi.mock('../../src/lib/infra/notify', () => ({ notify: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../src/lib/infra/twoFactor', () => ({ listTotpFactors: vi.fn() }));
vi.mock('../../src/lib/infra/loadSupabase', () => ({ loadSupabase: vi.fn() }));
vi.mock('../../src/features/admin/team/teamApi', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/features/admin/team/teamApi')>();
  return { ...actual, loadTeam: vi.fn(), loadFactors: vi.fn(), removeColleagueFactors: vi.fn() };
});

const teamApi = await import('../../src/features/admin/team/teamApi');
const { notify } = await import('../../src/lib/infra/notify');
const { listTotpFactors } = await import('../../src/lib/infra/twoFactor');
const { loadSupabase } = await import('../../src/lib/infra/loadSupabase');
const { AdminsTab } = await import('../../src/features/admin/team/AdminsTab');
const { SettingsTab } = await import('../../src/features/admin/settings/SettingsTab');

const tf = twoFactorTexts.colleague;
const ts = twoFactorTexts.requireAll;
vi.setConfig({ testTimeout: 30_000 });

const admin = (user_id: string, email: string) => ({
  user_id,
  email,
  name: null,
  admin_since: '2026-11-01T10:00:00Z',
  invited_by_email: null,
  invited_by_name: null,
});

const row = {
  ...storeSettingsRow({
    store_name: 'MAR Online Store',
    contact_email: 'shop@example.test',
    disclosure_text: 'We may earn a commission.',
  }),
  admins_require_mfa: false,
  updated_at: '2026-11-01T10:00:00Z',
};

/** A stand-in for the store_settings table: select answers the row, update records its values. */
function fakeSettingsTable() {
  const updates: Record<string, unknown>[] = [];
  const chain = (answer: () => unknown) => {
    const c: Record<string, unknown> = {};
    for (const m of ['select', 'eq']) c[m] = () => c;
    c.single = async () => ({ data: answer(), error: null });
    c.maybeSingle = c.single;
    return c;
  };
  const client = {
    from: () => ({
      select: () => chain(() => row),
      update: (values: Record<string, unknown>) => {
        updates.push(values);
        return chain(() => ({ ...row, ...values, updated_at: '2026-11-02T10:00:00Z' }));
      },
    }),
  };
  vi.mocked(loadSupabase).mockResolvedValue(client as never);
  return updates;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.mocked(teamApi.loadTeam).mockResolvedValue({
    admins: [admin('me', 'me@example.test'), admin('u2', 'lost.phone@example.test')],
    invites: [],
  });
  vi.mocked(teamApi.loadFactors).mockResolvedValue(
    new Map([
      ['me', ['f-me']],
      ['u2', ['f2']],
    ]),
  );
});

afterEach(() => {
  vi.clearAllMocks();
});

async function confirmIn(user: ReturnType<typeof userEvent.setup>, label: string) {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: label }));
  return dialog;
}

describe('REQ-MFA-2 Admins tab: a colleague lost their phone', () => {
  it("shows a colleague's two-factor sign-in and removes it after asking", async () => {
    const user = userEvent.setup();
    vi.mocked(teamApi.removeColleagueFactors).mockResolvedValue(true);
    renderWithProviders(<AdminsTab />);
    // Only the colleague's card (u2 is not "you": the session is absent in this render).
    const buttons = await screen.findAllByRole('button', { name: tf.remove });
    expect(screen.getAllByText(tf.on).length).toBe(buttons.length);
    await user.click(buttons[buttons.length - 1]);
    expect(await screen.findByText(tf.removeText('lost.phone@example.test'))).toBeTruthy();
    await confirmIn(user, tf.remove);
    await waitFor(() =>
      expect(notify.success).toHaveBeenCalledWith(tf.removed('lost.phone@example.test')),
    );
    expect(teamApi.removeColleagueFactors).toHaveBeenCalledWith(['f2']);
    await waitFor(() => expect(teamApi.loadTeam).toHaveBeenCalledTimes(2));
  });

  it("says which rule refused it (another admin's factor, already gone)", async () => {
    const user = userEvent.setup();
    vi.mocked(teamApi.removeColleagueFactors).mockRejectedValue(
      new teamApi.FactorRefused('factor_not_found'),
    );
    renderWithProviders(<AdminsTab />);
    const buttons = await screen.findAllByRole('button', { name: tf.remove });
    await user.click(buttons[buttons.length - 1]);
    await confirmIn(user, tf.remove);
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith(tf.notFound));
  });

  it('keeps the list working when the factors cannot be read', async () => {
    vi.mocked(teamApi.loadFactors).mockRejectedValue(new Error('PGRST202'));
    renderWithProviders(<AdminsTab />);
    expect((await screen.findAllByText('lost.phone@example.test')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: tf.remove })).toBeNull();
  });
});

describe('REQ-MFA-2 Settings: every admin must use two-factor sign-in', () => {
  it('asks first when the admin has no factor, and saves only after the yes', async () => {
    const user = userEvent.setup();
    const updates = fakeSettingsTable();
    vi.mocked(listTotpFactors).mockResolvedValue([]);
    renderWithProviders(<SettingsTab />);
    const toggle = await screen.findByRole('switch', { name: ts.label });
    expect(screen.getByText(ts.hint)).toBeTruthy();
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: /save/i }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(ts.selfText)).toBeTruthy();
    expect(updates).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: ts.selfConfirm }));
    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0].admins_require_mfa).toBe(true);
    await waitFor(() => expect(notify.success).toHaveBeenCalled());
  });

  it('saves at once when the admin has a verified factor', async () => {
    const user = userEvent.setup();
    const updates = fakeSettingsTable();
    vi.mocked(listTotpFactors).mockResolvedValue([{ status: 'verified' }] as never);
    renderWithProviders(<SettingsTab />);
    await user.click(await screen.findByRole('switch', { name: ts.label }));
    await user.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0].admins_require_mfa).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
