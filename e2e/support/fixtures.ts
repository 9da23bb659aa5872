// Shared fixtures for every browser test: `baseURL` of the app started by global-setup, the
// throwaway stack's env, and a service-role Supabase client for arranging test data (the
// browser itself only ever uses the anon key, like a visitor).
import { test as base, expect, type Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { StackEnv } from '../../stack/stack.ts';
import { sessionFor, sessionStorageKey } from '../../tests/support/session.ts';
import { serviceClient, stackEnv } from '../../tests/support/stack.ts';
import { baseUrl } from './env.ts';
import { noteToasts } from './toasts.ts';

export interface Fixtures {
  stack: StackEnv;
  /** Service-role client: bypasses RLS, for arranging and cleaning up test data only. */
  serviceDb: SupabaseClient;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(baseUrl());
  },
  // eslint-disable-next-line no-empty-pattern
  stack: async ({}, use) => {
    await use(stackEnv());
  },
  serviceDb: async ({ stack }, use) => {
    await use(serviceClient(stack));
  },
  // Every page of the test's browser context notes its toasts (toasts.ts, expectToast).
  context: async ({ context }, use) => {
    await context.addInitScript(noteToasts);
    await use(context);
  },
});

export { expect };

/**
 * Signs `page` in as an existing account without going through the login form: the session
 * supabase-js would store is placed in local storage before every load of the page.
 */
export async function signInAs(
  page: Page,
  env: StackEnv,
  email: string,
  password: string,
): Promise<void> {
  const session = await sessionFor(env, email, password);
  await page.addInitScript(
    ([key, value]) => {
      window.localStorage.setItem(key, value);
    },
    [sessionStorageKey(env), session] as const,
  );
}

export const demoAccounts = {
  admin: { email: 'admin@mar-online-store.test', password: 'admin123', name: 'Demo Admin' },
  shopper: { email: 'shopper@mar-online-store.test', password: 'shopper123', name: 'Demo Shopper' },
} as const;
