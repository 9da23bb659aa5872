// Two-factor sign-in for admins (REQ-MFA-1) against the real stack and its auth stand-in: turn it
// on from the Account tab with a code computed here from the key the page shows (as an
// authenticator app would), sign out, sign in with password and code, remove it with a code.
// axe at 375 and 1280 px, light and dark, on the enrolment and the code step.
import { DESKTOP, PHONE, expectAxeClean } from './support/axe.ts';
import type { Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { texts } from '../src/adminTwoFactorTexts.ts';
import { texts as adminTexts } from '../src/adminTexts.ts';
import { nodeClient } from '../stack/client.ts';
import { createAdmin } from '../tests/support/stack.ts';
import { expectToast, field, nav, newAccount, openTab, submitLogin } from './admin.helpers.ts';
import { expect, test } from './support/fixtures.ts';

// Up to 1.6 min on a busy 2-core runner (codes wait for a fresh 30 s step): room for a slower one.
test.describe.configure({ timeout: 240_000 });

const t = texts.twoFactor;
const STEP_MS = 30_000;

/**
 * A code the stand-in accepts now and that was not used yet: codes are single-use, and it takes
 * the step before and after the current one. Never within 4 s of a step's end (the code could go
 * stale on its way).
 */
async function freshCode(secret: string, used: Set<string>): Promise<string> {
  for (;;) {
    const left = STEP_MS - (Date.now() % STEP_MS);
    if (left < 4_000) await new Promise((r) => setTimeout(r, left + 200));
    for (const offset of [0, STEP_MS, -STEP_MS]) {
      const code = OTPAuth.TOTP.generate({
        secret: OTPAuth.Secret.fromBase32(secret),
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
        timestamp: Date.now() + offset,
      });
      if (!used.has(code)) {
        used.add(code);
        return code;
      }
    }
    await new Promise((r) => setTimeout(r, STEP_MS - (Date.now() % STEP_MS) + 200));
  }
}

/** A code that is valid at no step near now (an hour ahead). */
const wrongCode = (secret: string) =>
  OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    timestamp: Date.now() + 3_600_000,
  });

const codeField = (page: Page) => page.getByRole('textbox', { name: new RegExp(t.code) });

/** axe at a phone's and a desktop's width, light and dark. */
function axeEverywhere(page: Page, name: string): Promise<void> {
  return expectAxeClean(page, name, {
    viewports: [PHONE, DESKTOP],
    reducedMotion: true,
    screenshot: true,
  });
}

test('REQ-MFA-1: turn on two-factor sign-in, sign in with the code, remove it with a code', async ({
  page,
  stack,
  serviceDb,
}) => {
  const admin = await createAdmin({ ...newAccount('mfa'), name: 'Two Factor Admin' }, stack);
  const used = new Set<string>();
  const heading = page.getByRole('heading', { name: `Admin ${admin.name}` });

  await submitLogin(page, admin.email, admin.password);
  await expect(heading).toBeVisible({ timeout: 30_000 });
  const account = await openTab(page, 'Account');
  await account.getByRole('button', { name: t.turnOn }).click();

  // The QR code for the app, and the same key as text for apps and password managers.
  const qr = account.getByRole('img', { name: t.qrAlt });
  await expect(qr).toBeVisible();
  // The picture itself loads (not just its alt text in a broken image).
  await expect
    .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const secret = await account.getByRole('textbox', { name: t.secretLabel }).inputValue();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(codeField(page)).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeField(page)).toHaveAttribute('inputmode', 'numeric');
  await axeEverywhere(page, 'enrol');

  await codeField(page).fill(wrongCode(secret));
  await account.getByRole('button', { name: t.confirm }).click();
  await expect(account.getByRole('alert').filter({ hasText: t.wrongCode })).toBeVisible();
  await codeField(page).fill(await freshCode(secret, used));
  await account.getByRole('button', { name: t.confirm }).click();
  await expectToast(page, t.turnedOn);
  await expect(account.getByText(/^On since /)).toBeVisible();
  await axeEverywhere(page, 'on');

  // Sign out; the password alone now leads to the code step.
  await nav(page).getByRole('button', { name: adminTexts.nav.logout }).click();
  await expect(nav(page).getByRole('button', { name: adminTexts.nav.logout })).toHaveCount(0);
  await submitLogin(page, admin.email, admin.password);
  await expect(page.getByText(t.signInIntro)).toBeVisible({ timeout: 30_000 });
  await expect(heading).toHaveCount(0);
  await axeEverywhere(page, 'code-step');

  // "Use another account" ends this half-signed-in session.
  await page.getByRole('button', { name: t.otherAccount }).click();
  await expect(field(page, adminTexts.login.email)).toBeVisible();
  await submitLogin(page, admin.email, admin.password);
  await codeField(page).fill(wrongCode(secret));
  await page.getByRole('button', { name: t.verify }).click();
  await expect(page.getByRole('alert').filter({ hasText: t.wrongCode })).toBeVisible();
  await codeField(page).fill(await freshCode(secret, used));
  await page.getByRole('button', { name: t.verify }).click();
  await expect(heading).toBeVisible({ timeout: 30_000 });

  // Remove: only with a current code.
  const again = await openTab(page, 'Account');
  await again.getByRole('button', { name: t.remove }).click();
  await codeField(page).fill(await freshCode(secret, used));
  await again.getByRole('button', { name: t.removeConfirm }).click();
  await expectToast(page, t.removed);
  await expect(again.getByRole('button', { name: t.turnOn })).toBeVisible();
  const { data, error } = await serviceDb.auth.admin.mfa.listFactors({ userId: admin.id });
  expect(error).toBeNull();
  expect(data?.factors ?? []).toEqual([]);
  await serviceDb.auth.admin.deleteUser(admin.id);
});

