// @vitest-environment jsdom
// Logout (REQ-NAV-6): sign out, clear the stored session, "Logout Successfully", go to /login;
// a failure is only logged.
import { act, cleanup, renderHook } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => ({ signOut: vi.fn(), success: vi.fn(), error: vi.fn() }));
vi.mock('../../src/lib/infra/supabase', () => ({ supabase: { auth: { signOut: fake.signOut } } }));
vi.mock('../../src/lib/infra/notify', () => ({
  notify: { success: fake.success, error: fake.error },
}));

const { clearStoredSession, useLogout } = await import('../../src/features/auth/useLogout');

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

describe('clearStoredSession', () => {
  it('removes the supabase session and PKCE keys and the sign-up client key, nothing else', () => {
    const storage = new MemoryStorage();
    storage.setItem('sb-127-auth-token', '{}');
    storage.setItem('sb-127-auth-token-code-verifier', 'x');
    storage.setItem('mar-signup', '{}');
    storage.setItem('mantine-color-scheme-value', 'dark');
    clearStoredSession(storage);
    expect([...Array(storage.length).keys()].map((i) => storage.key(i))).toEqual([
      'mantine-color-scheme-value',
    ]);
  });
});

describe('useLogout', () => {
  /** Renders the hook inside a router that starts on /admin and reports the current path. */
  function setup() {
    let path = '';
    function Route({ children }: { children: ReactNode }) {
      path = useLocation().pathname;
      return <>{children}</>;
    }
    const Wrapper = ({ children }: { children: ReactNode }) => {
      // Created once per test, so navigation state survives re-renders.
      const [router] = useState(() =>
        createMemoryRouter([{ path: '*', element: <Route>{children}</Route> }], {
          initialEntries: ['/admin'],
        }),
      );
      return <RouterProvider router={router} />;
    };
    const { result } = renderHook(() => useLogout(), { wrapper: Wrapper });
    return { logout: () => result.current(), path: () => path };
  }

  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    localStorage.setItem('sb-127-auth-token', '{}');
  });
  afterEach(() => {
    cleanup();
    vi.clearAllMocks();
    localStorage.clear();
  });

  it('signs out this session, clears it, toasts "Logout Successfully" and goes to /login', async () => {
    fake.signOut.mockResolvedValue({ error: null });
    const { logout, path } = setup();
    expect(path()).toBe('/admin');
    await act(logout);
    expect(fake.signOut).toHaveBeenCalledWith({ scope: 'local' });
    expect(localStorage.getItem('sb-127-auth-token')).toBeNull();
    expect(fake.success).toHaveBeenCalledWith('Logout Successfully');
    expect(path()).toBe('/login');
  });

  it('on failure only logs: no toast, no navigation', async () => {
    fake.signOut.mockResolvedValue({ error: new Error('network down') });
    const { logout, path } = setup();
    await act(logout);
    expect(console.error).toHaveBeenCalled();
    expect(fake.success).not.toHaveBeenCalled();
    expect(fake.error).not.toHaveBeenCalled();
    expect(path()).toBe('/admin');
  });
});
