// @vitest-environment jsdom
// AuthProvider without a stored session: the visitor is signed out at once and supabase-js is
// not fetched; the provider subscribes as soon as anything else loads the client (the login
// page), or when another tab stores a session. mayHaveSession decides which case applies.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

type Listener = (event: string, session: unknown) => void;
const fake = vi.hoisted(() => ({
  imported: 0,
  listener: null as null | ((event: string, session: unknown) => void),
}));

vi.mock('../../src/lib/infra/supabase', () => {
  fake.imported++;
  return {
    supabase: {
      auth: {
        onAuthStateChange: (cb: Listener) => {
          fake.listener = cb;
          return { data: { subscription: { unsubscribe: () => (fake.listener = null) } } };
        },
      },
      rpc: vi.fn().mockResolvedValue({ data: false, error: null }),
    },
  };
});

const { AuthProvider, useAuth } = await import('../../src/features/auth/AuthProvider');
const { loadSupabase, mayHaveSession } = await import('../../src/lib/infra/loadSupabase');

function Probe() {
  const { loading, session } = useAuth();
  return <span data-testid="state">{`${loading}|${session ? 'in' : 'out'}`}</span>;
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('AuthProvider with no stored session', () => {
  it('is signed out at once, without fetching supabase-js, and follows a later sign-in', async () => {
    render(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    expect(screen.getByTestId('state').textContent).toBe('false|out');
    // Give a stray load every chance to happen.
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.imported).toBe(0);
    expect(fake.listener).toBeNull();

    // The login page loads the client: the provider subscribes and sees the new session.
    await loadSupabase();
    await waitFor(() => expect(fake.listener).not.toBeNull());
    act(() => fake.listener?.('SIGNED_IN', { access_token: 't', user: { id: 'u1' } }));
    expect(screen.getByTestId('state').textContent).toBe('false|in');
  });
});

describe('mayHaveSession', () => {
  const storage = (...keys: string[]) => ({
    length: keys.length,
    key: (i: number) => keys[i] ?? null,
  });
  const at = (hash = '', search = '') => ({ hash, search });

  it('is true for a stored supabase-js session', () => {
    expect(mayHaveSession(storage('theme', 'sb-127-auth-token'), at())).toBe(true);
    expect(mayHaveSession(storage('sb-abcdefgh-auth-token'), at())).toBe(true);
  });

  it('is true for tokens or a code arriving in the URL', () => {
    expect(mayHaveSession(storage(), at('#access_token=x&refresh_token=y'))).toBe(true);
    expect(mayHaveSession(storage(), at('#error=access_denied&error_code=otp_expired'))).toBe(true);
    expect(mayHaveSession(storage(), at('', '?code=abc'))).toBe(true);
  });

  it("is false otherwise, also for the SignUP tab's throw-away client and a PKCE verifier", () => {
    expect(mayHaveSession(storage(), at())).toBe(false);
    expect(
      mayHaveSession(
        storage('mar-signup', 'sb-127-auth-token-code-verifier'),
        at('#top', '?cat=Golf'),
      ),
    ).toBe(false);
  });

  it('is true when storage cannot be read (supabase-js then decides)', () => {
    const blocked = {
      get length(): number {
        throw new Error('SecurityError');
      },
      key: () => null,
    };
    expect(mayHaveSession(blocked, at())).toBe(true);
  });
});