test('REQ-MFA-2: a half-signed-in admin (password only) opening /admin gets the code step', async ({
  page,
  stack,
  serviceDb,
}) => {
  const admin = await createAdmin({ ...newAccount('mfa'), name: 'Half Signed Admin' }, stack);
  const used = new Set<string>();
  // The factor is made over the API, as another browser would have.
  const api = nodeClient(stack.API_URL, stack.ANON_KEY);
  const signIn = await api.auth.signInWithPassword({
    email: admin.email,
    password: admin.password,
  });
  expect(signIn.error).toBeNull();
  const enrolled = await api.auth.mfa.enroll({ factorType: 'totp' });
  expect(enrolled.error).toBeNull();
  const secret = enrolled.data!.totp.secret;
  const verified = await api.auth.mfa.challengeAndVerify({
    factorId: enrolled.data!.id,
    code: await freshCode(secret, used),
  });
  expect(verified.error).toBeNull();

  await submitLogin(page, admin.email, admin.password);
  await expect(page.getByText(t.signInIntro)).toBeVisible({ timeout: 30_000 });
  // Leaving the step for /admin: the database says only the code is missing (my_admin_access).
  await page.goto('/admin');
  await expect(page.getByText(t.signInIntro)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(adminTexts.admin.notAdmin)).toHaveCount(0);
  await codeField(page).fill(await freshCode(secret, used));
  await page.getByRole('button', { name: t.verify }).click();
  await expect(page.getByRole('heading', { name: `Admin ${admin.name}` })).toBeVisible({
    timeout: 30_000,
  });
  await serviceDb.auth.admin.deleteUser(admin.id);
});

test('REQ-MFA-4: five wrong codes end the sign-in; the step says so and leads back to the password', async ({
  page,
  stack,
  serviceDb,
}) => {
  const admin = await createAdmin({ ...newAccount('mfa'), name: 'Locked Out Admin' }, stack);
  const api = nodeClient(stack.API_URL, stack.ANON_KEY);
  await api.auth.signInWithPassword({ email: admin.email, password: admin.password });
  const enrolled = await api.auth.mfa.enroll({ factorType: 'totp' });
  const secret = enrolled.data!.totp.secret;
  const verified = await api.auth.mfa.challengeAndVerify({
    factorId: enrolled.data!.id,
    code: await freshCode(secret, new Set()),
  });
  expect(verified.error).toBeNull();

  await submitLogin(page, admin.email, admin.password);
  await expect(page.getByText(t.signInIntro)).toBeVisible({ timeout: 30_000 });
  for (let i = 0; i < 5; i++) {
    await codeField(page).fill(wrongCode(secret));
    await page.getByRole('button', { name: t.verify }).click();
    await expect(page.getByRole('alert').filter({ hasText: t.wrongCode })).toBeVisible();
  }
  // The sixth is refused by the per-account limit (Auth's hook), which ends every session.
  await codeField(page).fill(wrongCode(secret));
  await page.getByRole('button', { name: t.verify }).click();
  await expect(page.getByRole('alert').filter({ hasText: t.locked })).toBeVisible();
  await expect(codeField(page)).toHaveCount(0);
  await axeEverywhere(page, 'locked');
  await page.getByRole('button', { name: t.signInAgain }).click();
  await expect(field(page, adminTexts.login.email)).toBeVisible();
  // The API session made above ended too.
  const { error } = await api.auth.getUser();
  expect(error).not.toBeNull();
  await serviceDb.auth.admin.deleteUser(admin.id);
});
