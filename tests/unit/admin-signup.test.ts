import { AuthApiError } from '@supabase/supabase-js';
import { describe, expect, it, vi } from 'vitest';

// signup.ts builds its default clients from the app env; these tests pass their own.
vi.mock('../../src/lib/infra/env', () => ({
  env: { supabaseUrl: 'http://127.0.0.1:9', supabaseAnonKey: 'anon' },
}));
vi.mock('../../src/lib/infra/supabase', () => ({ supabase: {} }));

const { createAdminAccount } = await import('../../src/features/admin/team/signup');

const values = { name: ' New Admin ', email: ' New.Admin@Example.TEST ', password: 'secret1' };

function clients(opts: {
  registered?: { data: unknown; error: unknown };
  invite?: { error: unknown };
  signUp?: { data: unknown; error: unknown };
}) {
  const insert = vi.fn().mockResolvedValue(opts.invite ?? { error: null });
  // delete().eq('email', …).is('accepted_at', null): records what was withdrawn.
  const withdrawn: Array<[string, unknown]> = [];
  const remove = vi.fn(() => ({
    eq: (column: string, value: unknown) => ({
      is: (isColumn: string, isValue: unknown) => {
        withdrawn.push([column, value], [isColumn, isValue]);
        return Promise.resolve({ error: null });
      },
    }),
  }));
  const admin = {
    rpc: vi.fn().mockResolvedValue(opts.registered ?? { data: false, error: null }),
    from: vi.fn(() => ({ insert, delete: remove })),
  };
  const signUp = vi.fn().mockResolvedValue(
    opts.signUp ?? {
      data: { user: { id: 'n1', identities: [{ id: 'i1' }] }, session: null },
      error: null,
    },
  );
  return {
    c: { admin, signup: { auth: { signUp } } } as never,
    admin,
    insert,
    signUp,
    remove,
    withdrawn,
  };
}

describe('createAdminAccount', () => {
  it('checks, invites (lower-cased) and signs up with the display name and redirect', async () => {
    const { c, admin, insert, signUp } = clients({});
    await expect(createAdminAccount(values, 'me', 'http://127.0.0.1:3000/login', c)).resolves.toBe(
      'sent',
    );
    expect(admin.rpc).toHaveBeenCalledWith('email_registered', {
      p_email: 'new.admin@example.test',
    });
    expect(admin.from).toHaveBeenCalledWith('admin_invites');
    expect(insert).toHaveBeenCalledWith({ email: 'new.admin@example.test', invited_by: 'me' });
    expect(signUp).toHaveBeenCalledWith({
      email: 'new.admin@example.test',
      password: 'secret1',
      options: {
        data: { display_name: 'New Admin' },
        emailRedirectTo: 'http://127.0.0.1:3000/login',
      },
    });
  });

  it('for a registered address, signs nobody up: the database refuses the invite', async () => {
    const { c, insert, signUp } = clients({
      registered: { data: true, error: null },
      invite: { error: { code: '23505', message: 'Email already registered' } },
    });
    await expect(createAdminAccount(values, 'me', 'x', c)).resolves.toBe('email-taken');
    expect(insert).toHaveBeenCalledWith({ email: 'new.admin@example.test', invited_by: 'me' });
    expect(signUp).not.toHaveBeenCalled();
  });

  it('for a removed admin, whose invite the database accepts at once: reinstated', async () => {
    const { c, signUp } = clients({ registered: { data: true, error: null } });
    await expect(createAdminAccount(values, 'me', 'x', c)).resolves.toBe('reinstated');
    expect(signUp).not.toHaveBeenCalled();
  });

  it('treats the obfuscated user (no identities) as a duplicate', async () => {
    const { c } = clients({
      signUp: { data: { user: { id: 'fake', identities: [] }, session: null }, error: null },
    });
    await expect(createAdminAccount(values, 'me', 'x', c)).resolves.toBe('email-taken');
  });

  it('treats user_already_exists as a duplicate', async () => {
    const error = new AuthApiError('User already registered', 422, 'user_already_exists');
    const { c } = clients({ signUp: { data: { user: null, session: null }, error } });
    await expect(createAdminAccount(values, 'me', 'x', c)).resolves.toBe('email-taken');
  });

  it('accepts an existing invite for the same e-mail', async () => {
    const { c, signUp } = clients({
      invite: { error: { code: '23505', message: 'duplicate key' } },
    });
    await expect(createAdminAccount(values, 'me', 'x', c)).resolves.toBe('sent');
    expect(signUp).toHaveBeenCalled();
  });

  it('throws on unexpected failures (the tab shows "Something went Wrong")', async () => {
    const rpcFail = clients({
      registered: { data: null, error: { code: '42501', message: 'denied' } },
    });
    await expect(createAdminAccount(values, 'me', 'x', rpcFail.c)).rejects.toMatchObject({
      code: '42501',
    });
    const inviteFail = clients({ invite: { error: { code: '42501', message: 'denied' } } });
    await expect(createAdminAccount(values, 'me', 'x', inviteFail.c)).rejects.toMatchObject({
      code: '42501',
    });
    const rate = new AuthApiError('Email rate limit exceeded', 429, 'over_email_send_rate_limit');
    const signUpFail = clients({ signUp: { data: { user: null, session: null }, error: rate } });
    await expect(createAdminAccount(values, 'me', 'x', signUpFail.c)).rejects.toBe(rate);
  });

  it('withdraws the open invite when the sign-up does not go through', async () => {
    const open = [
      ['email', 'new.admin@example.test'],
      ['accepted_at', null],
    ];
    const rate = new AuthApiError('Email rate limit exceeded', 429, 'over_email_send_rate_limit');
    const failed = clients({ signUp: { data: { user: null, session: null }, error: rate } });
    await expect(createAdminAccount(values, 'me', 'x', failed.c)).rejects.toBe(rate);
    expect(failed.withdrawn).toEqual(open);

    const duplicate = clients({
      signUp: { data: { user: { id: 'fake', identities: [] }, session: null }, error: null },
    });
    await expect(createAdminAccount(values, 'me', 'x', duplicate.c)).resolves.toBe('email-taken');
    expect(duplicate.withdrawn).toEqual(open);

    const offline = clients({});
    offline.signUp.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(createAdminAccount(values, 'me', 'x', offline.c)).rejects.toThrow(
      'Failed to fetch',
    );
    expect(offline.withdrawn).toEqual(open);

    // A sign-up that went through keeps its invite.
    const sent = clients({});
    await expect(createAdminAccount(values, 'me', 'x', sent.c)).resolves.toBe('sent');
    expect(sent.remove).not.toHaveBeenCalled();
  });
});
