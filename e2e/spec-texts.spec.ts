// The admin failure messages (REQ-PROD-3/4/6/7/9, REQ-CAT-2 to REQ-CAT-5) in a real browser
// against the real stack. Each failure is caused the way it happens in the shop, never by faking
// a response: another admin changes the data between Get and Update/Delete, a category disappears
// while a product is being added, the connection drops (the browser goes offline), or the
// account loses its admin rights.
import type { Locator, Page } from '@playwright/test';
import type { StackEnv } from '../stack/stack.ts';
import { constants, texts } from '../src/adminTexts.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { createCategory, removeCategory } from './support/catalogue.ts';
import { expectToast, field, openTab, fillProduct } from './admin.helpers.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

let session = '';
const categories = new Set<string>();

test.beforeAll(async ({ stack }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
});

test.afterAll(async ({ serviceDb }) => {
  for (const title of categories) await removeCategory(serviceDb, title);
});

async function openAdminTab(
  page: Page,
  stack: StackEnv,
  tab: 'Products' | 'Catagories',
  asSession = session,
  name: string = demoAccounts.admin.name,
): Promise<Locator> {
  await useSession(page, stack, asSession);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: `Admin ${name}` })).toBeVisible();
  return openTab(page, tab);
}

function product(title: string, cat: string) {
  return {
    title,
    cat,
    price: '£9.99',
    com: 'Made for a failure test',
    image: '/products/football.svg',
    link: 'https://example.com/failure',
  };
}

async function newCategory(serviceDb: Parameters<typeof createCategory>[0], prefix: string) {
  const title = uniqueName(prefix);
  await createCategory(serviceDb, title);
  categories.add(title);
  return title;
}

test('product: add into a category removed meanwhile gives "Error in Adding New Product"', async ({
  page,
  stack,
  serviceDb,
}) => {
  const cat = await newCategory(serviceDb, 'E2E Vanishing Cat');
  const form = await openAdminTab(page, stack, 'Products');
  const p = product(uniqueName('E2E Orphan'), cat);
  await fillProduct(page, form, p);
  // Another admin deletes the category after this page listed it: the foreign key refuses.
  expect((await serviceDb.from('catagories').delete().eq('title', cat)).error).toBeNull();
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, texts.product.addFailed);
  expect((await serviceDb.from('products').select('id').eq('title', p.title)).data).toHaveLength(0);
});

