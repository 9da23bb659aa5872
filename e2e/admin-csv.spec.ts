// CSV export and import on the admin Products tab, against the real stack as the demo admin:
// the export downloads a UTF-8 file with BOM; the import dialog previews counts and the form's
// messages, passes axe at 375 and 1280 px in both colour schemes, and applies with a report.
import { DESKTOP, PHONE, expectAxeClean } from './support/axe.ts';
import type { Page } from '@playwright/test';
import { texts } from '../src/adminTexts.ts';
import { expectToast, openTab } from './admin.helpers.ts';
import { createCategory, removeCategory } from './support/catalogue.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

const t = texts.catalogueCsv;
let session = '';
let category = '';

test.beforeAll(async ({ stack, serviceDb }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  category = uniqueName('E2E Csv Cat');
  await createCategory(serviceDb, category);
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
});

async function openCsvMenu(page: Page, stack: Parameters<typeof useSession>[1]) {
  await useSession(page, stack, session);
  await page.goto('/admin');
  await openTab(page, 'Products');
  await page.getByRole('button', { name: t.menuLabel }).click();
}

test('Export CSV downloads the catalogue as UTF-8 with a BOM', async ({ page, stack }) => {
  await openCsvMenu(page, stack);
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: t.export }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^catalogue-\d{4}-\d{2}-\d{2}\.csv$/);
  const chunks: Buffer[] = [];
  for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8');
  expect(text).toContain('title,category,price,comment,image,link\r\n');
  expect(text).toContain('Match Football Size 5');
});

test('Import CSV previews counts and messages, then applies and reports', async ({
  page,
  stack,
  serviceDb,
}) => {
  const good = [uniqueName('E2E Csv Good'), uniqueName('E2E Csv Good')];
  const line = (title: string, cat = category) =>
    `${title},${cat},£5.00,Imported,/products/match-football.svg,https://seller.example.com/csv`;
  const csv = [
    'title,category,price,comment,image,link',
    line(good[0]!),
    line(''),
    line(good[1]!),
    line('Match Football Size 5'),
  ].join('\r\n');

  await openCsvMenu(page, stack);
  await page.getByRole('menuitem', { name: t.import }).click();
  const dialog = page.getByRole('dialog', { name: t.dialogTitle });
  await dialog.locator('input[type="file"]').setInputFiles({
    name: 'products.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${csv}`),
  });
  const counts = dialog.getByTestId('csv-import-counts');
  await expect(counts).toHaveText(t.preview({ added: 2, updated: 0, unchanged: 0, refused: 2 }));
  const refused = dialog.getByTestId('csv-import-refused');
  await expect(refused).toContainText(texts.validation.titleRequired);
  await expect(refused).toContainText(texts.validation.titleInUse);
  // Nothing is written before Apply.
  const before = await serviceDb.from('products').select('title').in('title', good);
  expect(before.data).toEqual([]);

  await expectAxeClean(page, 'import', {
    include: '[role="dialog"]',
    viewports: [PHONE, DESKTOP],
    reducedMotion: true,
    screenshot: 'viewport',
  });

  await dialog.getByRole('button', { name: t.apply }).click();
  await expect(counts).toHaveText(t.report({ added: 2, updated: 0, unchanged: 0, refused: 2 }));
  await expectToast(page, t.applied);
  const after = await serviceDb.from('products').select('title').in('title', good);
  expect(after.data?.map((r) => r.title).sort()).toEqual([...good].sort());
});
