// Helpers for the admin and login browser tests (admin*.spec.ts, login*.spec.ts).
import type { Locator, Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { StackEnv } from '../stack/stack.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { takeToastNotes } from './support/toasts.ts';

/** A toast with exactly this message (case matters: "Something went Wrong" ≠ "…wrong"). */
export function toast(page: Page, message: string): Locator {
  return page
    .locator('.mantine-Notifications-root')
    .getByRole('alert')
    .getByText(message, { exact: true });
}

/** Waits for the toast, then closes every open toast so the next assertion starts clean. */
export async function expectToast(page: Page, message: string): Promise<void> {
  // Shown since the last check, as the page noted it: a 2-s toast can come and go between two
  // looks from outside on a busy machine. A page without notes is looked at as it is now.
  const noted = await page.evaluate(takeToastNotes, message).catch(() => false);
  if (noted === null) await expect(toast(page, message)).toBeVisible();
  else if (!noted)
    await expect
      .poll(() => page.evaluate(takeToastNotes, message), { message: `toast "${message}"` })
      .toBe(true);
  await page.evaluate(() => {
    document
      .querySelectorAll<HTMLButtonElement>(
        '.mantine-Notifications-root .mantine-Notification-closeButton',
      )
      .forEach((b) => b.click());
  });
  await expect(page.locator('.mantine-Notifications-root').getByRole('alert')).toHaveCount(0);
}

/** A text field (input or textarea) of a form by its label, without the required asterisk. */
export function field(scope: Locator | Page, label: string): Locator {
  return scope.getByRole('textbox', { name: label, exact: true });
}

/** The visible admin tab panel (hidden panels stay mounted to keep their form state). */
export type AdminTab =
  'Products' | 'SignUP' | 'Admins' | 'Catagories' | 'Messages' | 'Activity' | 'Account';

export function panel(page: Page, tab: AdminTab): Locator {
  return page.getByRole('tabpanel', { name: tab });
}

export async function openTab(page: Page, tab: AdminTab): Promise<Locator> {
  await page.getByRole('tab', { name: tab }).click();
  const p = panel(page, tab);
  await expect(p).toBeVisible();
  return p;
}

/** Fills the login form and submits it. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** The main navigation bar (desktop viewport). */
export function nav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main' }).first();
}

/** Signs in with a file's session, opens /admin and its Products tab; returns the tab panel. */
export async function openProductsTab(
  page: Page,
  env: StackEnv,
  session: string,
): Promise<Locator> {
  await useSession(page, env, session);
  await page.goto('/admin');
  // The admin area is a chunk of its own, loaded after the session check: allow a busy machine.
  await expect(page.getByRole('heading', { name: /^Admin / })).toBeVisible({ timeout: 30_000 });
  return openTab(page, 'Products');
}

/** Picks `title` in the product form's Category select. */
export async function chooseCategory(page: Page, form: Locator, title: string): Promise<void> {
  await form.getByLabel('Category').click();
  await page.getByRole('option', { name: title, exact: true }).click();
}

/** Fills the product form's fields (title, category, price, comment, image link, link). */
export async function fillProduct(
  page: Page,
  form: Locator,
  p: { title: string; cat: string; price: string; com: string; image: string; link: string },
): Promise<void> {
  await field(form, 'Title').fill(p.title);
  await chooseCategory(page, form, p.cat);
  await field(form, 'Price').fill(p.price);
  await field(form, 'Comment').fill(p.com);
  await field(form, 'Image link').fill(p.image);
  await field(form, 'Link').fill(p.link);
}

/** Loads the product with this title into the form (Get Product) and waits for its toast. */
export async function getProduct(page: Page, form: Locator, title: string): Promise<void> {
  await field(form, 'Title').fill(title);
  await form.getByRole('button', { name: 'Get Product' }).click();
  await expectToast(page, 'Product Details Loaded');
}

/** A fresh e-mail, name and password for an account a test makes (no other test uses them). */
export function newAccount(
  prefix = 'e2e',
  name = 'E2E Admin',
): { id: string; email: string; password: string; name: string } {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    id,
    email: `${prefix}-${id}@mar-online-store.test`,
    password: `pw-${id}`,
    name: `${name} ${id}`,
  };
}

/** Deletes the accounts with these e-mails and their invites (a test file's afterAll). */
export async function deleteAccounts(
  serviceDb: SupabaseClient,
  emails: ReadonlySet<string>,
): Promise<void> {
  if (emails.size === 0) return;
  const { data, error } = await serviceDb.auth.admin.listUsers({ page: 1, perPage: 1000 });
  if (error) throw error;
  for (const user of data.users) {
    if (user.email && emails.has(user.email)) await serviceDb.auth.admin.deleteUser(user.id);
  }
  await serviceDb
    .from('admin_invites')
    .delete()
    .in('email', [...emails]);
}

/**
 * A test file's shared set-up: the demo admin signs in once (`session()` is its stored session),
 * and every account whose e-mail a test adds to `created` is deleted, with its invites, after
 * the file.
 */
export function demoAdminFile(): { session: () => string; created: Set<string> } {
  let session = '';
  const created = new Set<string>();
  test.beforeAll(async ({ stack }) => {
    session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  });
  test.afterAll(async ({ serviceDb }) => {
    await deleteAccounts(serviceDb, created);
  });
  return { session: () => session, created };
}

/** Fills the SignUP tab's form and submits it (the caller checks the answer). */
export async function fillSignup(
  form: Locator,
  name: string,
  email: string,
  password: string,
): Promise<void> {
  await field(form, 'Name').fill(name);
  await field(form, 'Email').fill(email);
  await field(form, 'Password').fill(password);
  await form.getByRole('button', { name: 'SignUP' }).click();
}

/** One card of the Activity tab: its kind badge and its subject (product, catagory, e-mail). */
export function activityEntry(tab: Locator, kind: string, subject: string): Locator {
  return tab
    .getByTestId('activity-entry')
    .filter({ hasText: kind })
    .filter({ has: tab.page().getByText(subject, { exact: true }) });
}
