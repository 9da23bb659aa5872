// The admin product table served by the database (REQ-SCALE-1, REQ-SCALE-2): search (accents,
// typos, comment), category filter, sort, pages, a row loading the form, bulk move and delete with
// the count in the confirmation, and deleting a category that still has products by moving them
// first.
import type { Page } from '@playwright/test';
import { expect, test, demoAccounts } from './support/fixtures.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { expectToast, field, openTab } from './admin.helpers.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

let session = '';
let category = '';
let otherCategory = '';
let word = '';

test.beforeAll(async ({ stack, serviceDb }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  category = uniqueName('E2E Table Cat');
  otherCategory = uniqueName('E2E Table Alt');
  await createCategory(serviceDb, category);
  await createCategory(serviceDb, otherCategory);
  // A made-up word (letters only) that no seeded product has.
  word = `Zorbulak${uniqueName('')
    .replace(/[^a-z]/gi, '')
    .slice(-4)}`;
  await insertProducts(
    serviceDb,
    Array.from({ length: 12 }, (_, i) => ({
      title: `${word} Crème ${String(i + 1).padStart(2, '0')}`,
      cat: category,
      price: `£${i + 1}.00`,
      com: i === 0 ? 'Has a hidden Quokkaberry note' : 'Table row',
      image: '/products/football.svg',
      link: 'https://example.com/t',
    })),
  );
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
  await removeCategory(serviceDb, otherCategory);
});

async function openProducts(page: Page, stack: Parameters<typeof useSession>[1]) {
  await useSession(page, stack, session);
  await page.goto('/admin');
  return openTab(page, 'Products');
}

test('search, filter, sort and pages come from the database; a row loads the form', async ({
  page,
  stack,
}) => {
  // Many steps, each a round trip to the database, on a shared 2-core machine.
  test.setTimeout(120_000);
  const form = await openProducts(page, stack);
  const table = form.getByRole('table', { name: 'All products' });
  const titles = () => table.locator('tbody tr td:nth-child(2)').allTextContents();
  const search = form.getByRole('searchbox', { name: 'Search title, catagory or comment' });

  // Lower case, no accent, one letter wrong: still found; 12 matches, 10 on the first page.
  await search.fill(`${word.slice(0, 5)}x${word.slice(6)} creme`.toLowerCase());
  await expect.poll(titles).toHaveLength(10);
  await expect(form.getByText('(12 products)')).toBeVisible();
  expect((await titles())[0]).toBe(`${word} Crème 01`);
  await form.getByRole('button', { name: 'Page 2' }).click();
  await expect.poll(titles).toEqual([`${word} Crème 11`, `${word} Crème 12`]);

  // Sorting starts again on page 1: price descending.
  await table.getByRole('button', { name: /^Price/ }).click();
  await expect.poll(async () => (await titles())[0]).toBe(`${word} Crème 12`);

  // A word of the comment only.
  await search.fill('quokkaberry');
  await expect.poll(titles).toEqual([`${word} Crème 01`]);

  // The category filter: nothing of ours in the other category.
  await search.fill(word);
  await form.getByRole('combobox', { name: 'Show catagory' }).click();
  await page.getByRole('option', { name: otherCategory, exact: true }).click();
  await expect(form.getByText('No products match')).toBeVisible();
  await form.getByRole('combobox', { name: 'Show catagory' }).click();
  await page.getByRole('option', { name: category, exact: true }).click();
  await expect.poll(titles).toHaveLength(10);

  // A row loads the form; its checkbox does not.
  await table.getByRole('checkbox', { name: `Select ${word} Crème 12` }).check();
  await expect(field(form, 'Title')).toHaveValue('');
  await table.getByRole('row', { name: new RegExp(`${word} Crème 12`) }).click();
  await expectToast(page, 'Product Details Loaded');
  await expect(field(form, 'Title')).toHaveValue(`${word} Crème 12`);
  await expect(field(form, 'Price')).toHaveValue('£12.00');
});

test('bulk move and delete of the checked rows, with the count in the confirmation', async ({
  page,
  stack,
  serviceDb,
}) => {
  test.setTimeout(120_000);
  const form = await openProducts(page, stack);
  const table = form.getByRole('table', { name: 'All products' });
  await form.getByRole('searchbox', { name: 'Search title, catagory or comment' }).fill(word);
  await expect(table.locator('tbody tr')).toHaveCount(10);

  // Three rows to another category.
  for (const n of ['01', '02', '03']) {
    await table.getByRole('checkbox', { name: `Select ${word} Crème ${n}` }).check();
  }
  const bar = form.getByRole('region', { name: '3 selected' });
  await bar.getByRole('combobox', { name: 'Move to catagory' }).click();
  await page.getByRole('option', { name: otherCategory, exact: true }).click();
  await bar.getByRole('button', { name: 'Move', exact: true }).click();
  await expectToast(page, '3 products moved');
  const moved = await serviceDb.from('products').select('title').eq('cat', otherCategory);
  expect(moved.data?.map((r) => r.title).sort()).toEqual(
    ['01', '02', '03'].map((n) => `${word} Crème ${n}`),
  );

  // Select the whole page, then delete: the confirmation says how many.
  await table.getByRole('checkbox', { name: 'Select all products on this page' }).check();
  await form
    .getByRole('region', { name: '10 selected' })
    .getByRole('button', { name: 'Delete selected' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Delete products?' });
  await expect(dialog).toContainText('This permanently deletes 10 selected products.');
  await dialog.getByRole('button', { name: 'Delete 10 products' }).click();
  await expectToast(page, '10 products deleted');
  await expect(table.locator('tbody tr')).toHaveCount(2);
  const left = await serviceDb
    .from('products')
    .select('id', { count: 'exact', head: true })
    .in('cat', [category, otherCategory]);
  expect(left.count).toBe(2);
});

test('deleting a category that still has products offers to move them first', async ({
  page,
  stack,
  serviceDb,
}) => {
  test.setTimeout(90_000);
  const doomed = uniqueName('E2E Doomed Cat');
  await createCategory(serviceDb, doomed);
  const productTitle = uniqueName('E2E Doomed Product');
  await insertProducts(serviceDb, [
    {
      title: productTitle,
      cat: doomed,
      price: '£3',
      com: 'Moves before its category goes',
      image: '/products/football.svg',
      link: 'https://example.com/d',
    },
  ]);
  await useSession(page, stack, session);
  await page.goto('/admin');
  const form = await openTab(page, 'Catagories');
  await form
    .getByRole('table', { name: 'All catagories' })
    .getByRole('row', { name: `${doomed} 1` })
    .click();
  await expectToast(page, 'Catagory Founded');
  await form.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Catagory still has products' });
  await expect(dialog).toContainText(`"${doomed}" still has 1 product.`);
  await dialog.getByRole('combobox', { name: 'Move the products to' }).click();
  await page.getByRole('option', { name: otherCategory, exact: true }).click();
  await dialog.getByRole('button', { name: 'Move and delete' }).click();
  await expectToast(page, 'Catagory Deleted Successfully');
  const product = await serviceDb.from('products').select('cat').eq('title', productTitle).single();
  expect(product.data?.cat).toBe(otherCategory);
  expect((await serviceDb.from('catagories').select('id').eq('title', doomed)).data).toEqual([]);
});
