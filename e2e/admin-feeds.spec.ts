// The admin's Feeds tab (REQ-FEED-1, REQ-FEED-5, docs/decisions/0243) in the running app on the
// real local stack: a feed source pointing at a feed server on loopback (the test stack lets the
// feed-sync function reach loopback: FEED_SYNC_ALLOW_LOOPBACK), its columns previewed and mapped
// by the Awin preset, Run now with the real function, the run's report, a product created from an
// unmatched row, another row ignored, a held price change applied, the notice above the tabs;
// the form's own and the database's refusals; axe at 375 and 1280 px, light and dark.
import { expectAxeClean } from './support/axe.ts';
import type { Locator, Page } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { texts } from '../src/adminFeedTexts.ts';
import { expectToast, field, openProductsTab } from './admin.helpers.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { sessionFor } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

const t = texts.feeds;
const ff = texts.feedForm;
const um = texts.feedUnmatched;
const hd = texts.feedHeld;

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 900 } });

/** A GTIN-13 with its check digit (the database refuses a wrong one). */
function gtin13(twelve: string): string {
  const sum = [...twelve].reduce((n, d, i) => n + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

const category = uniqueName('E2E Feeds');
const id = category.split(' ').at(-1)!.toLowerCase();
const digits = String(Date.now()).slice(-9);
const shopHost = `feedshop-${id}.example.com`;
const brandHost = `brand-${id}.example.com`;
const shop = `Feed shop ${id}`;
const feedName = `Awin feed ${id}`;
const held = `${category} Held`;
const changed = `${category} Changed`;
const fresh = `${category} New Ball`;
const ignored = `${category} Ignore me`;
const gtins = ['1', '2', '3', '4'].map((n) => gtin13(`${n}00${digits}`));

const HEADER =
  'merchant_product_id,ean,product_name,aw_deep_link,search_price,currency,delivery_cost,in_stock,merchant_image_url,brand_name';
const feedCsv = [
  HEADER,
  `SKU-1,${gtins[0]},${held},https://${shopHost}/p1,30.00,GBP,0,1,https://${shopHost}/1.jpg,Acme`,
  `SKU-2,${gtins[1]},${changed},https://${shopHost}/p2,11.00,GBP,2.99,1,https://${shopHost}/2.jpg,Acme`,
  `SKU-3,${gtins[2]},${fresh},https://${shopHost}/p3,25.00,GBP,,1,https://${shopHost}/3.jpg,Acme`,
  `SKU-4,${gtins[3]},${ignored},https://${shopHost}/p4,5.00,GBP,,0,https://${shopHost}/4.jpg,Acme`,
].join('\n');

let session = '';
let server: http.Server;
let feedUrl = '';

test.beforeAll(async ({ stack, serviceDb }) => {
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/feed.csv')) {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(feedCsv);
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.csv`;

  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  await createCategory(serviceDb, category);
  const { data: seller, error } = await serviceDb
    .from('sellers')
    .insert({ name: shop, site: `https://${shopHost}` })
    .select('id')
    .single();
  expect(error).toBeNull();
  const product = (title: string, gtin: string, path: string) => ({
    title,
    cat: category,
    price: '£10.00',
    com: 'Feeds browser test',
    image: '/products/football.svg',
    link: `https://${brandHost}/${path}`,
    gtin,
  });
  await insertProducts(serviceDb, [
    product(held, gtins[0]!, 'a'),
    product(changed, gtins[1]!, 'b'),
  ]);
  // The feed's seller already offers both at £10.00.
  const { data: rows } = await serviceDb.from('products').select('id,title').eq('cat', category);
  const offers = (rows as { id: string; title: string }[]).map((p) => ({
    product_id: p.id,
    seller_id: (seller as { id: string }).id,
    link: `https://${shopHost}/p${p.title === held ? 1 : 2}`,
    price_gbp: 10,
    price_confirmed_at: new Date().toISOString(),
    price_source: 'admin',
    availability: 'in_stock',
  }));
  const inserted = await serviceDb.from('offers').insert(offers);
  expect(inserted.error).toBeNull();
});

test.afterAll(async ({ serviceDb }) => {
  await serviceDb.from('feed_sources').delete().like('name', `%${id}`);
  await removeCategory(serviceDb, category);
  await serviceDb.from('sellers').delete().in('host', [shopHost, brandHost]);
  await new Promise((resolve) => server?.close(resolve));
});

async function openFeeds(page: Page, stack: Parameters<typeof openProductsTab>[1]) {
  await openProductsTab(page, stack, session);
  await page.getByRole('tab', { name: texts.admin.tabs.feeds }).click();
  const panel = page.getByRole('tabpanel', { name: texts.admin.tabs.feeds });
  await expect(panel.getByRole('button', { name: t.add })).toBeVisible({ timeout: 20_000 });
  return panel;
}

async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('REQ-FEED-1 REQ-FEED-5 feed source: the form explains bad input and the database’s refusal', async ({
  page,
  stack,
}) => {
  const panel = await openFeeds(page, stack);
  await panel.getByRole('button', { name: t.add }).click();
  const dialog = page.getByRole('dialog', { name: t.add });
  await dialog.getByRole('button', { name: ff.save }).click();
  await expect(dialog).toContainText(texts.sellers.nameInvalid);
  await expect(dialog).toContainText(texts.offerPanel.sellerRequired);
  await expect(dialog).toContainText(ff.urlInvalid);
  await expect(dialog.getByText(ff.columnRequired)).toHaveCount(2);

  await field(dialog, ff.name).fill(`Taken ${id}`);
  await choose(page, dialog, texts.offerPanel.seller, shop);
  await field(dialog, ff.url).fill(feedUrl);
  await dialog.getByRole('button', { name: ff.presetAwin }).click();
  await dialog.getByRole('button', { name: ff.save }).click();
  await expectToast(page, ff.saved);

  // The same name again (any case): the database refuses it, and says so under the name.
  await panel.getByRole('button', { name: t.add }).click();
  await field(dialog, ff.name).fill(`TAKEN ${id}`);
  await choose(page, dialog, texts.offerPanel.seller, shop);
  await field(dialog, ff.url).fill(feedUrl);
  await dialog.getByRole('button', { name: ff.presetAwin }).click();
  await dialog.getByRole('button', { name: ff.save }).click();
  await expect(dialog).toContainText(ff.nameInUse);
  await dialog.getByRole('button', { name: texts.admin.cancel }).click();

  await panel.getByRole('button', { name: `${texts.sellers.delete} Taken ${id}` }).click();
  await page
    .getByRole('dialog', { name: t.confirmTitle })
    .getByRole('button', { name: texts.sellers.delete, exact: true })
    .click();
  await expectToast(page, t.deleted);
});

test('REQ-FEED-1 REQ-FEED-5 Awin feed: preview with the preset, Run now, report, create, ignore, apply', async ({
  page,
  stack,
  serviceDb,
}) => {
  test.setTimeout(180_000);
  const panel = await openFeeds(page, stack);

  // REQ-FEED-1: the source, its columns previewed through the function and mapped by the preset.
  await panel.getByRole('button', { name: t.add }).click();
  const dialog = page.getByRole('dialog', { name: t.add });
  await field(dialog, ff.name).fill(feedName);
  await choose(page, dialog, texts.offerPanel.seller, shop);
  await field(dialog, ff.url).fill(feedUrl);
  await choose(page, dialog, t.format, t.formatLabel.awin_csv);
  await dialog.getByRole('button', { name: ff.presetAwin }).click();
  await expect(dialog.getByRole('combobox', { name: ff.field.price, exact: true })).toHaveValue(
    'search_price',
  );
  await dialog.getByRole('button', { name: ff.preview }).click();
  const preview = dialog.getByTestId('feed-preview');
  await expect(preview).toContainText(held, { timeout: 30_000 });
  await expect(preview).toContainText('30.00');
  await expect(preview.getByRole('columnheader', { name: ff.field.link })).toBeVisible();
  await dialog.getByRole('button', { name: ff.save }).click();
  await expectToast(page, ff.saved);

  // REQ-FEED-5: Run now, the run followed until final, its report.
  const row = panel.getByTestId('feed-row').filter({ hasText: feedName });
  await expect(row).toContainText(t.never);
  await row.getByRole('button', { name: `${t.runNow}: ${feedName}` }).click();
  await expect(row).toContainText(t.status.done, { timeout: 90_000 });
  await row.getByRole('button', { name: t.reportsOf(feedName) }).click();
  const reports = panel.getByRole('region', { name: t.reportsOf(feedName) });
  const runs = reports.getByRole('table', { name: texts.feedRuns.label });
  await expect(runs).toContainText('2 unmatched');
  await expect(runs).toContainText('1 held');
  await expect(runs).toContainText(t.status.done);

  // The notice above the tabs, where the owner looks first; it leads to the Feeds tab.
  await page.getByRole('tab', { name: texts.admin.tabs.products }).click();
  const notice = page.getByTestId('feeds-notice');
  await expect(notice).toContainText(texts.feedNotice.held(1));
  await notice.getByRole('button', { name: texts.feedNotice.open }).click();
  await expect(page.getByRole('tab', { name: texts.admin.tabs.feeds })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // Create a product from an unmatched row: category and comment; the row's title and price.
  const unmatched = panel.getByRole('table', { name: um.label });
  await expect(unmatched).toContainText(fresh);
  await unmatched.getByRole('button', { name: `${um.create}: ${fresh}` }).click();
  const create = page.getByRole('dialog', { name: um.createTitle(fresh) });
  await create.getByRole('button', { name: um.create }).click();
  await expect(create).toContainText(um.categoryRequired);
  await expect(create).toContainText(um.commentRequired);
  await choose(page, create, texts.productForm.category, category);
  await field(create, texts.productForm.comment).fill('From the Awin feed');
  await create.getByRole('button', { name: um.create }).click();
  await expectToast(page, um.created);
  await expect(unmatched).not.toContainText(fresh);
  const made = await serviceDb.from('products').select('title,price').eq('title', fresh).single();
  expect(made.error).toBeNull();
  expect((made.data as { price: string }).price).toContain('25.00');

  // Ignore another; it shows under Ignored.
  await unmatched.getByRole('checkbox', { name: um.selectRow(ignored) }).check();
  await panel.getByRole('button', { name: um.ignore, exact: true }).click();
  await expectToast(page, um.ignoredDone(1));
  await expect(panel.getByText(um.empty)).toBeVisible();
  await panel.getByText(um.ignored, { exact: true }).click();
  await expect(unmatched).toContainText(ignored);

  // The held price change (£10.00 → £30.00, +200 %): applied, the offer's price is the feed's.
  const heldTable = panel.getByRole('table', { name: hd.heading });
  await expect(heldTable).toContainText('+200 %');
  await heldTable.getByRole('checkbox', { name: um.selectRow(held) }).check();
  await panel.getByRole('button', { name: hd.apply, exact: true }).click();
  await expectToast(page, hd.applied(1));
  await expect(panel.getByText(hd.empty)).toBeVisible();
  // Nothing waits any more: the notice above the tabs counts again and goes.
  await expect(notice).toHaveCount(0);
  const { data: offer } = await serviceDb
    .from('offers')
    .select('price_gbp,products!inner(title)')
    .eq('products.title', held)
    .eq('link', `https://${shopHost}/p1`)
    .single();
  expect(Number((offer as { price_gbp: number }).price_gbp)).toBe(30);

  // Screen readers and contrast: the tab with a report open, wide and narrow, light and dark.
  await expectAxeClean(page, 'feeds', {
    viewports: [
      { width: 1280, height: 900 },
      { width: 375, height: 900 },
    ],
    closeToasts: true,
    screenshot: true,
  });
  await page.setViewportSize({ width: 375, height: 900 });
  // Narrow: no sideways scrolling.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
