// Two-factor sign-in across the team (REQ-MFA-2) against the real stack and its auth stand-in:
// a colleague who lost their phone has their factor removed by another admin on the Admins tab
// (asked first, logged), and the Settings switch that makes two-factor the rule for every admin
// asks before an admin without a factor locks themselves into enrolment. axe at 375 and 1280 px,
// light and dark; screenshots when MFA_SCREENSHOTS is set.
import { DESKTOP, PHONE, expectAxeClean } from './support/axe.ts';
import type { Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { texts as adminTexts } from '../src/adminTexts.ts';
import { texts } from '../src/adminTwoFactorTexts.ts';
import { nodeClient } from '../stack/client.ts';
import type { StackEnv } from '../stack/stack.ts';
import { createAdmin } from '../tests/support/stack.ts';
import { activityEntry, expectToast, newAccount, openTab, submitLogin } from './admin.helpers.ts';
import { expect, test } from './support/fixtures.ts';

// Up to 1.5 min on a busy 2-core runner: room for a slower one.
test.describe.configure({ timeout: 180_000 });

const tf = texts.colleague;
const rule = texts.requireAll;

/** axe at a phone's and a desktop's width, light and dark. */
function axeEverywhere(page: Page, name: string): Promise<void> {
  return expectAxeClean(page, name, {
    viewports: [PHONE, DESKTOP],
    reducedMotion: true,
    screenshot: true,
  });
}

/** A colleague who turned on two-factor sign-in in their own browser (over Auth's API). */
async function colleagueWithFactor(stack: StackEnv) {
  const colleague = await createAdmin({ ...newAccount('mfa'), name: 'Lost Phone Admin' }, stack);
  const api = nodeClient(stack.API_URL, stack.ANON_KEY);
  const signIn = await api.auth.signInWithPassword({
    email: colleague.email,
    password: colleague.password,
  });
  expect(signIn.error).toBeNull();
  const enrolled = await api.auth.mfa.enroll({ factorType: 'totp' });
  expect(enrolled.error).toBeNull();
  const verified = await api.auth.mfa.challengeAndVerify({
    factorId: enrolled.data!.id,
    code: OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(enrolled.data!.totp.secret) }),
  });
  expect(verified.error).toBeNull();
  return colleague;
}

test('REQ-MFA-2: a second admin removes a colleague’s factor (asked first, logged)', async ({
  page,
  stack,
  serviceDb,
}) => {
  const colleague = await colleagueWithFactor(stack);
  const admin = await createAdmin({ ...newAccount('mfa'), name: 'Helping Admin' }, stack);

  await submitLogin(page, admin.email, admin.password);
  await expect(page.getByRole('heading', { name: `Admin ${admin.name}` })).toBeVisible({
    timeout: 30_000,
  });
  const tab = await openTab(page, 'Admins');
  const card = tab.getByTestId('team-admin').filter({ hasText: colleague.email });
  await expect(card.getByText(tf.on, { exact: true })).toBeVisible();
  // One's own card offers no such button (own factors go through the Account tab).
  const own = tab.getByTestId('team-admin').filter({ hasText: admin.email });
  await expect(own.getByRole('button', { name: tf.remove })).toHaveCount(0);
  await axeEverywhere(page, 'team-factor');

  // Cancel changes nothing.
  await card.getByRole('button', { name: tf.remove }).click();
  const dialog = page.getByRole('dialog', { name: tf.removeTitle });
  await expect(dialog.getByText(tf.removeText(colleague.email))).toBeVisible();
  await axeEverywhere(page, 'team-factor-dialog');
  await dialog.getByRole('button', { name: adminTexts.admin.cancel }).click();
  await expect(dialog).toHaveCount(0);
  const before = await serviceDb.auth.admin.mfa.listFactors({ userId: colleague.id });
  expect(before.data?.factors.filter((f) => f.status === 'verified')).toHaveLength(1);

  await card.getByRole('button', { name: tf.remove }).click();
  await dialog.getByRole('button', { name: tf.remove }).click();
  await expectToast(page, tf.removed(colleague.email));
  await expect(card.getByText(tf.on, { exact: true })).toHaveCount(0);
  const after = await serviceDb.auth.admin.mfa.listFactors({ userId: colleague.id });
  expect(after.error).toBeNull();
  expect(after.data?.factors ?? []).toEqual([]);

  // The Activity tab says who removed whose factor.
  const activity = await openTab(page, 'Activity');
  await expect(
    activityEntry(activity, adminTexts.activity.kind.admin_factor_removed, colleague.email),
  ).toBeVisible();

  // The colleague signs in with the password alone and has the admin area again.
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await submitLogin(page, colleague.email, colleague.password);
  await expect(page.getByRole('heading', { name: `Admin ${colleague.name}` })).toBeVisible({
    timeout: 30_000,
  });
  for (const id of [admin.id, colleague.id]) await serviceDb.auth.admin.deleteUser(id);
});

test('REQ-MFA-2: the store-wide rule asks an admin without a factor before it is saved', async ({
  page,
  stack,
  serviceDb,
}) => {
  const admin = await createAdmin({ ...newAccount('mfa'), name: 'Rule Admin' }, stack);
  await submitLogin(page, admin.email, admin.password);
  await expect(page.getByRole('heading', { name: `Admin ${admin.name}` })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('tab', { name: adminTexts.settings.tab }).click();
  const tab = page.getByRole('tabpanel', { name: adminTexts.settings.tab });
  const toggle = tab.getByRole('switch', { name: rule.label });
  await expect(toggle).not.toBeChecked();
  await expect(tab.getByText(rule.hint)).toBeVisible();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await tab.getByRole('button', { name: adminTexts.settings.save }).click();

  const dialog = page.getByRole('dialog', { name: rule.selfTitle });
  await expect(dialog.getByText(rule.selfText)).toBeVisible();
  await expect(dialog.getByRole('button', { name: rule.selfConfirm })).toBeVisible();
  await axeEverywhere(page, 'require-all-dialog');
  // Not confirmed: nothing is saved, and the admin area stays usable.
  await dialog.getByRole('button', { name: adminTexts.admin.cancel }).click();
  await expect(dialog).toHaveCount(0);
  const { data } = await serviceDb.from('store_settings').select('admins_require_mfa');
  expect(data).toEqual([{ admins_require_mfa: false }]);
  await axeEverywhere(page, 'require-all');
  await serviceDb.auth.admin.deleteUser(admin.id);
});
