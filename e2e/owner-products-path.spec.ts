// The owner's path through the Products tab (REQ-PATH-10 to REQ-PATH-13), against the real local
// stack as the demo admin: the phone's list-first view, sorting headers, the category filter,
// "Did you mean", merged toasts that leave the table's end free, the CSV export without blank
// rows, the import preview row by row with a template, and a file that is not a picture.
import { expectAxeClean } from './support/axe.ts';
import type { Locator, Page } from '@playwright/test';
import { texts } from '../src/adminTexts.ts';
import { texts as csvTexts } from '../src/adminCsvTexts.ts';
import { parseCsv } from '../src/features/admin/csv/csvFormat.ts';
import { expectToast, field, openTab } from './admin.helpers.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

const f = texts.productForm;
const t = texts.productTable;
const csv = texts.catalogueCsv;
const preview = csvTexts.csvPreview;
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };

let session = '';
let category = '';
/** Eleven products: one more than a page, so the table has paging. */
let titles: string[] = [];

test.beforeAll(async ({ stack, serviceDb }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  category = uniqueName('E2E Path Cat');
  await createCategory(serviceDb, category);
  const word = uniqueName('Path Quill');
  titles = Array.from({ length: 11 }, (_, i) => `${word} ${String(i + 1).padStart(2, '0')}`);
  await insertProducts(
    serviceDb,
    titles.map((title, i) => ({
      title,
      cat: category,
      price: `£${i + 1}.00`,
      com: 'Owner path',
      image: '/products/football.svg',
      link: 'https://example.com/path',
    })),
  );
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
});

async function openProducts(page: Page, stack: Parameters<typeof useSession>[1]) {
  await useSession(page, stack, session);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: /^Admin / })).toBeVisible({ timeout: 30_000 });
  return openTab(page, 'Products');
}

async function showCategory(page: Page, tab: Locator, title: string) {
  await tab.getByRole('combobox', { name: t.category }).click();
  await page.getByRole('option', { name: title, exact: true }).click();
}

