// @vitest-environment jsdom
// Two-factor sign-in's screens with Auth's answers isolated (REQ-MFA-1, decision 0252): what each
// answer shows, including those a healthy local stack gives only on demand (429 after many
// codes). The browser test e2e/admin-two-factor.spec.ts runs the same against the real stand-in.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { texts as adminTexts } from '../../src/adminTexts';
import { texts } from '../../src/adminTwoFactorTexts';
import { renderWithProviders } from './render';

vi.mock('../../src/lib/infra/supabase', () => ({ supabase: {} }));
vi.mock('../../src/lib/infra/notify', () => ({ notify: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../src/lib/infra/twoFactor', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/lib/infra/twoFactor')>();
  return {
    ...actual,
    fetchAdminAccess: vi.fn(),
    listTotpFactors: vi.fn(),
    startEnrolment: vi.fn(),
    verifyCode: vi.fn(),
    removeFactor: vi.fn(),
    signOutHere: vi.fn(),
  };
});

const api = await import('../../src/lib/infra/twoFactor');
const { codeOutcome } = api;
const { default: TwoFactorSection } =
  await import('../../src/features/admin/account/TwoFactorSection');
const { default: TwoFactorGate } = await import('../../src/features/admin/TwoFactorGate');

const t = texts.twoFactor;
vi.setConfig({ testTimeout: 30_000 });

const verified = {
  id: 'f1',
  factor_type: 'totp' as const,
  status: 'verified' as const,
  friendly_name: t.friendlyName,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-25T09:30:00Z',
};
const enrolment = {
  factorId: 'f1',
  qrCode: 'data:image/svg+xml;utf-8,<svg xmlns="http://www.w3.org/2000/svg"/>',
  secret: 'JBSWY3DPEHPK3PXP',
};

const codeField = () => screen.getByRole('textbox', { name: new RegExp(t.code) });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.mocked(api.listTotpFactors).mockResolvedValue([]);
  vi.mocked(api.startEnrolment).mockResolvedValue(enrolment);
  vi.mocked(api.removeFactor).mockResolvedValue();
});

afterEach(() => {
  vi.clearAllMocks();
});

describe('REQ-MFA-1 codeOutcome', () => {
  it('maps Auth answers to the messages', () => {
    expect(codeOutcome(null)).toBe('ok');
    expect(codeOutcome({ status: 422, code: 'mfa_verification_failed' })).toBe('wrong');
    expect(codeOutcome({ status: 400, code: 'mfa_challenge_expired' })).toBe('wrong');
    expect(codeOutcome({ status: 429, code: 'over_request_rate_limit' })).toBe('too-many');
    // The MFA verification attempt hook's refusal after 5 wrong codes (decision 0253).
    expect(codeOutcome({ status: 403, code: 'mfa_verification_rejected' })).toBe('locked');
    expect(codeOutcome({ status: 500, code: 'unexpected_failure' })).toBe('failed');
  });
});

