// Admin SignUP tab: creating another admin end to end — invite, sign-up, verification e-mail from
// the mail catcher, refused sign-in before confirming, confirmation link, sign-in as the new admin.
import type { Locator, Page } from '@playwright/test';
import type { StackEnv } from '../stack/stack.ts';
import { extractLinks, waitForMail } from '../tests/support/mail.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import {
  demoAdminFile,
  expectToast,
  field,
  fillSignup,
  newAccount,
  openTab,
  submitLogin,
  toast,
} from './admin.helpers.ts';
import { useSession } from '../tests/support/session.ts';

/** The demo admin's session; accounts the tests make, deleted afterwards. */
const file = demoAdminFile();
// Several stacks share this machine: the admin area alone may take 30 s to load.
test.describe.configure({ timeout: 90_000 });
const createdEmails = file.created;

async function openSignup(page: Page, stack: StackEnv): Promise<Locator> {
  await useSession(page, stack, file.session());
  await page.goto('/admin');
  // The admin area is a chunk of its own, loaded after the session check: allow a busy machine.
  await expect(page.getByRole('heading', { name: `Admin ${demoAccounts.admin.name}` })).toBeVisible(
    { timeout: 30_000 },
  );
  return openTab(page, 'SignUP');
}

test('SignUP validates its fields and refuses a registered e-mail', async ({ page, stack }) => {
  const form = await openSignup(page, stack);
  await form.getByRole('button', { name: 'SignUP' }).click();
  await expectToast(page, 'Name is Required');
  await expect(form.getByText('Name is Required', { exact: true })).toBeVisible();
  await expect(form.getByText('Email is Required', { exact: true })).toBeVisible();
  await expect(
    form.getByText('Password should be at least 6 characters', { exact: true }),
  ).toBeVisible();

  await fillSignup(form, 'Someone', 'not-an-email', '12345');
  await expectToast(page, 'Enter a valid Email');
  await expect(
    form.getByText('Password should be at least 6 characters', { exact: true }),
  ).toBeVisible();

  // The seeded admin's e-mail, in another case: reliably "already registered".
  await fillSignup(form, 'Someone', demoAccounts.admin.email.toUpperCase(), 'secret123');
  await expectToast(page, 'Email already registered');
  await expect(form.getByText('Email already registered', { exact: true })).toBeVisible();
  // And the same for the seeded non-admin account.
  await fillSignup(form, 'Someone', demoAccounts.shopper.email, 'secret123');
  await expectToast(page, 'Email already registered');
});

test('a new admin gets the e-mail, cannot sign in before confirming, confirms, signs in', async ({
  page,
  browser,
  baseURL,
  stack,
  serviceDb,
}) => {
  test.setTimeout(120_000);
  const { email, name, password } = newAccount('e2e-admin', 'E2E Admin');
  createdEmails.add(email);

  const form = await openSignup(page, stack);
  // Mixed case on the way in: the invite and the account use the lower-cased address.
  await fillSignup(form, name, email.replace('e2e-admin', 'E2E-Admin'), password);
  await expect(toast(page, 'Verification Email Sent')).toBeVisible();
  await expectToast(page, 'SignUp Successful');
  await expect(field(form, 'Name')).toHaveValue('');
  await expect(field(form, 'Email')).toHaveValue('');
  await expect(field(form, 'Password')).toHaveValue('');

  // The signed-in admin is still themself, also after a reload.
  await expect(
    page.getByRole('heading', { name: `Admin ${demoAccounts.admin.name}` }),
  ).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('heading', { name: `Admin ${demoAccounts.admin.name}` }),
  ).toBeVisible();

  const invite = await serviceDb
    .from('admin_invites')
    .select('email, invited_by')
    .eq('email', email)
    .single();
  expect(invite.error).toBeNull();
  expect(invite.data?.invited_by).toBeTruthy();

  // Signing the same address up again is refused now that it is registered.
  const again = await openTab(page, 'SignUP');
  await fillSignup(again, name, email, password);
  await expectToast(page, 'Email already registered');

  const mail = await waitForMail(stack.MAILPIT_URL, { to: email }, 20_000);
  const link = extractLinks(mail).find((l) => l.includes('/verify') && l.includes('type=signup'));
  expect(link, `confirmation link in: ${extractLinks(mail).join(', ')}`).toBeTruthy();

  // Before confirming: "Verify your Email first", and still signed out.
  const before = await browser.newContext({ baseURL });
  const beforePage = await before.newPage();
  await submitLogin(beforePage, email, password);
  await expect(toast(beforePage, 'Verify your Email first')).toBeVisible();
  await expect(beforePage).toHaveURL(/\/login$/);
  expect(
    await beforePage.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('sb-'))),
  ).toEqual([]);
  await before.close();

  // The link confirms and lands on /login (signed in by the link): only the notice, no empty form.
  const confirm = await browser.newContext({ baseURL });
  const confirmPage = await confirm.newPage();
  await confirmPage.goto(link!);
  await expect(confirmPage).toHaveURL(/\/login/);
  await expect(confirmPage.getByText(`You are signed in as ${name}`)).toBeVisible();
  await expect(confirmPage.getByRole('button', { name: 'Login', exact: true })).toHaveCount(0);
  await confirmPage.getByRole('link', { name: 'Go to Admin' }).click();
  await expect(confirmPage.getByRole('heading', { name: `Admin ${name}` })).toBeVisible();
  await confirm.close();

  // The link works once: used again, the login page says so.
  const reused = await browser.newContext({ baseURL });
  const reusedPage = await reused.newPage();
  await reusedPage.goto(link!);
  await expect(reusedPage).toHaveURL(/\/login/);
  await expect(reusedPage.getByText('This email link is invalid or has expired.')).toBeVisible();
  await reused.close();

  // A fresh browser signs in with the password and sees "Admin <their name>".
  const after = await browser.newContext({ baseURL });
  const afterPage = await after.newPage();
  await submitLogin(afterPage, email, password);
  await expect(toast(afterPage, 'Login Successful')).toBeVisible();
  await expect(afterPage).toHaveURL(/\/admin$/);
  await expect(afterPage.getByRole('heading', { name: `Admin ${name}` })).toBeVisible();
  await expect(afterPage.getByRole('tab', { name: 'Products' })).toBeVisible();
  await after.close();
});
