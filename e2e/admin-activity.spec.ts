// The admin Activity tab (the database's append-only log) and the Messages tab on a phone.
// Catalogue changes are made with the demo admin's own session over HTTP (as the SPA makes them),
// the invite through the SignUP tab; the log must show each with its actor, and before → after.
import type { Locator, Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { nodeClient } from '../stack/client.ts';
import type { StackEnv } from '../stack/stack.ts';
import { texts } from '../src/adminTexts.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import {
  demoAdminFile,
  activityEntry as entry,
  expectToast,
  fillSignup,
  openTab,
  toast,
} from './admin.helpers.ts';
import { useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';
import { keepScreenshot } from './support/screenshot.ts';

const activity = texts.activity;
/** The demo admin's session; accounts the tests make, deleted afterwards. */
const file = demoAdminFile();
const createdEmails = file.created;

/** The demo admin's own session as a supabase-js client: its writes carry the admin's JWT. */
function adminApi(stack: StackEnv): SupabaseClient {
  const token = (JSON.parse(file.session()) as { access_token: string }).access_token;
  return nodeClient(stack.API_URL, stack.ANON_KEY, {
    headers: { Authorization: `Bearer ${token}` },
  });
}

async function openAdmin(page: Page, stack: StackEnv): Promise<void> {
  await useSession(page, stack, file.session());
  await page.goto('/admin');
  await expect(
    page.getByRole('heading', { name: `${texts.admin.heading} ${demoAccounts.admin.name}` }),
  ).toBeVisible();
}

async function openActivity(page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: activity.tab }).click();
  const panel = page.getByRole('tabpanel', { name: activity.tab });
  await expect(panel).toBeVisible();
  return panel;
}

/**
 * No sideways scrolling: the page is no wider than the viewport, and nothing inside `scope` scrolls
 * (or clips) horizontally, such as a wide table in a scroll area.
 */
