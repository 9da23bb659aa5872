// @vitest-environment jsdom
// The Admins tab with its database calls isolated: the messages for answers a healthy local stack
// cannot produce on demand (the last-admin refusal, Auth's resend limit, a row changed meanwhile,
// a failed load), and that an action reloads the list.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../src/adminTexts';
import { renderWithProviders } from './render';

vi.mock('../../src/lib/infra/supabase', () => ({ supabase: {} }));
vi.mock('../../src/lib/infra/notify', () => ({ notify: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../src/features/admin/team/teamApi', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/features/admin/team/teamApi')>();
  return {
    ...actual,
    loadTeam: vi.fn(),
    withdrawInvite: vi.fn(),
    resendInvite: vi.fn(),
    removeAdmin: vi.fn(),
  };
});

const teamApi = await import('../../src/features/admin/team/teamApi');
const { notify } = await import('../../src/lib/infra/notify');
const { AdminsTab } = await import('../../src/features/admin/team/AdminsTab');

const t = texts.team;
const team = {
  admins: [
    {
      user_id: 'u2',
      email: 'second@example.test',
      name: 'Second Admin',
      admin_since: '2026-11-01T10:00:00Z',
      invited_by_email: 'first@example.test',
      invited_by_name: null,
    },
  ],
  invites: [
    {
      email: 'typo@exmaple.com',
      invited_at: '2026-11-02T10:00:00Z',
      invited_by_email: 'first@example.test',
      invited_by_name: 'First',
      account: 'unconfirmed' as const,
      last_sent_at: null,
    },
  ],
};

vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.mocked(teamApi.loadTeam).mockResolvedValue(team);
});

afterEach(() => {
  vi.clearAllMocks();
});

async function confirm(user: ReturnType<typeof userEvent.setup>, label: string) {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: label }));
}

describe('Admins tab', () => {
  it('shows admins and invitations; an inviter without a name shows the e-mail', async () => {
    renderWithProviders(<AdminsTab />);
    expect(await screen.findByText('Second Admin')).toBeTruthy();
    expect(screen.getByText('first@example.test')).toBeTruthy();
    expect(screen.getByText('First (first@example.test)')).toBeTruthy();
    expect(screen.getByText(t.unconfirmed)).toBeTruthy();
  });

  it('says which rule refused a removal, and reloads', async () => {
    const user = userEvent.setup();
    vi.mocked(teamApi.removeAdmin).mockRejectedValue(new teamApi.RemoveRefused('last_admin'));
    renderWithProviders(<AdminsTab />);
    await user.click(await screen.findByRole('button', { name: t.remove }));
    await confirm(user, t.remove);
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith(t.lastAdmin));
    expect(teamApi.removeAdmin).toHaveBeenCalledWith('u2');
    await waitFor(() => expect(teamApi.loadTeam).toHaveBeenCalledTimes(2));
  });

  it("turns Auth's resend limit into a clear message", async () => {
    const user = userEvent.setup();
    vi.mocked(teamApi.resendInvite).mockRejectedValue(new teamApi.ResendTooSoon());
    renderWithProviders(<AdminsTab />);
    await user.click(await screen.findByRole('button', { name: t.resend }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith(t.resendTooSoon));
  });

  it('says so when the invitation was gone already', async () => {
    const user = userEvent.setup();
    vi.mocked(teamApi.withdrawInvite).mockResolvedValue(false);
    renderWithProviders(<AdminsTab />);
    await user.click(await screen.findByRole('button', { name: t.withdraw }));
    await confirm(user, t.withdraw);
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith(t.alreadyChanged));
    expect(teamApi.withdrawInvite).toHaveBeenCalledWith('typo@exmaple.com');
  });

  it('a failed load shows the error with a way to try again', async () => {
    const user = userEvent.setup();
    vi.mocked(teamApi.loadTeam).mockRejectedValueOnce(new Error('offline'));
    renderWithProviders(<AdminsTab />);
    expect(await screen.findByText(t.loadFailed)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: texts.admin.retry }));
    expect(await screen.findByText('Second Admin')).toBeTruthy();
  });
});
