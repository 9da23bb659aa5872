// /login, logout and the /admin guard against the real local stack; the seeded non-admin account
// can neither enter /admin nor write through the API.
import type { Page } from '@playwright/test';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { expectToast, field, nav, submitLogin, toast } from './admin.helpers.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { signedInClient } from '../tests/support/stack.ts';
import { uniqueName } from '../tests/support/names.ts';

const storedSessionKeys = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => /^sb-.*-auth-token/.test(k)));

test('the login page: heading, admin-only note, required fields, wrong password', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await expect(page.getByText('Login is only for the store admin.')).toBeVisible();
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Email is Required', { exact: true })).toBeVisible();
  await expect(page.getByText('Password is Required', { exact: true })).toBeVisible();

  await submitLogin(page, demoAccounts.admin.email, 'wrong-password');
  await expectToast(page, 'Something went wrong');
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedSessionKeys(page)).toEqual([]);
});

test('the admin signs in, sees the admin nav and heading, and logs out', async ({ page }) => {
  await submitLogin(page, demoAccounts.admin.email, demoAccounts.admin.password);
  await expect(toast(page, 'Login Successful')).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(
    page.getByRole('heading', { name: `Admin ${demoAccounts.admin.name}` }),
  ).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Products', selected: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'SignUP' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Catagories' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Admin' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Login' })).toHaveCount(0);
  expect(await storedSessionKeys(page)).toHaveLength(1);

  // Still signed in after a reload (the stored session is restored).
  await page.reload();
  await expect(
    page.getByRole('heading', { name: `Admin ${demoAccounts.admin.name}` }),
  ).toBeVisible();

  await nav(page).getByRole('button', { name: 'Logout' }).click();
  await expect(toast(page, 'Logout Successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(nav(page).getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(nav(page).getByRole('button', { name: 'Logout' })).toHaveCount(0);
  expect(await storedSessionKeys(page)).toEqual([]);

  // Signed out: /admin sends the visitor to /login.
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
});

test('the /admin guard shows a spinner while the admin status loads', async ({ page, stack }) => {
  await useSession(
    page,
    stack,
    await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password),
  );
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/rest/v1/rpc/is_admin', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/admin');
  await expect(page.getByLabel('Loading admin area')).toBeVisible();
  await expect(page.getByRole('tab')).toHaveCount(0);
  release();
  await expect(
    page.getByRole('heading', { name: `Admin ${demoAccounts.admin.name}` }),
  ).toBeVisible();
  await expect(page.getByLabel('Loading admin area')).toHaveCount(0);
});

test('a confirmed non-admin is signed out again at login and told why', async ({ page }) => {
  await submitLogin(page, demoAccounts.shopper.email, demoAccounts.shopper.password);
  const message = 'This account is not a store admin, so it cannot use the admin area.';
  await expect(
    page.getByRole('main').getByRole('alert').filter({ hasText: message }),
  ).toBeVisible();
  // Said once: the box stays, no toast repeats it.
  await expect(page.getByText(message)).toHaveCount(1);
  await expect(page).toHaveURL(/\/login$/);
  await expect(toast(page, 'Login Successful')).toHaveCount(0);
  await expect(nav(page).getByRole('link', { name: 'Login' })).toBeVisible();
  expect(await storedSessionKeys(page)).toEqual([]);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);
});

test('a non-admin session cannot see the admin area and its API writes are refused', async ({
  page,
  stack,
  serviceDb,
}) => {
  // A session obtained outside the login page (as someone could by hand).
  await useSession(
    page,
    stack,
    await sessionFor(stack, demoAccounts.shopper.email, demoAccounts.shopper.password),
  );
  await page.goto('/admin');
  await expect(
    page.getByText('This account is not a store admin, so it cannot use the admin area.'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Admin/ })).toHaveCount(0);
  await expect(page.getByRole('tab')).toHaveCount(0);
  await expect(field(page, 'Title')).toHaveCount(0);

  const shopper = await signedInClient(demoAccounts.shopper, stack);
  expect((await shopper.rpc('is_admin')).data).toBe(false);

  const title = uniqueName('E2E Shopper Write');
  const insertCategory = await shopper.from('catagories').insert({ title });
  expect(insertCategory.error?.code).toBe('42501');
  const insertProduct = await shopper.from('products').insert({
    title,
    cat: 'Football',
    price: '£1',
    com: 'Not allowed',
    image: '/products/football.svg',
    link: 'https://example.com/x',
  });
  expect(insertProduct.error?.code).toBe('42501');

  // Updates and deletes match no row the user may change: nothing happens.
  const { data: target } = await serviceDb.from('products').select('id, price').limit(1).single();
  const update = await shopper
    .from('products')
    .update({ price: '£0.01' })
    .eq('id', target!.id)
    .select();
  expect(update.data ?? []).toHaveLength(0);
  const del = await shopper.from('products').delete().eq('id', target!.id).select();
  expect(del.data ?? []).toHaveLength(0);
  const renameCat = await shopper
    .from('catagories')
    .update({ title })
    .eq('title', 'Football')
    .select();
  expect(renameCat.data ?? []).toHaveLength(0);
  const after = await serviceDb.from('products').select('price').eq('id', target!.id).single();
  expect(after.data?.price).toBe(target!.price);
  expect(
    (await serviceDb.from('catagories').select('id').eq('title', 'Football')).data,
  ).toHaveLength(1);

  // Nor can it invite admins, list them, or probe which e-mails have accounts.
  const invite = await shopper
    .from('admin_invites')
    .insert({ email: `${title.replace(/\W/g, '')}@example.test` });
  expect(invite.error?.code).toBe('42501');
  expect((await shopper.from('admins').select('user_id')).data ?? []).toHaveLength(0);
  const probe = await shopper.rpc('email_registered', { p_email: demoAccounts.admin.email });
  expect(probe.data === true).toBe(false);
});
