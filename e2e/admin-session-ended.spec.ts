// REQ-MFA-5: a write refused because the session ended says so, leads to /login and keeps what
// was typed. Two browsers of one admin: "Sign out everywhere" in one; the other, still on
// /admin with a token that has not expired, tries Update and Add.
import { expectAxeClean } from './support/axe.ts';
import type { Locator, Page } from '@playwright/test';
import { texts as offerTexts } from '../src/adminOfferTexts.ts';
import { texts } from '../src/adminTexts.ts';
import { createAdmin, sql } from '../tests/support/stack.ts';
import { uniqueName } from '../tests/support/names.ts';
import { expectToast, field, getProduct, newAccount, submitLogin, toast } from './admin.helpers.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { expect, test } from './support/fixtures.ts';

test.describe.configure({ timeout: 120_000 });

// The admin area's heading ("Admin <name>"), not the login page's "Admin Login".
const heading = (page: Page) => page.getByRole('heading', { name: /^Admin (?!Login$)/ });
// The requirement's words (also texts.session.ended).
const ENDED = 'Your session has ended. Sign in again to save your changes.';
const ended = (scope: Page | Locator) => scope.getByRole('alert').filter({ hasText: ENDED });

/** The state with the notice at 1280 and 375 px, light and dark: axe clean, and a screenshot. */
function checkNotice(page: Page): Promise<void> {
  return expectAxeClean(page, 'session-ended', {
    viewports: [
      { width: 1280, height: 900 },
      { width: 375, height: 900 },
    ],
    beforeScan: () => expect(ended(page)).toBeInViewport(),
    screenshot: 'viewport',
  });
}