describe('REQ-MFA-1 qrImageUrl', () => {
  it('percent-encodes the SVG so a # in it does not end the data: URL', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><path fill="#000000" d="M0 0h1"/></svg>';
    const url = api.qrImageUrl(`data:image/svg+xml;utf-8,${svg}`);
    expect(url).not.toContain('#');
    expect(decodeURIComponent(url.slice(url.indexOf(',') + 1))).toBe(svg);
    expect(api.qrImageUrl('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
  });
});

describe('REQ-MFA-1 Account tab: two-factor sign-in', () => {
  it('turns on with the QR code or the key, refuses a wrong code, then shows since when', async () => {
    const user = userEvent.setup();
    const onTurnedOn = vi.fn();
    renderWithProviders(<TwoFactorSection onTurnedOn={onTurnedOn} />);
    await user.click(await screen.findByRole('button', { name: t.turnOn }));

    expect(await screen.findByRole('img', { name: t.qrAlt })).toHaveAttribute(
      'src',
      enrolment.qrCode,
    );
    expect(screen.getByRole('textbox', { name: t.secretLabel })).toHaveValue(enrolment.secret);
    expect(screen.getByRole('button', { name: t.copy })).toBeVisible();
    expect(codeField()).toHaveAttribute('inputmode', 'numeric');
    expect(codeField()).toHaveAttribute('autocomplete', 'one-time-code');

    // Not six digits: said at once, nothing sent.
    await user.type(codeField(), '12a');
    await user.click(screen.getByRole('button', { name: t.confirm }));
    expect(await screen.findByText(t.codeInvalid)).toBeVisible();
    expect(api.verifyCode).not.toHaveBeenCalled();

    vi.mocked(api.verifyCode).mockResolvedValueOnce('wrong');
    await user.clear(codeField());
    await user.type(codeField(), '123456');
    await user.click(screen.getByRole('button', { name: t.confirm }));
    expect(await screen.findByRole('alert')).toHaveTextContent(t.wrongCode);
    expect(api.verifyCode).toHaveBeenCalledWith('123456', 'f1');

    vi.mocked(api.verifyCode).mockResolvedValueOnce('ok');
    vi.mocked(api.listTotpFactors).mockResolvedValue([verified]);
    await user.type(codeField(), '654321');
    await user.click(screen.getByRole('button', { name: t.confirm }));
    expect(await screen.findByText(t.onSince(verified.created_at))).toBeVisible();
    expect(screen.getByText(t.lastUsed(verified.updated_at))).toBeVisible();
    expect(onTurnedOn).toHaveBeenCalledTimes(1);
  });

  it('says so after too many codes (429)', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TwoFactorSection />);
    await user.click(await screen.findByRole('button', { name: t.turnOn }));
    vi.mocked(api.verifyCode).mockResolvedValueOnce('too-many');
    await user.type(codeField(), '123456');
    await user.click(screen.getByRole('button', { name: t.confirm }));
    expect(await screen.findByRole('alert')).toHaveTextContent(t.tooMany);
  });

  it('cancelling an unfinished enrolment removes the unverified factor', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TwoFactorSection />);
    await user.click(await screen.findByRole('button', { name: t.turnOn }));
    await user.click(await screen.findByRole('button', { name: t.cancel }));
    await waitFor(() => expect(api.removeFactor).toHaveBeenCalledWith('f1'));
    expect(await screen.findByRole('button', { name: t.turnOn })).toBeVisible();
  });

  it('removes only after a current code (aal2 first, then unenrol)', async () => {
    const user = userEvent.setup();
    vi.mocked(api.listTotpFactors).mockResolvedValue([verified]);
    renderWithProviders(<TwoFactorSection />);
    await user.click(await screen.findByRole('button', { name: t.remove }));
    vi.mocked(api.verifyCode).mockResolvedValueOnce('wrong');
    await user.type(codeField(), '111111');
    await user.click(screen.getByRole('button', { name: t.removeConfirm }));
    expect(await screen.findByRole('alert')).toHaveTextContent(t.wrongCode);
    expect(api.removeFactor).not.toHaveBeenCalled();

    vi.mocked(api.verifyCode).mockResolvedValueOnce('ok');
    await user.type(codeField(), '222222');
    await user.click(screen.getByRole('button', { name: t.removeConfirm }));
    expect(await screen.findByRole('button', { name: t.turnOn })).toBeVisible();
    expect(api.verifyCode).toHaveBeenLastCalledWith('222222', 'f1');
    expect(api.removeFactor).toHaveBeenCalledWith('f1');
  });
});

describe('REQ-MFA-2 the admin area when is_admin() says no', () => {
  it('shows only the enrolment when the store requires two-factor sign-in', async () => {
    vi.mocked(api.fetchAdminAccess).mockResolvedValue({ admin: true, needs: 'enrol' });
    renderWithProviders(<TwoFactorGate wasAdmin={false} onAdmin={vi.fn()} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(t.required);
    expect(await screen.findByRole('button', { name: t.turnOn })).toBeVisible();
    expect(screen.queryByText(adminTexts.admin.notAdmin)).toBeNull();
  });

  it('asks for the code of an aal1 session, then asks is_admin() again', async () => {
    const user = userEvent.setup();
    const onAdmin = vi.fn();
    vi.mocked(api.fetchAdminAccess).mockResolvedValue({ admin: true, needs: 'code' });
    vi.mocked(api.verifyCode).mockResolvedValueOnce('ok');
    renderWithProviders(<TwoFactorGate wasAdmin={false} onAdmin={onAdmin} />);
    expect(await screen.findByText(t.signInIntro)).toBeVisible();
    await user.type(codeField(), '123456');
    await user.click(screen.getByRole('button', { name: t.verify }));
    await waitFor(() => expect(onAdmin).toHaveBeenCalledTimes(1));
    expect(api.verifyCode).toHaveBeenCalledWith('123456');
  });

  it('shows the usual refusals to a non-admin, and when the check fails', async () => {
    vi.mocked(api.fetchAdminAccess).mockResolvedValueOnce({ admin: false, needs: 'none' });
    renderWithProviders(<TwoFactorGate wasAdmin={false} onAdmin={vi.fn()} />);
    expect(await screen.findByText(adminTexts.admin.notAdmin)).toBeVisible();
    vi.mocked(api.fetchAdminAccess).mockRejectedValueOnce(new Error('no such function'));
    renderWithProviders(<TwoFactorGate wasAdmin onAdmin={vi.fn()} />);
    expect(await screen.findByText(adminTexts.team.rightsRemoved)).toBeVisible();
  });
});