async function expectNoHorizontalOverflow(page: Page, scope: Locator): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, 'page scroll width').toBeLessThanOrEqual(widths.client);
  const wide = await scope.evaluate((root) =>
    [root, ...root.querySelectorAll('*')]
      .filter((el) => getComputedStyle(el).overflowX !== 'visible')
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`,
      ),
  );
  expect(wide, 'elements that scroll or clip sideways').toEqual([]);
}

/** Scrolls the page vertically only, so `target` is on screen if it fits the width. */
async function scrollDownTo(target: Locator): Promise<void> {
  await target.evaluate((el) =>
    window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 120),
  );
}

/** The element lies wholly inside the viewport and shows all of its text (nothing clipped). */
async function expectFullyVisible(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeInViewport({ ratio: 1 });
  const box = await target.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  const clipped = await target.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(clipped, 'text clipped inside its box').toBe(false);
}

test('the log shows product add/change/delete, catagory changes and an invite from SignUP', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const api = adminApi(stack);
  const cat = uniqueName('Log Cat');
  const renamed = uniqueName('Log Renamed');
  const title = uniqueName('Log Ball');
  expect((await api.from('catagories').insert({ title: cat })).error).toBeNull();
  const added = await api
    .from('products')
    .insert({
      title,
      cat,
      price: '£4.50',
      image: '/products/match-football.svg',
      com: 'A ball for the log',
      link: 'https://shop.example.com/log-ball',
    })
    .select('id')
    .single();
  expect(added.error).toBeNull();
  const productId = (added.data as { id: string }).id;
  expect((await api.from('products').update({ price: '£5.25' }).eq('id', productId)).error).toBe(
    null,
  );
  expect((await api.from('products').delete().eq('id', productId)).error).toBeNull();
  expect((await api.from('catagories').update({ title: renamed }).eq('title', cat)).error).toBe(
    null,
  );
  expect((await api.from('catagories').delete().eq('title', renamed)).error).toBeNull();

  // An invite made through the SignUP tab.
  await openAdmin(page, stack);
  const id = uniqueName('x').split(' ')[1];
  const email = `e2e-log-${id}@mar-online-store.test`;
  createdEmails.add(email);
  await fillSignup(await openTab(page, 'SignUP'), `Log Admin ${id}`, email, `pw-${id}`);
  await expect(toast(page, 'Verification Email Sent')).toBeVisible();
  await expectToast(page, 'SignUp Successful');

  const panel = await openActivity(page);
  const by = `${activity.by} ${demoAccounts.admin.name}`;
  const invited = entry(panel, activity.kind.admin_invited, email);
  await expect(invited).toBeVisible();
  await expect(invited).toContainText(by);

  const changed = entry(panel, activity.kind.product_changed, title);
  await expect(changed).toContainText('£4.50 → £5.25');
  await expect(changed.getByText(texts.productForm.price, { exact: true })).toBeVisible();
  await expect(changed).toContainText(by);
  await expect(entry(panel, activity.kind.product_added, title)).toContainText('£4.50');
  await expect(entry(panel, activity.kind.product_deleted, title)).toBeVisible();
  await expect(entry(panel, activity.kind.category_added, cat)).toBeVisible();
  await expect(entry(panel, activity.kind.category_changed, renamed)).toContainText(
    `${cat} → ${renamed}`,
  );
  await expect(entry(panel, activity.kind.category_deleted, renamed)).toBeVisible();
  // Newest first: the invite came last.
  await expect(panel.getByTestId('activity-entry').first()).toContainText(email);
  await keepScreenshot(page, 'activity-1280.png', { fullPage: true });

  // Filters: by kind, then only this (deleted) product.
  await panel.getByRole('combobox', { name: activity.filterKind }).click();
  await page.getByRole('option', { name: activity.kind.product_changed }).click();
  await expect(panel.getByTestId('activity-entry').first()).toContainText(title);
  for (const badge of await panel.getByTestId('activity-entry').all()) {
    await expect(badge).toContainText(activity.kind.product_changed);
  }
  await panel.getByRole('button', { name: activity.clearFilters }).click();
  await changed.getByRole('button', { name: activity.onlyThisProduct }).click();
  await expect(panel.getByTestId('activity-entry')).toHaveCount(3);
  await expect(panel.getByRole('combobox', { name: activity.filterProduct })).toHaveValue(title);
});

test('the log pages with Load more, and reads at 375 px without sideways scrolling', async ({
  page,
  stack,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  // At least two pages: the seed alone writes more than one page of entries.
  await openAdmin(page, stack);
  const panel = await openActivity(page);
  const entries = panel.getByTestId('activity-entry');
  await expect(entries).toHaveCount(25);
  await panel.getByRole('button', { name: texts.storefront.loadMore }).click();
  await expect.poll(() => entries.count()).toBeGreaterThan(25);
  await expectNoHorizontalOverflow(page, panel);
  const firstActor = entries.first().getByText(/^by /);
  await scrollDownTo(firstActor);
  await expectFullyVisible(page, firstActor);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await keepScreenshot(page, `activity-375-${colorScheme}.png`);
  }
});

test('Messages at 375 px: cards without sideways scrolling, the full e-mail visible', async ({
  page,
  stack,
  serviceDb,
}) => {
  const email = `a-rather-long-sender-address-${Date.now().toString(36)}@example-sports-club.co.uk`;
  const { error } = await serviceDb.from('contact_messages').insert({
    name: 'Phone Reader',
    email,
    message: 'Do you stock size 4 balls? '.repeat(6).trim(),
    delivery_status: 'failed',
    last_error: 'SMTP 421: service not available, closing transmission channel',
  });
  expect(error).toBeNull();
  try {
    await page.setViewportSize({ width: 375, height: 812 });
    await openAdmin(page, stack);
    await page.getByRole('tab', { name: texts.admin.tabs.messages }).click();
    const row = page.getByTestId('contact-message-row').filter({ hasText: email });
    await expect(row).toBeVisible();
    await expectNoHorizontalOverflow(
      page,
      page.getByRole('tabpanel', { name: texts.admin.tabs.messages }),
    );
    const address = row.getByRole('link', { name: email });
    await scrollDownTo(address);
    await expectFullyVisible(page, address);
    await expect(address).toHaveText(email);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(page, `messages-375-${colorScheme}.png`);
    }
  } finally {
    await serviceDb.from('contact_messages').delete().eq('email', email);
  }
});