test('REQ-MFA-5 signed out everywhere: Update and Add say the session ended, keep the input, and save after signing in again', async ({
  page,
  browser,
  baseURL,
  stack,
  serviceDb,
}) => {
  const admin = await createAdmin({ ...newAccount(), name: 'Session Admin' }, stack);
  const cat = uniqueName('E2E Session Cat');
  const product = uniqueName('E2E Session Product');
  const newCat = uniqueName('E2E Session New Cat');
  await createCategory(serviceDb, cat);
  await insertProducts(serviceDb, [
    {
      title: product,
      cat,
      price: '3.00',
      com: 'Before the session ended',
      image: '/products/football.svg',
      link: 'https://example.com/session',
    },
  ]);
  const laptop = await browser.newContext({ baseURL });
  const lp = await laptop.newPage();
  try {
    await submitLogin(lp, admin.email, admin.password);
    await expect(heading(lp)).toBeVisible({ timeout: 30_000 });
    const products = lp.getByRole('tabpanel', { name: texts.admin.tabs.products });
    await getProduct(lp, products, product);
    await field(products, 'Comment').fill('Typed while signed out elsewhere');

    // The other browser ends every session of the account.
    await submitLogin(page, admin.email, admin.password);
    await page.getByRole('tab', { name: texts.account.tab }).click();
    await page.getByRole('button', { name: texts.account.signOutEverywhere }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: texts.account.signOutEverywhere })
      .click();
    await expect(page).toHaveURL(/\/login$/);
    // Logout on purpose: no "session ended" there.
    await expect(ended(page)).toHaveCount(0);

    // Update: the session ended, not "changed by someone else".
    await products.getByRole('button', { name: texts.productForm.update, exact: true }).click();
    await expect(ended(lp)).toBeVisible();
    await expect(toast(lp, texts.product.changedSinceGet)).toHaveCount(0);
    await expect(toast(lp, texts.team.noLongerAdmin)).toHaveCount(0);
    await expect(field(products, 'Comment')).toHaveValue('Typed while signed out elsewhere');
    await expect(field(products, 'Title')).toHaveValue(product);

    // Add (Catagories): the same, and not "no longer a store admin".
    await lp.getByRole('tab', { name: texts.admin.tabs.categories }).click();
    const categories = lp.getByRole('tabpanel', { name: texts.admin.tabs.categories });
    await field(categories, 'Title').fill(newCat);
    await categories.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(ended(lp)).toBeVisible();
    await expect(toast(lp, texts.team.noLongerAdmin)).toHaveCount(0);
    await expect(lp.getByText(texts.team.rightsRemoved)).toHaveCount(0);
    await expect(field(categories, 'Title')).toHaveValue(newCat);
    const none = await serviceDb.from('catagories').select('id').eq('title', newCat);
    expect(none.data).toEqual([]);
    await checkNotice(lp);

    // The way back: the link to /login, then the same page, the same tab, the draft restored.
    const link = ended(lp).getByRole('link', { name: texts.session.signIn });
    await expect(link).toHaveAttribute('href', '/login');
    await link.click();
    await expect(lp).toHaveURL(/\/login$/);
    await field(lp, 'Email').fill(admin.email);
    await field(lp, 'Password').fill(admin.password);
    await lp.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(heading(lp)).toBeVisible({ timeout: 30_000 });
    await expect(lp).toHaveURL(/\/admin$/);
    await expect(ended(lp)).toHaveCount(0);
    await expect(lp.getByRole('tab', { name: texts.admin.tabs.categories })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(field(categories, 'Title')).toHaveValue(newCat);
    await categories.getByRole('button', { name: 'Add', exact: true }).click();
    await expectToast(lp, texts.category.added);
    const added = await serviceDb.from('catagories').select('id').eq('title', newCat);
    expect(added.data).toHaveLength(1);

    await lp.getByRole('tab', { name: texts.admin.tabs.products }).click();
    await expect(field(products, 'Comment')).toHaveValue('Typed while signed out elsewhere');
    await products.getByRole('button', { name: texts.productForm.update, exact: true }).click();
    await expectToast(lp, texts.product.updated);
    const saved = await serviceDb.from('products').select('com').eq('title', product);
    expect(saved.data).toEqual([{ com: 'Typed while signed out elsewhere' }]);
    // Saved: the drafts are gone (nothing comes back on the next visit).
    const drafts = await lp.evaluate(() =>
      Object.keys(sessionStorage).filter((k) => k.startsWith('mar-draft:')),
    );
    expect(drafts).toEqual([]);
  } finally {
    await laptop.close();
    await removeCategory(serviceDb, cat);
    await removeCategory(serviceDb, newCat);
  }
});

test('REQ-MFA-5 signed out everywhere: Settings and a seller dialog say the session ended and keep the input', async ({
  page,
  browser,
  baseURL,
  stack,
  serviceDb,
}) => {
  const admin = await createAdmin({ ...newAccount(), name: 'Session Settings Admin' }, stack);
  const shop = uniqueName('E2E Session Shop');
  const youtubeUrl = `https://www.youtube.com/@mar-session-${Date.now().toString(36)}`;
  const laptop = await browser.newContext({ baseURL });
  const lp = await laptop.newPage();
  try {
    await submitLogin(lp, admin.email, admin.password);
    await expect(heading(lp)).toBeVisible({ timeout: 30_000 });
    await lp.getByRole('tab', { name: texts.settings.tab }).click();
    const settings = lp.getByRole('tabpanel', { name: texts.settings.tab });
    await field(settings, texts.settings.youtube).fill(youtubeUrl);

    await submitLogin(page, admin.email, admin.password);
    await page.getByRole('tab', { name: texts.account.tab }).click();
    await page.getByRole('button', { name: texts.account.signOutEverywhere }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: texts.account.signOutEverywhere })
      .click();
    await expect(page).toHaveURL(/\/login$/);

    // Settings: no "changed elsewhere" (the dead session's update matched no row).
    await settings.getByRole('button', { name: texts.settings.save }).click();
    await expect(ended(lp)).toBeVisible();
    await expect(toast(lp, texts.settings.changedElsewhere)).toHaveCount(0);
    await expect(field(settings, texts.settings.youtube)).toHaveValue(youtubeUrl);
    const stored = await serviceDb.from('store_settings').select('youtube_url').eq('id', true);
    expect(stored.data?.[0]?.youtube_url).not.toBe(youtubeUrl);

    // A dialog says it too (its overlay hides the page) and stays open with what was typed.
    await lp.getByRole('tab', { name: texts.priceChecks.sellersTab }).click();
    const sellers = lp.getByRole('tabpanel', { name: texts.priceChecks.sellersTab });
    await sellers.getByRole('button', { name: offerTexts.sellers.add }).click();
    const dialog = lp.getByRole('dialog', { name: offerTexts.sellers.add });
    await field(dialog, offerTexts.sellers.name).fill(shop);
    await field(dialog, offerTexts.sellers.site).fill('https://session-shop.example');
    await dialog.getByRole('button', { name: offerTexts.sellers.save }).click();
    await expect(ended(dialog)).toBeVisible();
    await expect(field(dialog, offerTexts.sellers.name)).toHaveValue(shop);
    await expect(dialog.getByRole('link', { name: texts.session.signIn })).toHaveAttribute(
      'href',
      '/login',
    );
    const none = await serviceDb.from('sellers').select('id').eq('name', shop);
    expect(none.data).toEqual([]);
  } finally {
    await laptop.close();
    await serviceDb.from('sellers').delete().eq('name', shop);
  }
});

