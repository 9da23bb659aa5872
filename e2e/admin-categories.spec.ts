// Admin Catagories tab against the real local stack, signed in as the seeded demo admin.
import type { Locator, Page } from '@playwright/test';
import type { StackEnv } from '../stack/stack.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { removeCategory } from './support/catalogue.ts';
import { expectToast, field, openTab } from './admin.helpers.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

let session = '';
/** Every category title a test may have created, removed (with its products) afterwards. */
const created = new Set<string>();

test.beforeAll(async ({ stack }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
});

test.afterAll(async ({ serviceDb }) => {
  for (const title of created) await removeCategory(serviceDb, title);
});

async function openCategories(page: Page, stack: StackEnv): Promise<Locator> {
  await useSession(page, stack, session);
  await page.goto('/admin');
  await expect(
    page.getByRole('heading', { name: `Admin ${demoAccounts.admin.name}` }),
  ).toBeVisible();
  return openTab(page, 'Catagories');
}

async function getCategory(page: Page, form: Locator, title: string): Promise<void> {
  await field(form, 'Title').fill(title);
  await form.getByRole('button', { name: 'Get', exact: true }).click();
  await expectToast(page, 'Catagory Founded');
}

test('category messages before a Get: required title, Click on Get Catagory, not found', async ({
  page,
  stack,
}) => {
  const form = await openCategories(page, stack);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Title is Required');
  await expect(form.getByText('Title is Required', { exact: true })).toBeVisible();
  await form.getByRole('button', { name: 'Get', exact: true }).click();
  await expectToast(page, 'Title is Required');

  for (const button of ['Update', 'Delete']) {
    await field(form, 'Title').fill('');
    await form.getByRole('button', { name: button, exact: true }).click();
    await expectToast(page, 'Click on Get Catagory');
    await field(form, 'Title').fill('Football');
    await form.getByRole('button', { name: button, exact: true }).click();
    await expectToast(page, 'Click on Get Catagory');
  }
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await field(form, 'Title').fill(uniqueName('E2E No Such Cat'));
  await form.getByRole('button', { name: 'Get', exact: true }).click();
  await expectToast(page, 'Catagory Not Foound');
});

test('add, duplicate, get, rename (taken and free), delete refused while in use, delete', async ({
  page,
  stack,
  serviceDb,
}) => {
  test.setTimeout(90_000);
  const form = await openCategories(page, stack);
  const list = form.getByRole('table', { name: 'All catagories' });
  const title = uniqueName('E2E Cat');
  created.add(title);

  await field(form, 'Title').fill(title);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Catagory Added');
  await expect(field(form, 'Title')).toHaveValue('');
  await expect(list.getByRole('row', { name: `${title} 0` })).toBeVisible();

  // The same title again, in another case, is in use.
  await field(form, 'Title').fill(title.toLowerCase());
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Title Already in Use');

  // The Products tab offers the new category at once.
  const products = await openTab(page, 'Products');
  await products.getByLabel('Category').click();
  await expect(page.getByRole('option', { name: title, exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await openTab(page, 'Catagories');

  // Rename to a seeded category's title is refused.
  await getCategory(page, form, title);
  await field(form, 'Title').fill('Football');
  await form.getByRole('button', { name: 'Update', exact: true }).click();
  await expectToast(page, 'Title Already in Use');
  await expect(form.getByText('Title Already in Use', { exact: true })).toBeVisible();

  // A product in the category, then a rename: the product follows (ON UPDATE CASCADE).
  const productTitle = uniqueName('E2E Cat Product');
  const inserted = await serviceDb.from('products').insert({
    title: productTitle,
    cat: title,
    price: '£2',
    com: 'In a test category',
    image: '/products/football.svg',
    link: 'https://example.com/p',
  });
  expect(inserted.error).toBeNull();
  const renamed = uniqueName('E2E Cat Renamed');
  created.add(renamed);
  await field(form, 'Title').fill(renamed);
  await form.getByRole('button', { name: 'Update', exact: true }).click();
  await expectToast(page, 'Catagory Updated Successfully');
  await expect(field(form, 'Title')).toHaveValue('');
  const moved = await serviceDb.from('products').select('cat').eq('title', productTitle).single();
  expect(moved.data?.cat).toBe(renamed);
  // The list refreshes with the product count; the old title is gone.
  await expect(list.getByRole('row', { name: `${renamed} 1` })).toBeVisible();
  await expect(list.getByRole('row', { name: new RegExp(`^${title} `) })).toHaveCount(0);

  // Delete while a product uses it: instead of "permanently deletes" and a refusal afterwards
  // (the old behaviour), it offers to move the product first; cancelled, the category stays.
  await list.getByRole('row', { name: `${renamed} 1` }).click();
  await expectToast(page, 'Catagory Founded');
  await expect(field(form, 'Title')).toHaveValue(renamed);
  await form.getByRole('button', { name: 'Delete', exact: true }).click();
  const moveFirst = page.getByRole('dialog', { name: 'Catagory still has products' });
  await expect(moveFirst).toContainText(`"${renamed}" still has 1 product.`);
  await moveFirst.getByRole('button', { name: 'Cancel' }).click();
  await expect(moveFirst).toHaveCount(0);
  expect((await serviceDb.from('catagories').select('id').eq('title', renamed)).data).toHaveLength(
    1,
  );

  // Without products it goes.
  await serviceDb.from('products').delete().eq('title', productTitle);
  await form.getByRole('button', { name: 'Delete', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Delete catagory?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expectToast(page, 'Catagory Deleted Successfully');
  await expect(field(form, 'Title')).toHaveValue('');
  expect((await serviceDb.from('catagories').select('id').eq('title', renamed)).data).toHaveLength(
    0,
  );
  await expect(list.getByRole('row', { name: new RegExp(`^${renamed} `) })).toHaveCount(0);
});
