// @vitest-environment jsdom
// AuthProvider: the session from supabase-js and the admin status from the database, as the
// /admin guard and the navigation read them.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Listener = (event: string, session: unknown) => void;
const fake = vi.hoisted(() => ({
  listener: null as null | ((event: string, session: unknown) => void),
  rpc: vi.fn(),
}));

vi.mock('../../src/lib/infra/supabase', () => ({
  supabase: {
    auth: {
      onAuthStateChange: (cb: Listener) => {
        fake.listener = cb;
        return { data: { subscription: { unsubscribe: () => (fake.listener = null) } } };
      },
    },
    rpc: fake.rpc,
  },
}));

const { AuthProvider, useAuth } = await import('../../src/features/auth/AuthProvider');

function Probe() {
  const { loading, session, displayName, adminStatus, recheckAdmin } = useAuth();
  return (
    <div>
      <span data-testid="state">{`${loading}|${session ? 'in' : 'out'}|${displayName ?? '-'}|${adminStatus}`}</span>
      <button onClick={recheckAdmin}>recheck</button>
    </div>
  );
}

const session = (id: string, meta: Record<string, unknown> = { display_name: 'Demo Admin' }) => ({
  access_token: 't',
  user: { id, email: `${id}@example.test`, user_metadata: meta },
});

const state = () => screen.getByTestId('state').textContent;

function emit(event: string, value: unknown) {
  act(() => fake.listener?.(event, value));
}

beforeEach(async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  fake.rpc.mockReset();
  // A stored session: the provider loads supabase-js to restore it (see auth-provider-lazy).
  localStorage.setItem('sb-127-auth-token', '{}');
  render(
    <AuthProvider>
      <Probe />
    </AuthProvider>,
  );
  // supabase-js is loaded on demand; the provider subscribes once it has arrived.
  await waitFor(() => expect(fake.listener).not.toBeNull());
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('AuthProvider', () => {
  it('is loading until supabase-js reports the stored session (or none)', () => {
    expect(state()).toBe('true|out|-|none');
    emit('INITIAL_SESSION', null);
    expect(state()).toBe('false|out|-|none');
    expect(fake.rpc).not.toHaveBeenCalled();
  });

  it('asks the database about a signed-in user: loading at once, then admin', async () => {
    let answer: (v: unknown) => void = () => {};
    fake.rpc.mockReturnValueOnce(new Promise((r) => (answer = r)));
    emit('SIGNED_IN', session('u1'));
    // No render with a stale or missing status: the new user is 'loading' straight away.
    expect(state()).toBe('false|in|Demo Admin|loading');
    expect(fake.rpc).toHaveBeenCalledWith('is_admin');
    await act(async () => answer({ data: true, error: null }));
    expect(state()).toBe('false|in|Demo Admin|admin');
  });

  it('reports a confirmed non-admin as not-admin and a failed check as error, with a retry', async () => {
    fake.rpc.mockResolvedValueOnce({ data: false, error: null });
    emit('SIGNED_IN', session('u2', { name: 'Shopper' }));
    await act(async () => {});
    expect(state()).toBe('false|in|Shopper|not-admin');

    fake.rpc.mockResolvedValueOnce({ data: null, error: { message: 'offline' } });
    emit('SIGNED_IN', session('u3'));
    await act(async () => {});
    expect(state()).toBe('false|in|Demo Admin|error');

    fake.rpc.mockResolvedValueOnce({ data: true, error: null });
    act(() => screen.getByText('recheck').click());
    expect(state()).toBe('false|in|Demo Admin|loading');
    await act(async () => {});
    expect(state()).toBe('false|in|Demo Admin|admin');
  });

  it('does not ask again on a token refresh of the same user, and forgets it on sign-out', async () => {
    fake.rpc.mockResolvedValue({ data: true, error: null });
    emit('SIGNED_IN', session('u4'));
    await act(async () => {});
    emit('TOKEN_REFRESHED', session('u4'));
    await act(async () => {});
    expect(fake.rpc).toHaveBeenCalledTimes(1);
    expect(state()).toBe('false|in|Demo Admin|admin');
    emit('SIGNED_OUT', null);
    expect(state()).toBe('false|out|-|none');
  });
});
