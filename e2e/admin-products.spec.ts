// Admin Products tab against the real local stack, signed in as the seeded demo admin.
import type { Locator, Page } from '@playwright/test';
import { expect, test, demoAccounts } from './support/fixtures.ts';
import { createCategory, removeCategory } from './support/catalogue.ts';
import {
  expectToast,
  field,
  openTab,
  chooseCategory,
  fillProduct,
  getProduct,
} from './admin.helpers.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

let session = '';
let category = '';
let otherCategory = '';
/** A product that already exists, for the "title in use" checks. */
let takenTitle = '';

test.beforeAll(async ({ stack, serviceDb }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  category = uniqueName('E2E Prod Cat');
  otherCategory = uniqueName('E2E Prod Alt');
  await createCategory(serviceDb, category);
  await createCategory(serviceDb, otherCategory);
  takenTitle = uniqueName('E2E Taken Product');
  const { error } = await serviceDb.from('products').insert({
    title: takenTitle,
    cat: category,
    price: '£1.00',
    com: 'Already here',
    image: '/products/football.svg',
    link: 'https://example.com/taken',
  });
  if (error) throw new Error(error.message);
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
  await removeCategory(serviceDb, otherCategory);
});

async function openProducts(page: Page, stack: Parameters<typeof useSession>[1]): Promise<Locator> {
  await useSession(page, stack, session);
  await page.goto('/admin');
  await expect(
    page.getByRole('heading', { name: `Admin ${demoAccounts.admin.name}` }),
  ).toBeVisible();
  return openTab(page, 'Products');
}

test('every required field shows its spec message under the field', async ({ page, stack }) => {
  const form = await openProducts(page, stack);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  // The first failing field is also toasted (REQ-PROD-2).
  await expectToast(page, 'Title is Required');
  for (const message of [
    'Title is Required',
    'Catagory is Required',
    'Price is Required',
    'Comment is Required',
    'Image link is Required',
    'Link is required',
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }
  // Filling one field clears only its message; the others stay until fixed.
  await field(form, 'Price').fill('£3');
  await expect(form.getByText('Price is Required', { exact: true })).toHaveCount(0);
  await expect(form.getByText('Link is required', { exact: true })).toBeVisible();

  await field(form, 'Title').fill('');
  await form.getByRole('button', { name: 'Get Product' }).click();
  await expectToast(page, 'Title is Required');
});

test('Update and Delete before Get Product are refused with the spec messages', async ({
  page,
  stack,
}) => {
  const form = await openProducts(page, stack);
  await form.getByRole('button', { name: 'Update' }).click();
  await expectToast(page, 'Please Enter Title and Click on Get Product');
  await form.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Please Enter Title and Click on Get Product');

  await field(form, 'Title').fill(takenTitle);
  await form.getByRole('button', { name: 'Update' }).click();
  await expectToast(page, 'Click on Get Product');
  await form.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Click on Get Product');
  await expect(form.getByText('Click on Get Product', { exact: true })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A failed Get leaves nothing loaded either.
  await field(form, 'Title').fill(uniqueName('E2E No Such Product'));
  await form.getByRole('button', { name: 'Get Product' }).click();
  await expectToast(page, 'Product Not Foound');
  await form.getByRole('button', { name: 'Update' }).click();
  await expectToast(page, 'Click on Get Product');
});

test('add, get, update (same and new title), rename to a taken title, delete', async ({
  page,
  stack,
  serviceDb,
}) => {
  test.setTimeout(90_000);
  const form = await openProducts(page, stack);
  const title = uniqueName('E2E Product');
  const product = {
    title,
    cat: category,
    price: '£12.50',
    com: 'A size 5 match ball',
    image: '/products/match-football.svg',
    link: 'https://example.com/ball',
  };

  // Add, with the image preview showing the link.
  await fillProduct(page, form, product);
  await expect(form.getByRole('img', { name: 'Image preview' })).toHaveAttribute(
    'src',
    product.image,
  );
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Product Added');
  await expect(field(form, 'Title')).toHaveValue('');
  await expect(field(form, 'Price')).toHaveValue('');
  const added = await serviceDb.from('products').select('*').eq('title', title).single();
  expect(added.data).toMatchObject({
    cat: category,
    price: '£12.50',
    com: product.com,
    image: product.image,
    link: product.link,
  });

  // A second product with the same title (any case) is refused.
  await fillProduct(page, form, { ...product, title: title.toUpperCase() });
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Title Already in Use');
  await expect(form.getByText('Title Already in Use', { exact: true })).toBeVisible();

  // Get loads every field.
  await getProduct(page, form, title);
  await expect(field(form, 'Price')).toHaveValue('£12.50');
  await expect(field(form, 'Comment')).toHaveValue(product.com);
  await expect(field(form, 'Image link')).toHaveValue(product.image);
  await expect(field(form, 'Link')).toHaveValue(product.link);
  await expect(form.getByLabel('Category')).toHaveValue(category);

  // Update keeping the title; a required field emptied first is refused.
  await field(form, 'Comment').fill('');
  await form.getByRole('button', { name: 'Update' }).click();
  await expectToast(page, 'Comment is Required');
  await field(form, 'Comment').fill('Updated comment');
  await field(form, 'Price').fill('£10');
  await chooseCategory(page, form, otherCategory);
  await form.getByRole('button', { name: 'Update' }).click();
  await expectToast(page, 'Product Updated Successfully');
  await expect(field(form, 'Title')).toHaveValue('');
  const updated = await serviceDb.from('products').select('*').eq('id', added.data.id).single();
  expect(updated.data).toMatchObject({
    title,
    price: '£10',
    com: 'Updated comment',
    cat: otherCategory,
  });
  expect(updated.data.created_at).toBe(added.data.created_at);

  // Rename to a title another product has: refused, nothing changes.
  await getProduct(page, form, title);
  await field(form, 'Title').fill(takenTitle);
  await form.getByRole('button', { name: 'Update' }).click();
  await expectToast(page, 'Title Already in Use');
  expect(
    (await serviceDb.from('products').select('title').eq('id', added.data.id).single()).data?.title,
  ).toBe(title);

  // Rename to a free title.
  const renamed = uniqueName('E2E Renamed Product');
  await field(form, 'Title').fill(renamed);
  await form.getByRole('button', { name: 'Update' }).click();
  await expectToast(page, 'Product Updated Successfully');
  expect(
    (await serviceDb.from('products').select('title').eq('id', added.data.id).single()).data?.title,
  ).toBe(renamed);

  // Delete asks first; Cancel keeps the product.
  await getProduct(page, form, renamed);
  await form.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete product?' });
  await expect(dialog).toContainText(renamed);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await serviceDb.from('products').select('id').eq('id', added.data.id)).data).toHaveLength(
    1,
  );

  await form.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete product?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expectToast(page, 'Product Deleted Successfully');
  await expect(field(form, 'Title')).toHaveValue('');
  expect((await serviceDb.from('products').select('id').eq('id', added.data.id)).data).toHaveLength(
    0,
  );

  // Update after the delete needs a new Get.
  await field(form, 'Title').fill(renamed);
  await form.getByRole('button', { name: 'Update' }).click();
  await expectToast(page, 'Click on Get Product');
});

