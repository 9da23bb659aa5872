import { AuthApiError } from '@supabase/supabase-js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { adminCheck, signInAdmin } from '../../src/features/auth/signIn';

const user = { id: 'u1', email: 'a@b.test', email_confirmed_at: '2026-01-01T00:00:00Z' };

type Answer = { data: unknown; error: unknown };

function fakeClient(opts: {
  signIn: Answer;
  rpc?: Answer | Error;
  /** my_admin_access() (REQ-MFA-2); missing: the function answers an error. */
  access?: Answer;
  /** supabase-js's reading of the new session: aal1 and what the account's factors allow. */
  aal?: { currentLevel: string; nextLevel: string };
}) {
  const signOut = vi.fn().mockResolvedValue({ error: null });
  const rpc = vi.fn(async (name: string) => {
    if (name === 'my_admin_access')
      return opts.access ?? { data: null, error: { message: 'no such function' } };
    if (opts.rpc instanceof Error) throw opts.rpc;
    return opts.rpc ?? { data: null, error: null };
  });
  const aal = opts.aal ?? { currentLevel: 'aal1', nextLevel: 'aal1' };
  const client = {
    auth: {
      signInWithPassword: vi.fn().mockResolvedValue(opts.signIn),
      signOut,
      mfa: {
        getAuthenticatorAssuranceLevel: vi.fn().mockResolvedValue({ data: aal, error: null }),
      },
    },
    rpc,
  };
  return { client: client as never, signOut, rpc };
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('signInAdmin', () => {
  it('lets a confirmed admin in', async () => {
    const { client, signOut, rpc } = fakeClient({
      signIn: { data: { user, session: {} }, error: null },
      rpc: { data: true, error: null },
    });
    await expect(signInAdmin(client, 'a@b.test', 'pw')).resolves.toBe('ok');
    expect(rpc).toHaveBeenCalledWith('is_admin');
    expect(signOut).not.toHaveBeenCalled();
  });

  it('maps an unconfirmed e-mail to "verify first" without a session to undo', async () => {
    const error = new AuthApiError('Email not confirmed', 400, 'email_not_confirmed');
    const { client, signOut, rpc } = fakeClient({
      signIn: { data: { user: null, session: null }, error },
    });
    await expect(signInAdmin(client, 'a@b.test', 'pw')).resolves.toBe('verify-first');
    expect(rpc).not.toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
  });

  it('signs a confirmed non-admin out again', async () => {
    const { client, signOut } = fakeClient({
      signIn: { data: { user, session: {} }, error: null },
      rpc: { data: false, error: null },
    });
    await expect(signInAdmin(client, 'a@b.test', 'pw')).resolves.toBe('not-admin');
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('signs out a user whose e-mail is not verified even if the server let them in', async () => {
    const { client, signOut } = fakeClient({
      signIn: {
        data: { user: { ...user, email_confirmed_at: undefined }, session: {} },
        error: null,
      },
      rpc: { data: true, error: null },
    });
    await expect(signInAdmin(client, 'a@b.test', 'pw')).resolves.toBe('verify-first');
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('reports wrong credentials as a plain failure', async () => {
    const error = new AuthApiError('Invalid login credentials', 400, 'invalid_credentials');
    const { client } = fakeClient({ signIn: { data: { user: null, session: null }, error } });
    await expect(signInAdmin(client, 'a@b.test', 'bad')).resolves.toBe('failed');
  });

  it('signs out and fails when the admin check errors or throws', async () => {
    const a = fakeClient({
      signIn: { data: { user, session: {} }, error: null },
      rpc: { data: null, error: { message: 'boom', code: '500' } },
    });
    await expect(signInAdmin(a.client, 'a@b.test', 'pw')).resolves.toBe('failed');
    expect(a.signOut).toHaveBeenCalledTimes(1);
    const b = fakeClient({
      signIn: { data: { user, session: {} }, error: null },
      rpc: new Error('offline'),
    });
    await expect(signInAdmin(b.client, 'a@b.test', 'pw')).resolves.toBe('failed');
    expect(b.signOut).toHaveBeenCalledTimes(1);
  });

  it('REQ-MFA-1: keeps the session for the code step when the account has a verified factor', async () => {
    const { client, signOut, rpc } = fakeClient({
      signIn: { data: { user, session: {} }, error: null },
      rpc: { data: false, error: null },
      aal: { currentLevel: 'aal1', nextLevel: 'aal2' },
    });
    await expect(signInAdmin(client, 'a@b.test', 'pw')).resolves.toBe('code');
    expect(signOut).not.toHaveBeenCalled();
    expect(rpc).not.toHaveBeenCalled();
  });

  it('REQ-MFA-2: keeps an admin whom the store requires to turn on two-factor sign-in', async () => {
    const { client, signOut } = fakeClient({
      signIn: { data: { user, session: {} }, error: null },
      rpc: { data: false, error: null },
      access: { data: { admin: true, needs: 'enrol' }, error: null },
    });
    await expect(signInAdmin(client, 'a@b.test', 'pw')).resolves.toBe('enrol');
    expect(signOut).not.toHaveBeenCalled();
  });

  it('REQ-MFA-2: after the code, a session the database still refuses is signed out', async () => {
    const { client, signOut } = fakeClient({
      signIn: { data: { user, session: {} }, error: null },
      rpc: { data: false, error: null },
      access: { data: { admin: false, needs: 'none' }, error: null },
    });
    await expect(adminCheck(client)).resolves.toBe('not-admin');
    expect(signOut).toHaveBeenCalledTimes(1);
  });
});
