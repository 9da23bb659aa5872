// The owner's side of offers (REQ-OFF-1, REQ-OFF-3) in the running app on the real local stack:
// a seller with an affiliate rule on the Sellers tab, a product's offers beside the product form
// (add two, edit a price with its history and Activity entry, confirm a price, delete one), a
// seller in use refused with the database's message, the freshness limits on the Settings tab,
// and the "Stale prices" filter listing the stale product first.
import { expectAxeClean } from './support/axe.ts';
import type { Locator, Page } from '@playwright/test';
import { texts } from '../src/adminOfferTexts.ts';
import { expectToast, field, getProduct, openProductsTab } from './admin.helpers.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { sessionFor } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

const t = texts.offerPanel;
const st = texts.sellers;
const fr = texts.freshness;

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 900 } });

let session = '';
const category = uniqueName('E2E Offers');
const id = category.split(' ').at(-1)!.toLowerCase();
const ball = `${category} Ball`;
const boots = `${category} Boots`;
const shop = `Shop ${id}`;
const shopSite = `https://www.shop-${id}.example.com`;
const otherHost = `other-${id}.example.com`;
/** Every seller the file makes: its products' own links make two, the tests two more. */
const hosts = [
  `primary-${id}.example.com`,
  `boots-${id}.example.com`,
  `shop-${id}.example.com`,
  otherHost,
];
const DAY_MS = 86_400_000;

test.beforeAll(async ({ stack, serviceDb }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  await createCategory(serviceDb, category);
  const product = (title: string, host: string, price: string) => ({
    title,
    cat: category,
    price,
    com: 'Offers browser test',
    image: '/products/football.svg',
    link: `https://${host}/item`,
  });
  await insertProducts(serviceDb, [
    product(ball, hosts[0]!, '£20.00'),
    product(boots, hosts[1]!, '£45.00'),
  ]);
  // The boots' own price was last confirmed 40 days ago: stale (7 days) and hidden (30 days).
  const { data: row } = await serviceDb.from('products').select('id').eq('title', boots).single();
  const { error } = await serviceDb
    .from('offers')
    .update({ price_confirmed_at: new Date(Date.now() - 40 * DAY_MS).toISOString() })
    .eq('product_id', row!.id);
  expect(error).toBeNull();
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
  await serviceDb.from('sellers').delete().in('host', hosts);
  await serviceDb
    .from('store_settings')
    .update({ price_stale_after_days: 7, price_hidden_after_days: 30 })
    .eq('id', true);
});

async function openAdminTab(page: Page, stack: Parameters<typeof openProductsTab>[1], tab: string) {
  await openProductsTab(page, stack, session);
  await page.getByRole('tab', { name: tab }).click();
  const panel = page.getByRole('tabpanel', { name: tab });
  await expect(panel).toBeVisible();
  return panel;
}

function sellerRow(panel: Locator, name: string): Locator {
  return panel
    .getByTestId('seller-row')
    .filter({ has: panel.page().getByText(name, { exact: true }) });
}

function offerCard(panel: Locator, seller: string): Locator {
  return panel
    .getByTestId('offer')
    .filter({ has: panel.page().getByText(seller, { exact: true }) });
}

test('REQ-OFF-1 Sellers tab: add a seller with an affiliate rule, previewed as a tagged link', async ({
  page,
  stack,
}) => {
  const tab = await openAdminTab(page, stack, texts.priceChecks.sellersTab);
  await tab.getByRole('button', { name: st.add }).click();
  const dialog = page.getByRole('dialog', { name: st.add });
  await field(dialog, st.name).fill(shop);
  await field(dialog, st.site).fill(shopSite);
  await field(dialog, st.network).fill('Awin');
  // Half a rule is refused under the empty field, before anything is written.
  await field(dialog, st.affiliateParam).fill('tag');
  await expect(dialog.getByTestId('affiliate-preview')).toHaveText(st.noRule);
  await dialog.getByRole('button', { name: st.save }).click();
  await expect(dialog.getByText(st.bothOrNeither)).toBeVisible();
  await field(dialog, st.affiliateValue).fill('mar-21');
  await expect(dialog.getByTestId('affiliate-preview')).toHaveText(
    `${st.preview}: ${shopSite}/product?tag=mar-21`,
  );
  await dialog.getByRole('button', { name: st.save }).click();
  await expectToast(page, st.saved);
  const row = sellerRow(tab, shop);
  await expect(row).toContainText(shopSite);
  await expect(row).toContainText('Awin');
  await expect(row).toContainText('tag=mar-21');
  await expect(row.getByRole('cell').nth(4)).toHaveText('0');

  // The same site twice: the database's unique rule, shown under Site.
  await tab.getByRole('button', { name: st.add }).click();
  await field(dialog, st.name).fill(`${shop} again`);
  await field(dialog, st.site).fill(`${shopSite}/another/page`);
  await dialog.getByRole('button', { name: st.save }).click();
  await expect(dialog.getByText(st.siteInUse)).toBeVisible();
  await dialog.getByRole('button', { name: texts.admin.cancel }).click();

  await shots(page, 'sellers', tab);
});

