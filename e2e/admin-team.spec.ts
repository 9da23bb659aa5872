// Admins tab end to end, through the mail catcher: a misspelt invitation is withdrawn (its link
// dies with its account) and the address invited again, its e-mail resent and confirmed; an admin
// removed while signed in elsewhere is told so on their next save. The Activity tab shows each
// step with who did it.
import type { Locator, Page } from '@playwright/test';
import type { StackEnv } from '../stack/stack.ts';
import { texts } from '../src/adminTexts.ts';
import { extractLinks, listMail, waitForMail } from '../tests/support/mail.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import {
  demoAdminFile,
  activityEntry,
  expectToast,
  fillSignup,
  newAccount,
  openTab,
} from './admin.helpers.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { createAdmin } from '../tests/support/stack.ts';

const t = texts.team;
/** The demo admin's session; accounts the tests make, deleted afterwards. */
const file = demoAdminFile();
const createdEmails = file.created;

async function openAdmin(
  page: Page,
  stack: StackEnv,
  who: string,
  as = file.session(),
): Promise<void> {
  await useSession(page, stack, as);
  await page.goto('/admin');
  // Generous: this machine runs several stacks at once, and the admin check waits for Auth.
  await expect(page.getByRole('heading', { name: `${texts.admin.heading} ${who}` })).toBeVisible({
    timeout: 30_000,
  });
}

async function signUpAdmin(page: Page, name: string, email: string, answer: string): Promise<void> {
  await fillSignup(await openTab(page, 'SignUP'), name, email, 'secret123');
  await expectToast(page, answer);
}

/** The Activity tab's entry of this kind and e-mail shows who did it. */
async function expectLogged(
  tab: Locator,
  kind: keyof typeof texts.activity.kind,
  email: string,
  actor: string,
  count = 1,
): Promise<void> {
  const entries = activityEntry(tab, texts.activity.kind[kind], email);
  await expect(entries).toHaveCount(count);
  for (const entry of await entries.all()) {
    await expect(entry).toContainText(`${texts.activity.by} ${actor}`);
    // An admin by display name, the e-mail on hover (REQ-PATH-14).
    if (actor === demoAccounts.admin.name) {
      await expect(entry.getByText(actor, { exact: true })).toHaveAttribute(
        'title',
        demoAccounts.admin.email,
      );
    }
  }
}

const inviteCard = (tab: Locator, email: string) =>
  tab.getByTestId('team-invite').filter({ hasText: email });

async function confirmInDialog(page: Page, button: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}

test('a misspelt invitation is withdrawn, the address invited again and confirmed from a resent mail; the log shows each step', async ({
  page,
  browser,
  baseURL,
  stack,
}) => {
  test.setTimeout(120_000);
  const { email } = newAccount('e2e-typo');
  createdEmails.add(email);

  await openAdmin(page, stack, demoAccounts.admin.name);
  await signUpAdmin(page, 'Misspelt Admin', email, texts.signup.success);
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

  await signUpAdmin(page, 'Invited Again', email, texts.signup.success);
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

  // The resent link confirms the account (opened as its recipient would).
  const resent = await waitForMail(stack.MAILPIT_URL, { to: email });
  const liveLink = extractLinks(resent).find((l) => l.includes('/verify'));
  const confirmer = await browser.newContext({ baseURL });
  const confirmerPage = await confirmer.newPage();
  await confirmerPage.goto(liveLink!);
  await expect(confirmerPage.getByRole('link', { name: 'Go to Admin' })).toBeVisible();
  await confirmer.close();

  // The log: invited twice and withdrawn by this admin; confirmed by the Auth server (no actor).
  const log = await openTab(page, 'Activity');
  await expectLogged(log, 'admin_invited', email, demoAccounts.admin.name, 2);
  await expectLogged(log, 'invite_withdrawn', email, demoAccounts.admin.name);
  await expectLogged(log, 'admin_confirmed', email, texts.activity.system);
  // Newest first: the confirmation came last.
  await expect(log.getByTestId('activity-entry').filter({ hasText: email }).first()).toContainText(
    texts.activity.kind.admin_confirmed,
  );
});

test('an admin removed while signed in elsewhere is told so on their next save; the log shows the removal and the new invite', async ({
  page,
  browser,
  baseURL,
  stack,
}) => {
  test.setTimeout(120_000);
  const account = newAccount('e2e-removed', 'Removed Admin');
  const { email, name, password } = account;
  createdEmails.add(email);
  await createAdmin(account, stack);

  // The other admin, in a second browser, with the Catagories form ready.
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await openAdmin(otherPage, stack, name, await sessionFor(stack, email, password));
  const form = await openTab(otherPage, 'Catagories');
  await form
    .getByRole('textbox', { name: texts.categoryForm.title, exact: true })
    .fill(`Removed ${account.id}`);

  await openAdmin(page, stack, demoAccounts.admin.name);
  const tab = await openTab(page, 'Admins');
  const card = tab.getByTestId('team-admin').filter({ hasText: email });
  // Nobody can remove themselves: the own card has no Remove button.
  await expect(
    tab
      .getByTestId('team-admin')
      .filter({ has: page.getByText(demoAccounts.admin.email, { exact: true }) })
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
  await signUpAdmin(page, name, email, t.reinstated);
  const back = await openTab(page, 'Admins');
  await expect(back.getByTestId('team-admin').filter({ hasText: email })).toBeVisible();

  // The log: invited and confirmed by the service role (System) when the test made the account,
  // removed by this admin, then invited again and at once an admin again, both by this admin
  // (named by display name, REQ-PATH-14).
  const log = await openTab(page, 'Activity');
  const me = demoAccounts.admin.name;
  await expectLogged(log, 'admin_removed', email, me);
  const invited = activityEntry(log, texts.activity.kind.admin_invited, email);
  await expect(invited).toHaveCount(2);
  await expect(invited.first()).toContainText(`${texts.activity.by} ${me}`);
  await expect(invited.last()).toContainText(`${texts.activity.by} ${texts.activity.system}`);
  const confirmed = activityEntry(log, texts.activity.kind.admin_confirmed, email);
  await expect(confirmed).toHaveCount(2);
  await expect(confirmed.first()).toContainText(`${texts.activity.by} ${me}`);
  await expect(confirmed.last()).toContainText(`${texts.activity.by} ${texts.activity.system}`);
});
