// Contact Us in a real browser against the throwaway stack: the message goes through the
// contact edge function into the database and the mail catcher, and the admin sees it in the
// Messages tab; empty fields and a failing function show the spec's messages.
import type { Page } from '@playwright/test';
import pg from 'pg';
import type { StackEnv } from '../stack/stack.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { waitForMail } from '../tests/support/mail.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

const STORE_ADDRESS = 'shop@mar-online-store.test';

function form(page: Page) {
  const scope = page.getByRole('form', { name: 'Contact Us' });
  return {
    name: scope.getByRole('textbox', { name: 'Name', exact: true }),
    email: scope.getByRole('textbox', { name: 'Email', exact: true }),
    message: scope.getByRole('textbox', { name: 'Message', exact: true }),
    send: scope.getByRole('button', { name: 'Send', exact: true }),
  };
}

function toast(page: Page, text: string) {
  return page.locator('.mantine-Notifications-root').getByText(text, { exact: true });
}

async function storedRows(
  env: StackEnv,
  email: string,
): Promise<{ name: string; message: string; delivery_status: string }[]> {
  const db = new pg.Client({ connectionString: env.DB_URL });
  await db.connect();
  try {
    return (
      await db.query(
        'select name, message, delivery_status from public.contact_messages where email = $1',
        [email],
      )
    ).rows;
  } finally {
    await db.end();
  }
}

/** Counts requests the page makes to the contact function. */
function countFunctionCalls(page: Page): () => number {
  let n = 0;
  page.on('request', (req) => {
    if (req.url().includes('/functions/v1/contact') && req.method() === 'POST') n++;
  });
  return () => n;
}

test('a visitor sends a message: success toast, form cleared, mail to the store, listed for the admin', async ({
  page,
  stack,
}) => {
  const name = uniqueName('E2E Visitor');
  const email = `${name.replace(/\W+/g, '.').toLowerCase()}@example.test`;
  const message = `Do you have the ${name} football boots in size 9?\nThanks!`;

  await page.goto('/contact');
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
  await expect(page.getByText(/thank you/i)).toBeVisible();
  const f = form(page);
  await f.name.fill(name);
  await f.email.fill(email);
  await f.message.fill(message);
  await f.send.click();

  await expect(toast(page, 'Email Sent Successfully')).toBeVisible();
  // A lasting thank-you panel replaces the form (REQ-PATH-9); a new message starts empty.
  await page.getByRole('button', { name: 'Send another message' }).click();
  await expect(f.name).toHaveValue('');
  await expect(f.email).toHaveValue('');
  await expect(f.message).toHaveValue('');

  const mail = await waitForMail(
    stack.MAILPIT_URL,
    { to: STORE_ADDRESS, subject: `Contact form: ${name}` },
    15_000,
  );
  expect(String(mail.headers['reply-to'])).toContain(email);
  expect(mail.text).toContain(`Name: ${name}`);
  expect(mail.text).toContain(`Email: ${email}`);
  expect(mail.text).toContain(message);
  expect(await storedRows(stack, email)).toEqual([{ name, message, delivery_status: 'sent' }]);

  // The admin reads it in the fourth tab, with its delivery status.
  await useSession(
    page,
    stack,
    await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password),
  );
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Messages' }).click();
  const row = page.getByTestId('contact-message-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByText('sent', { exact: true })).toBeVisible();
  await expect(row.getByText(email)).toBeVisible();
});

test('empty fields show "Please fill all fields!"; a malformed e-mail is stopped by the browser', async ({
  page,
  stack,
}) => {
  const calls = countFunctionCalls(page);
  await page.goto('/contact');
  const f = form(page);
  await f.send.click();
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toHaveText('Please fill all fields!');

  await f.name.fill('Ann');
  await f.message.fill('Hello');
  await f.send.click();
  await expect(alert).toHaveText('Please fill all fields!');

  // type=email: the browser refuses to submit and says why.
  const email = `not-an-address-${Date.now()}`;
  await f.email.fill(email);
  await f.send.click();
  expect(await f.email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
  await page.waitForTimeout(300);
  expect(calls()).toBe(0);
  await expect(toast(page, 'Email Sent Successfully')).toHaveCount(0);
  expect(await storedRows(stack, email)).toEqual([]);
});

test('a failing contact function shows "Something went wrong! Try again." and keeps the input', async ({
  page,
  stack,
}) => {
  // Forced failure: the function's URL answers 500 for this page only.
  await page.route('**/functions/v1/contact', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'forced failure' }),
    }),
  );
  const name = uniqueName('E2E Failure');
  const email = `${name.replace(/\W+/g, '.').toLowerCase()}@example.test`;
  await page.goto('/contact');
  const f = form(page);
  await f.name.fill(name);
  await f.email.fill(email);
  await f.message.fill('This one will fail.');
  await f.send.click();

  await expect(toast(page, 'Something went wrong! Try again.')).toBeVisible();
  await expect(toast(page, 'Email Sent Successfully')).toHaveCount(0);
  await expect(f.name).toHaveValue(name);
  await expect(f.message).toHaveValue('This one will fail.');
  await expect(f.send).toBeEnabled();
  expect(await storedRows(stack, email)).toEqual([]);
});