test('REQ-OFF-1 offers: add two, edit a price (history, Activity), confirm a price, delete one', async ({
  page,
  stack,
  serviceDb,
}) => {
  // 1.3 min on a busy 2-core runner: room for a slower one.
  test.setTimeout(180_000);
  const form = await openProductsTab(page, stack, session);
  await getProduct(page, form, ball);
  const offers = form.getByRole('region', { name: t.heading });
  // The product's own link and price, read-only here.
  const own = offers.getByTestId('offer').filter({ hasText: t.primary });
  await expect(own).toContainText('£20.00');
  await expect(own).toContainText(t.primaryHint);

  // Offer 1: a seller from the list.
  await offers.getByRole('button', { name: t.add }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: t.seller }).click();
  await page.getByRole('option', { name: shop, exact: true }).click();
  await field(dialog, t.link).fill(`${shopSite}/ball`);
  await field(dialog, t.price).fill('18.50');
  await field(dialog, t.delivery).fill('3.99');
  await dialog.getByRole('button', { name: t.save }).click();
  await expectToast(page, t.saved);
  await expect(offerCard(offers, shop)).toContainText('£18.50');
  await expect(offerCard(offers, shop)).toContainText(t.plusDelivery('£3.99'));

  // Offer 2: a new seller made from the link's site.
  await offers.getByRole('button', { name: t.add }).click();
  await dialog.getByRole('combobox', { name: t.seller }).click();
  await page.getByRole('option', { name: t.newSeller }).click();
  await field(dialog, t.link).fill(`https://${otherHost}/ball`);
  await field(dialog, t.price).fill('19');
  await dialog.getByRole('button', { name: t.save }).click();
  await expectToast(page, t.saved);
  await expect(offerCard(offers, otherHost)).toContainText('£19.00');

  // Edit offer 1's price: its history has both prices.
  await offerCard(offers, shop).getByRole('button', { name: t.edit }).click();
  await field(dialog, t.price).fill('17.25');
  await dialog.getByRole('button', { name: t.save }).click();
  await expectToast(page, t.saved);
  const shopCard = offerCard(offers, shop);
  await expect(shopCard).toContainText('£17.25');
  await shopCard.getByRole('button', { name: t.history }).click();
  const history = shopCard.getByTestId('price-history');
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.getByRole('listitem').first()).toContainText('£17.25');
  await expect(history.getByRole('listitem').last()).toContainText('£18.50');

  // Offer 2's price was confirmed 10 days ago: stale; "Confirm price" makes it current.
  const { data: product } = await serviceDb
    .from('products')
    .select('id')
    .eq('title', ball)
    .single();
  const { data: seller } = await serviceDb
    .from('sellers')
    .select('id')
    .eq('host', otherHost)
    .single();
  await serviceDb
    .from('offers')
    .update({ price_confirmed_at: new Date(Date.now() - 10 * DAY_MS).toISOString() })
    .eq('product_id', product!.id)
    .eq('seller_id', seller!.id);
  await getProduct(page, form, ball);
  const otherCard = offerCard(offers, otherHost);
  await expect(otherCard.getByText(t.stale, { exact: true })).toBeVisible();
  await expect(otherCard).toContainText(t.checked('10 days ago'));
  await shots(page, 'offers', offers);
  await otherCard.getByRole('button', { name: t.confirmPrice }).click();
  await expectToast(page, t.confirmed);
  await expect(otherCard).toContainText(t.checked('now'));
  await expect(otherCard.getByText(t.stale, { exact: true })).toHaveCount(0);

  // Delete offer 2, after the question.
  await otherCard.getByRole('button', { name: t.delete }).click();
  const confirm = page.getByRole('dialog', { name: t.confirmTitle });
  await expect(confirm).toContainText(t.confirmText(otherHost));
  await confirm.getByRole('button', { name: t.delete }).click();
  await expectToast(page, t.deleted);
  await expect(otherCard).toHaveCount(0);
  await expect(offers.getByTestId('offer')).toHaveCount(2);

  // The Activity tab has the price change.
  await page.getByRole('tab', { name: texts.activity.tab }).click();
  const activity = page.getByRole('tabpanel', { name: texts.activity.tab });
  const changed = activity
    .getByTestId('activity-entry')
    .filter({ hasText: texts.activity.kind.offer_changed })
    .filter({ hasText: '17.25' })
    .first();
  await expect(changed).toBeVisible();
  await expect(changed).toContainText('18.5');
  await expect(
    activity
      .getByTestId('activity-entry')
      .filter({ hasText: texts.activity.kind.offer_removed })
      .first(),
  ).toBeVisible();
});