test('product: update and delete of a product deleted meanwhile fail with the spec messages', async ({
  page,
  stack,
  serviceDb,
}) => {
  const cat = await newCategory(serviceDb, 'E2E Failure Cat');
  const p = product(uniqueName('E2E Gone Product'), cat);
  const form = await openAdminTab(page, stack, 'Products');

  for (const action of ['Update', 'Delete'] as const) {
    expect((await serviceDb.from('products').insert(p)).error).toBeNull();
    await field(form, 'Title').fill(p.title);
    await form.getByRole('button', { name: 'Get Product', exact: true }).click();
    await expectToast(page, texts.product.loaded);
    // Someone else removes it between Get and the write.
    expect((await serviceDb.from('products').delete().eq('title', p.title)).error).toBeNull();
    await form.getByRole('button', { name: action, exact: true }).click();
    if (action === 'Update') {
      await expectToast(page, 'Error in Updating Product');
    } else {
      await page
        .getByRole('dialog', { name: 'Delete product?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await expectToast(page, 'Product not Deleted');
    }
    // Nothing was written back, and the form keeps what was typed.
    expect((await serviceDb.from('products').select('id').eq('title', p.title)).data).toHaveLength(
      0,
    );
    await expect(field(form, 'Title')).toHaveValue(p.title);
    await form.getByRole('button', { name: 'Clear', exact: true }).click();
  }
});

test('product: offline, Get gives "Error Getting Product" and Add "Something went Wrong"', async ({
  page,
  stack,
  serviceDb,
}) => {
  // supabase-js retries a failed fetch a few times before giving up.
  test.setTimeout(90_000);
  const cat = await newCategory(serviceDb, 'E2E Offline Cat');
  const form = await openAdminTab(page, stack, 'Products');
  await fillProduct(page, form, product(uniqueName('E2E Offline'), cat));
  await page.context().setOffline(true);
  await form.getByRole('button', { name: 'Get Product', exact: true }).click();
  await expectToast(page, 'Error Getting Product');
  // Add fails already in its uniqueness look-up: the unexpected-failure message.
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Something went Wrong');
  await page.context().setOffline(false);
});

test('catagory: update and delete of a catagory deleted meanwhile fail with the spec messages', async ({
  page,
  stack,
  serviceDb,
}) => {
  const form = await openAdminTab(page, stack, 'Catagories');
  for (const action of ['Update', 'Delete'] as const) {
    const title = await newCategory(serviceDb, 'E2E Gone Cat');
    await field(form, 'Title').fill(title);
    await form.getByRole('button', { name: 'Get', exact: true }).click();
    await expectToast(page, texts.category.found);
    expect((await serviceDb.from('catagories').delete().eq('title', title)).error).toBeNull();
    if (action === 'Update') {
      await field(form, 'Title').fill(`${title} renamed`);
      await form.getByRole('button', { name: 'Update', exact: true }).click();
      await expectToast(page, 'Error in Updating Catagory');
      expect(
        (await serviceDb.from('catagories').select('id').eq('title', `${title} renamed`)).data,
      ).toHaveLength(0);
    } else {
      await form.getByRole('button', { name: 'Delete', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Delete catagory?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await expectToast(page, 'Catagory not Deleted');
    }
    await form.getByRole('button', { name: 'Clear', exact: true }).click();
  }
});

test('catagory: offline, Get gives "Error Getting Catagory" and Add "Something went Wrong"', async ({
  page,
  stack,
}) => {
  test.setTimeout(90_000);
  const form = await openAdminTab(page, stack, 'Catagories');
  await field(form, 'Title').fill(uniqueName('E2E Offline Cat'));
  await page.context().setOffline(true);
  await form.getByRole('button', { name: 'Get', exact: true }).click();
  await expectToast(page, 'Error Getting Catagory');
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, texts.unexpected);
  await page.context().setOffline(false);
});

test('catagory: an admin whose rights were withdrawn gets "Error in Adding New Catagory"', async ({
  page,
  stack,
  serviceDb,
}) => {
  // A second admin made the supported way (invite, then a confirmed account).
  const email = `e2e-revoked-${Date.now().toString(36)}@mar-online-store.test`;
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const name = 'Revoked Admin';
  expect((await serviceDb.from('admin_invites').insert({ email })).error).toBeNull();
  const created = await serviceDb.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { display_name: name },
  });
  expect(created.error).toBeNull();
  const userId = created.data.user!.id;
  try {
    const form = await openAdminTab(
      page,
      stack,
      'Catagories',
      await sessionFor(stack, email, password),
      name,
    );
    // The owner withdraws the rights while the admin page is open: the database refuses the write.
    expect((await serviceDb.from('admins').delete().eq('user_id', userId)).error).toBeNull();
    const title = uniqueName('E2E Refused Cat');
    categories.add(title);
    await field(form, 'Title').fill(title);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expectToast(page, 'Error in Adding New Catagory');
    expect((await serviceDb.from('catagories').select('id').eq('title', title)).data).toHaveLength(
      0,
    );
  } finally {
    await serviceDb.auth.admin.deleteUser(userId);
  }
});

test('toasts: success closes after 2 s, error after 4 s, the same error shown once', async ({
  page,
  stack,
}) => {
  // Toast lifetimes are read on Playwright's fake clock, never on the wall clock: the page's
  // timers move only when the test says so, so a busy machine cannot change the outcome.
  await page.clock.install();
  const form = await openAdminTab(page, stack, 'Catagories');
  const alerts = page.locator('.mantine-Notifications-root').getByRole('alert');
  await page.clock.pauseAt(Date.now() + 60_000);

  /** The toast stays for `ms` (less 100 ms) and is gone once `ms` (plus its exit) have passed. */
  const expectLifetime = async (toast: Locator, ms: number) => {
    await expect(toast).toBeVisible();
    await page.clock.runFor(ms - 100);
    await expect(toast).toBeVisible();
    await page.clock.runFor(1_000);
    await expect(toast).toHaveCount(0);
  };

  await field(form, 'Title').fill('Football');
  await form.getByRole('button', { name: 'Get', exact: true }).click();
  await expectLifetime(
    alerts.getByText(texts.category.found, { exact: true }),
    constants.toastSuccessMs,
  );

  await form.getByRole('button', { name: 'Clear', exact: true }).click();
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectLifetime(
    alerts.getByText(texts.validation.titleRequired, { exact: true }),
    constants.toastErrorMs,
  );

  // 25 identical errors while the clock stands still: one toast, not a stack (REQ-PATH-11). The
  // limit of 20 different toasts is checked in tests/unit/notify.test.tsx.
  const add = form.getByRole('button', { name: 'Add', exact: true });
  for (let i = 0; i < 25; i += 1) {
    await add.click();
    await expect(add).toBeEnabled();
  }
  await expect(alerts).toHaveCount(1);
});