async function readDownload(page: Page, click: () => Promise<void>) {
  const download = page.waitForEvent('download');
  await click();
  const file = await download;
  const chunks: Buffer[] = [];
  for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
  return { name: file.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
}

test('REQ-PATH-10 on a phone the list comes first; Add product and a row’s Edit open the form', async ({
  page,
  stack,
}) => {
  await page.setViewportSize(PHONE);
  const tab = await openProducts(page, stack);
  const table = tab.getByRole('table', { name: f.listHeading });
  await showCategory(page, tab, category);
  await expect(table.locator('tbody tr')).toHaveCount(10);
  // The form waits behind its button; the list's first rows are on the first screen.
  await expect(field(tab, 'Title')).toBeHidden();
  const addProduct = tab.getByRole('button', { name: f.addProduct });
  await expect(addProduct).toBeInViewport();
  await expect(tab.getByRole('heading', { name: f.listHeading })).toBeInViewport();
  await expectAxeClean(page, 'products-phone-list', { reducedMotion: true, screenshot: true });

  await addProduct.click();
  await expect(field(tab, 'Title')).toBeVisible();
  await expect(field(tab, 'Title')).toHaveValue('');
  await tab.getByRole('button', { name: f.backToList }).click();
  await expect(field(tab, 'Title')).toBeHidden();

  await table.getByRole('button', { name: t.editRow(titles[2]!) }).click();
  await expectToast(page, 'Product Details Loaded');
  await expect(field(tab, 'Title')).toHaveValue(titles[2]!);
  await expect(field(tab, 'Title')).toBeInViewport();
  await expectAxeClean(page, 'products-phone-form', { reducedMotion: true, screenshot: true });
});

test('REQ-PATH-10 the whole header cell sorts; the category filter offers all catagories and names its clear button; Get in another case offers the product', async ({
  page,
  stack,
}) => {
  await page.setViewportSize(DESKTOP);
  const tab = await openProducts(page, stack);
  const table = tab.getByRole('table', { name: f.listHeading });
  const firstTitle = table.locator('tbody tr td:nth-child(2)').first();
  await showCategory(page, tab, category);
  await expect(firstTitle).toHaveText(titles[0]!);

  // A click in the header cell's far corner, away from its label and icon, sorts by price
  // (the table starts by price, low first, as the store does).
  const priceHeader = table.getByRole('columnheader', { name: /^Price/ });
  await expect(priceHeader).toHaveAttribute('aria-sort', 'ascending');
  const box = (await priceHeader.boundingBox())!;
  await page.mouse.click(box.x + box.width - 3, box.y + box.height - 3);
  await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(firstTitle).toHaveText(titles[10]!);
  // Measured again: the sorted rows may give the columns other widths, moving the cell.
  const sorted = (await priceHeader.boundingBox())!;
  await page.mouse.click(sorted.x + 2, sorted.y + 2);
  await expect(priceHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(firstTitle).toHaveText(titles[0]!);

  // The clear button has a name; "All catagories" is a choice of its own too.
  const filter = tab.getByRole('combobox', { name: t.category });
  await tab.getByRole('button', { name: t.clearCategory }).click();
  await expect(filter).toHaveValue('');
  await showCategory(page, tab, category);
  await filter.click();
  await page.getByRole('option', { name: t.allCategories, exact: true }).click();
  await expect(filter).toHaveValue('');
  await expect(tab.getByText('(11 products)')).toBeHidden();

  // Get Product with the title in lower case: the spec's message stays, the product is offered.
  const wanted = titles[4]!;
  await field(tab, 'Title').fill(wanted.toLowerCase());
  await tab.getByRole('button', { name: 'Get Product' }).click();
  await expect(
    page.locator('.mantine-Notifications-root').getByText('Product Not Foound', { exact: true }),
  ).toBeVisible();
  await expect(tab.getByText('Product Not Foound', { exact: true })).toBeVisible();
  const offer = tab.getByRole('button', { name: f.didYouMean(wanted) });
  await expect(offer).toBeVisible();
  await expectAxeClean(page, 'products-did-you-mean', { reducedMotion: true, screenshot: true });
  await offer.click();
  await expect(field(tab, 'Title')).toHaveValue(wanted);
  await expect(field(tab, 'Price')).toHaveValue('£5.00');
  await expect(offer).toBeHidden();
});

test('REQ-PATH-11 identical toasts merge and never cover the table’s last row or its paging', async ({
  page,
  stack,
}) => {
  // Two widths, 25 presses and six toasts each: longer than the default 45 s on a busy machine.
  test.setTimeout(120_000);
  // The toasts' lifetimes run on Playwright's fake clock, stopped while they are raised and
  // measured: a busy machine took longer than an error toast's 4 s between raising the first and
  // measuring, and the toast had gone.
  await page.clock.install();
  for (const [round, viewport] of [DESKTOP, PHONE].entries()) {
    await page.clock.resume();
    await page.setViewportSize(viewport);
    const tab = await openProducts(page, stack);
    await showCategory(page, tab, category);
    const table = tab.getByRole('table', { name: f.listHeading });
    await expect(table.locator('tbody tr')).toHaveCount(10);
    await page.clock.pauseAt(Date.now() + (round + 1) * 600_000);
    if (viewport === PHONE) await tab.getByRole('button', { name: f.addProduct }).click();
    const add = tab.getByRole('button', { name: 'Add', exact: true });
    for (let i = 0; i < 25; i += 1) {
      await add.click();
      await expect(add).toBeEnabled();
    }
    const alerts = page.locator('.mantine-Notifications-root').getByRole('alert');
    await expect(alerts.getByText('Title is Required', { exact: true })).toHaveCount(1);
    await expect(alerts).toHaveCount(1);
    // Different messages stack: a title too long, then a missing category.
    // Five more different messages, raised in quick succession (an error toast lasts 4 s).
    const update = tab.getByRole('button', { name: 'Update', exact: true });
    await update.click();
    await field(tab, 'Title').fill('x'.repeat(121));
    await add.click();
    await field(tab, 'Title').fill(uniqueName('Toast stack'));
    await add.click();
    await update.click();
    await tab.getByRole('button', { name: 'Get Product' }).click();
    await expect(alerts.getByText(f.titleTooLong, { exact: true })).toBeVisible();
    await expect(alerts.getByText('Product Not Foound', { exact: true })).toBeVisible();

    // Scrolled to the end, no toast covers the last row or the paging, and the paging works.
    const pagination = tab.locator('.mantine-Pagination-root');
    const last = table.locator('tbody tr').last();
    // Once the toasts have slid in: scroll to the end and measure in one go (a toast lasts 4 s).
    const parts = [await pagination.elementHandle(), await last.elementHandle()] as const;
    // On the stopped clock, frame callbacks and Mantine's transition timers run only when it
    // moves: let the toasts settle and the page make room for them (toastRoom.ts, one frame
    // after a change), well inside a toast's 4 s. Then scroll to the end, and one more frame.
    await page.evaluate(() =>
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
    );
    await page.clock.runFor(500);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.clock.runFor(40);
    const seen = await page.evaluate((elements) => {
      const toasts = [...document.querySelectorAll('.mantine-Notifications-root [role="alert"]')];
      const covered = elements.flatMap((element, i) => {
        const b = element!.getBoundingClientRect();
        return toasts
          .map((toast) => toast.getBoundingClientRect())
          .filter(
            (t) => b.left < t.right && t.left < b.right && b.top < t.bottom && t.top < b.bottom,
          )
          .map((t) => `${i === 0 ? 'paging' : 'last row'} under a toast at y ${Math.round(t.top)}`);
      });
      const pagingBottom = elements[0]!.getBoundingClientRect().bottom;
      return { toasts: toasts.length, covered, pagingInView: pagingBottom <= window.innerHeight };
    }, parts);
    // The merged "Title is Required" and the two different ones, one above the other.
    expect(seen.covered, `${viewport.width} px`).toEqual([]);
    expect(seen.toasts, `${viewport.width} px`).toBeGreaterThanOrEqual(3);
    expect(seen.pagingInView).toBe(true);
    await pagination.getByRole('button', { name: texts.a11y.page(2), exact: true }).click();
    await expect(table.locator('tbody tr')).toHaveCount(1);
  }
});

test('REQ-PATH-12 the export has no blank rows; the import preview lists each row; a template', async ({
  page,
  stack,
  serviceDb,
}) => {
  await page.setViewportSize(DESKTOP);
  const tab = await openProducts(page, stack);
  await showCategory(page, tab, category);
  await tab.getByRole('button', { name: csv.menuLabel }).click();
  const exported = await readDownload(page, () =>
    page.getByRole('menuitem', { name: csv.exportFiltered }).click(),
  );
  const lines = exported.text.replace(/^\uFEFF/, '').split('\r\n');
  expect(lines[0]).toBe('title,category,price,comment,image,link');
  expect(lines.slice(1, -1)).toHaveLength(11);
  expect(lines.filter((l) => l === '')).toEqual(['']);
  expect(lines.at(-1)).toBe('');

  // One new product, one changed price (its title in another case), one unchanged.
  const fresh = uniqueName('E2E Path New');
  const row = (title: string, price: string) =>
    `${title},${category},${price},Owner path,/products/football.svg,https://example.com/path`;
  const file = [
    'title,category,price,comment,image,link',
    row(fresh, '£3.00'),
    row(titles[1]!.toUpperCase(), '£9.50'),
    row(titles[2]!, '£3.00'),
  ].join('\r\n');
  await tab.getByRole('button', { name: csv.menuLabel }).click();
  await page.getByRole('menuitem', { name: csv.import }).click();
  const dialog = page.getByRole('dialog', { name: csv.dialogTitle });

  const template = await readDownload(page, () =>
    dialog.getByRole('button', { name: preview.template }).click(),
  );
  expect(template.name).toBe(preview.templateName);
  const parsed = parseCsv(template.text);
  expect(parsed.ok && parsed.rows.map(({ line: _, ...r }) => r)).toEqual([preview.templateExample]);

  await dialog.locator('input[type="file"]').setInputFiles({
    name: 'price-changes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(file),
  });
  await expect(dialog.getByText(preview.fileName('price-changes.csv'))).toBeVisible();
  await dialog.getByRole('radio', { name: csv.modeUpsert }).check();
  await expect(dialog.getByTestId('csv-import-counts')).toHaveText(
    csv.preview({ added: 1, updated: 1, unchanged: 1, refused: 0 }),
  );
  const changes = dialog.getByTestId('csv-import-changes');
  await expect(changes.locator('tbody tr')).toHaveCount(2);
  await expect(changes.locator('tbody tr').nth(0)).toHaveText(`2${fresh}${preview.willAdd}`);
  await expect(changes.locator('tbody tr').nth(1)).toHaveText(
    `3${titles[1]!.toUpperCase()}${preview.change(f.price, '£2.00', '£9.50')}`,
  );
  await expect(dialog.getByText(preview.fileName('price-changes.csv'))).toBeVisible();
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await expectAxeClean(page, 'csv-import-preview', {
      include: '[role="dialog"]',
      reducedMotion: true,
      screenshot: true,
    });
  }
  // Nothing is written before Apply.
  const before = await serviceDb.from('products').select('title').eq('title', fresh);
  expect(before.data).toEqual([]);
});

test('REQ-PATH-13 a file that is not a picture is named as such', async ({ page, stack }) => {
  await page.setViewportSize(DESKTOP);
  const tab = await openProducts(page, stack);
  const input = tab.getByTestId('image-dropzone').locator('input[type=file]');
  // Named and typed like a photo, but text inside.
  await input.setInputFiles({
    name: 'holiday.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('These are my notes, not a photo.'),
  });
  await expect(tab.getByTestId('image-upload-error')).toHaveText(texts.productImages.notAnImage);
  await expectAxeClean(page, 'not-a-picture', { reducedMotion: true, screenshot: true });
});