test('REQ-MFA-5 signed out in another tab: the admin area says the session ended and keeps the form, without a write', async ({
  page,
  stack,
}) => {
  const admin = await createAdmin({ ...newAccount(), name: 'Session Tab Admin' }, stack);
  const title = uniqueName('E2E Session Tab Draft');
  await submitLogin(page, admin.email, admin.password);
  await expect(heading(page)).toBeVisible({ timeout: 30_000 });
  const products = page.getByRole('tabpanel', { name: texts.admin.tabs.products });
  await field(products, 'Title').fill(title);

  // Logout in a second tab of the same browser: supabase-js tells this tab (SIGNED_OUT).
  const other = await page.context().newPage();
  await other.goto('/admin');
  await expect(heading(other)).toBeVisible({ timeout: 30_000 });
  await other
    .getByRole('navigation', { name: 'Main' })
    .first()
    .getByRole('button', { name: 'Logout' })
    .click();
  await expect(other).toHaveURL(/\/login$/);
  await expect(ended(other)).toHaveCount(0);

  // This tab stays on /admin, says why, and keeps what was typed.
  await expect(ended(page)).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(field(products, 'Title')).toHaveValue(title);
  await other.close();
});

test('REQ-MFA-5 REQ-MFA-2 a session without the now-needed second factor: a save says the session ended', async ({
  page,
  stack,
  serviceDb,
}) => {
  const admin = await createAdmin({ ...newAccount(), name: 'Session Factor Admin' }, stack);
  const title = uniqueName('E2E Session Factor Cat');
  try {
    await submitLogin(page, admin.email, admin.password);
    await expect(heading(page)).toBeVisible({ timeout: 30_000 });
    // A verified factor appears for the account (turned on from another device): this aal1
    // session no longer has admin rights until it signs in with the code.
    await sql(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
                                     updated_at, secret)
       values (gen_random_uuid(), $1, 'Phone', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP')`,
      [admin.id],
      stack,
    );
    await page.getByRole('tab', { name: texts.admin.tabs.categories }).click();
    const categories = page.getByRole('tabpanel', { name: texts.admin.tabs.categories });
    await field(categories, 'Title').fill(title);
    await categories.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(ended(page)).toBeVisible();
    await expect(toast(page, texts.team.noLongerAdmin)).toHaveCount(0);
    await expect(field(categories, 'Title')).toHaveValue(title);
    const none = await serviceDb.from('catagories').select('id').eq('title', title);
    expect(none.data).toEqual([]);
  } finally {
    await sql('delete from auth.mfa_factors where user_id = $1', [admin.id], stack);
  }
});
