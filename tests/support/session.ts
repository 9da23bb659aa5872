// Signing a browser page in without the login form, for the browser tests and the benchmarks
// that drive a browser: one password sign-in, and the session put where supabase-js looks for it
// before the app starts.
import type { Page } from '@playwright/test';
import { nodeClient } from '../../stack/client.ts';
import type { StackEnv } from '../../stack/stack.ts';

/**
 * One password sign-in (Auth limits sign-ins per IP, so a test file signs in once and reuses
 * the session for every page): the session as supabase-js stores it.
 */
export async function sessionFor(env: StackEnv, email: string, password: string): Promise<string> {
  const client = nodeClient(env.API_URL, env.ANON_KEY);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw error ?? new Error('no session');
  return JSON.stringify(data.session);
}

/** The local-storage key supabase-js keeps its session under for this stack. */
export function sessionStorageKey(env: StackEnv): string {
  return `sb-${new URL(env.API_URL).hostname.split('.')[0]}-auth-token`;
}

/** Puts `session` in place on the page's first load only: a logout in the test is not undone. */
export async function useSession(page: Page, env: StackEnv, session: string): Promise<void> {
  await page.addInitScript(
    ([key, value]) => {
      if (!sessionStorage.getItem('e2e-session-set')) {
        sessionStorage.setItem('e2e-session-set', '1');
        window.localStorage.setItem(key, value);
      }
    },
    [sessionStorageKey(env), session] as const,
  );
}
