import { describe, expect, it } from 'vitest';

// Only the storage helper is under test; the hook itself is exercised by the browser tests.
import { vi } from 'vitest';
vi.mock('../../src/lib/supabase', () => ({ supabase: {} }));
vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));

const { clearStoredSession } = await import('../../src/features/auth/useLogout');

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
    expect([...Array(storage.length).keys()].map((i) => storage.key(i))).toEqual(['mantine-color-scheme-value']);
  });
});