test('REQ-OFF-1 a seller that offers use is not deleted: the database says why', async ({
  page,
  stack,
}) => {
  const tab = await openAdminTab(page, stack, texts.priceChecks.sellersTab);
  const row = sellerRow(tab, shop);
  await expect(row.getByRole('cell').nth(4)).toHaveText('1');
  await row.getByRole('button', { name: st.delete }).click();
  const confirm = page.getByRole('dialog', { name: st.confirmTitle });
  await confirm.getByRole('button', { name: st.delete }).click();
  const message = page
    .locator('.mantine-Notifications-root')
    .getByRole('alert')
    .filter({ hasText: `${st.deleteFailed}: ` });
  await expect(message).toBeVisible();
  await expect(row).toBeVisible();
});

test('REQ-OFF-3 Settings: the freshness limits are saved, a bad value is refused under its field', async ({
  page,
  stack,
}) => {
  const tab = await openAdminTab(page, stack, texts.settings.tab);
  const stale = field(tab, fr.staleAfter);
  const hidden = field(tab, fr.hiddenAfter);
  await expect(stale).toHaveValue('7');
  await expect(hidden).toHaveValue('30');
  await stale.fill('400');
  await tab.getByRole('button', { name: texts.settings.save }).click();
  await expect(tab.getByText(fr.staleInvalid)).toBeVisible();
  await stale.fill('10');
  await hidden.fill('5');
  await tab.getByRole('button', { name: texts.settings.save }).click();
  await expect(tab.getByText(fr.hiddenInvalid)).toBeVisible();
  await hidden.fill('60');
  await tab.getByRole('button', { name: texts.settings.save }).click();
  await expectToast(page, texts.settings.saved);
  await page.reload();
  await page.getByRole('tab', { name: texts.settings.tab }).click();
  await expect(field(tab, fr.staleAfter)).toHaveValue('10');
  await expect(field(tab, fr.hiddenAfter)).toHaveValue('60');
});

test('REQ-OFF-3 the "Stale prices" filter lists the stale product first', async ({
  page,
  stack,
}) => {
  // The "Last price check" column shows from Mantine's xl breakpoint (88em) on.
  await page.setViewportSize({ width: 1440, height: 900 });
  const form = await openProductsTab(page, stack, session);
  const table = form.getByRole('table', { name: texts.productForm.listHeading });
  await form.getByRole('combobox', { name: texts.productTable.category }).click();
  await page.getByRole('option', { name: category, exact: true }).click();
  await expect(table.getByRole('row')).toHaveCount(3);
  await form.getByRole('combobox', { name: texts.priceChecks.filter }).click();
  await page.getByRole('option', { name: texts.priceChecks.stale, exact: true }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText(boots);
  await expect(
    table.getByRole('columnheader', { name: new RegExp(texts.priceChecks.column) }),
  ).toHaveAttribute('aria-sort', 'ascending');
});

/** The view at 1280 and 375 px, light and dark: axe clean, with a screenshot of each. */
function shots(page: Page, name: string, panel: Locator) {
  return expectAxeClean(page, name, {
    viewports: [
      { width: 1280, height: 900 },
      { width: 375, height: 900 },
    ],
    beforeScan: () => panel.scrollIntoViewIfNeeded(),
    screenshot: true,
  });
}
