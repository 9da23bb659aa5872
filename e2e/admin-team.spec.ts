// Admins tab end to end, through the mail catcher: a misspelt invitation is withdrawn (its link
// dies with its account) and the address invited again, its e-mail resent; an admin removed while
// signed in elsewhere is told so on their next save.
import type { Locator, Page } from '@playwright/test';
import type { StackEnv } from '../stack/stack.ts';
import { texts } from '../src/adminTexts.ts';
import { extractLinks, listMail, waitForMail } from '../tests/support/mail.ts';
import { demoAccounts, expect, test, uniqueName } from './support/fixtures.ts';
import { expectToast, field, openTab, sessionFor, useSession } from './admin.helpers.ts';

const t = texts.team;
let session = '';
/** Accounts and invites a test created, deleted afterwards. */
const createdEmails = new Set<string>();

test.beforeAll(async ({ stack }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
});

test.afterAll(async ({ serviceDb }) => {
  const { data } = await serviceDb.auth.admin.listUsers({ page: 1, perPage: 1000 });
  for (const user of data?.users ?? []) {
    if (user.email && createdEmails.has(user.email)) await serviceDb.auth.admin.deleteUser(user.id);
  }
  await serviceDb
    .from('admin_invites')
    .delete()
    .in('email', [...createdEmails]);
});

async function openAdmin(page: Page, stack: StackEnv, who: string, as = session): Promise<void> {
  await useSession(page, stack, as);
  await page.goto('/admin');
  // Generous: this machine runs several stacks at once, and the admin check waits for Auth.
  await expect(page.getByRole('heading', { name: `${texts.admin.heading} ${who}` })).toBeVisible({
    timeout: 30_000,
  });
}

async function signUpAdmin(page: Page, name: string, email: string): Promise<void> {
  const form = await openTab(page, 'SignUP');
  await field(form, texts.signup.name).fill(name);
  await field(form, texts.signup.email).fill(email);
  await field(form, texts.signup.password).fill('secret123');
  await form.getByRole('button', { name: texts.signup.submit }).click();
  await expectToast(page, texts.signup.success);
}

const inviteCard = (tab: Locator, email: string) =>
  tab.getByTestId('team-invite').filter({ hasText: email });

async function confirmInDialog(page: Page, button: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}

test('a misspelt invitation is withdrawn and the address invited again; Resend mails it again', async ({
  page,
  browser,
  baseURL,
  stack,
}) => {
  test.setTimeout(90_000);
  const id = uniqueName('x').split(' ')[1];
  const email = `e2e-typo-${id}@mar-online-store.test`;
  createdEmails.add(email);

  await openAdmin(page, stack, demoAccounts.admin.name);
  await signUpAdmin(page, 'Misspelt Admin', email);
  const firstMail = await waitForMail(stack.MAILPIT_URL, { to: email }, 20_000);
  const deadLink = extractLinks(firstMail).find((l) => l.includes('/verify'));

  const tab = await openTab(page, 'Admins');
  const card = inviteCard(tab, email);
  await expect(card).toContainText(t.unconfirmed);
  await expect(card).toContainText(demoAccounts.admin.name);
  await card.getByRole('button', { name: t.withdraw }).click();
  await confirmInDialog(page, t.withdraw);
  await expectToast(page, t.withdrawn);
  await expect(card).toHaveCount(0);

  // The withdrawn invitation's link confirms nothing any more (opened as its recipient would).
  const recipient = await browser.newContext({ baseURL });
  const recipientPage = await recipient.newPage();
  await recipientPage.goto(deadLink!);
  await expect(recipientPage.getByText('This email link is invalid or has expired.')).toBeVisible();
  await recipient.close();

  await signUpAdmin(page, 'Invited Again', email);
  const again = await openTab(page, 'Admins');
  await expect(inviteCard(again, email)).toContainText(t.unconfirmed);

  // Resend: a second mail with a fresh link (Auth allows one per address per second here).
  const before = (await listMail(stack.MAILPIT_URL)).filter((m) =>
    m.to.some((a) => a.address === email),
  ).length;
  await page.waitForTimeout(1100);
  await inviteCard(again, email).getByRole('button', { name: t.resend }).click();
  await expectToast(page, t.resent);
  await expect(inviteCard(again, email)).toContainText(t.lastSent);
  await expect
    .poll(
      async () =>
        (await listMail(stack.MAILPIT_URL)).filter((m) => m.to.some((a) => a.address === email))
          .length,
    )
    .toBe(before + 1);
});

test('an admin removed while signed in elsewhere is told so on their next save', async ({
  page,
  browser,
  baseURL,
  stack,
  serviceDb,
}) => {
  test.setTimeout(90_000);
  const id = uniqueName('x').split(' ')[1];
  const email = `e2e-removed-${id}@mar-online-store.test`;
  const name = `Removed Admin ${id}`;
  const password = `pw-${id}`;
  createdEmails.add(email);
  const invite = await serviceDb.from('admin_invites').insert({ email });
  expect(invite.error).toBeNull();
  const created = await serviceDb.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { display_name: name },
  });
  expect(created.error).toBeNull();

  // The other admin, in a second browser, with the Catagories form ready.
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await openAdmin(otherPage, stack, name, await sessionFor(stack, email, password));
  const form = await openTab(otherPage, 'Catagories');
  await field(form, texts.categoryForm.title).fill(`Removed ${id}`);

  await openAdmin(page, stack, demoAccounts.admin.name);
  const tab = await openTab(page, 'Admins');
  const card = tab.getByTestId('team-admin').filter({ hasText: email });
  // Nobody can remove themselves: the own card has no Remove button.
  await expect(
    tab
      .getByTestId('team-admin')
      .filter({ hasText: demoAccounts.admin.email })
      .getByRole('button', { name: t.remove }),
  ).toHaveCount(0);
  await card.getByRole('button', { name: t.remove }).click();
  await confirmInDialog(page, t.remove);
  await expectToast(page, t.removed);
  await expect(card).toHaveCount(0);

  await form.getByRole('button', { name: texts.categoryForm.add, exact: true }).click();
  await expectToast(otherPage, t.noLongerAdmin);
  await expect(otherPage.getByRole('alert').filter({ hasText: t.rightsRemoved })).toBeVisible();
  await other.close();

  // A removed admin can be invited again: SignUP makes them an admin at once.
  const form2 = await openTab(page, 'SignUP');
  await field(form2, texts.signup.name).fill(name);
  await field(form2, texts.signup.email).fill(email);
  await field(form2, texts.signup.password).fill('secret123');
  await form2.getByRole('button', { name: texts.signup.submit }).click();
  await expectToast(page, t.reinstated);
  const back = await openTab(page, 'Admins');
  await expect(back.getByTestId('team-admin').filter({ hasText: email })).toBeVisible();
});