test('the product table searches by title, sorts, and a row loads like Get Product', async ({
  page,
  stack,
  serviceDb,
}) => {
  const prefix = uniqueName('E2E Table');
  const rows = [
    { title: `${prefix} Alpha`, price: '£30' },
    { title: `${prefix} Bravo`, price: '£10' },
    { title: `${prefix} Charlie`, price: 'ask us' },
  ].map((r) => ({
    ...r,
    cat: category,
    com: 'Table row',
    image: '/products/football.svg',
    link: 'https://example.com/t',
  }));
  const { error } = await serviceDb.from('products').insert(rows);
  if (error) throw new Error(error.message);

  const form = await openProducts(page, stack);
  const table = form.getByRole('table', { name: 'All products' });
  // The search now also looks in category and comment (REQ-SCALE-1), hence its new name.
  await form
    .getByRole('searchbox', { name: 'Search title, catagory or comment' })
    .fill(prefix.toLowerCase());
  // The first column is now the row's checkbox (bulk actions, REQ-SCALE-2).
  const titles = () => table.locator('tbody tr td:nth-child(2)').allTextContents();
  // Default order is the store's: price ascending, prices without a number last.
  await expect.poll(titles).toEqual([`${prefix} Bravo`, `${prefix} Alpha`, `${prefix} Charlie`]);
  await table.getByRole('button', { name: /^Price/ }).click();
  await expect.poll(titles).toEqual([`${prefix} Alpha`, `${prefix} Bravo`, `${prefix} Charlie`]);
  await table.getByRole('button', { name: /^Title/ }).click();
  await expect.poll(titles).toEqual([`${prefix} Alpha`, `${prefix} Bravo`, `${prefix} Charlie`]);
  await table.getByRole('button', { name: /^Title/ }).click();
  await expect.poll(titles).toEqual([`${prefix} Charlie`, `${prefix} Bravo`, `${prefix} Alpha`]);

  await table.getByRole('row', { name: new RegExp(`${prefix} Bravo`) }).click();
  await expectToast(page, 'Product Details Loaded');
  await expect(field(form, 'Title')).toHaveValue(`${prefix} Bravo`);
  await expect(field(form, 'Price')).toHaveValue('£10');

  // Loaded from the table, so Delete goes straight to the confirmation.
  await form.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete product?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expectToast(page, 'Product Deleted Successfully');
  await expect.poll(titles).toEqual([`${prefix} Charlie`, `${prefix} Alpha`]);
});
