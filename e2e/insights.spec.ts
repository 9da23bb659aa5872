// Buy Now clicks (REQ-INS-1 to REQ-INS-3): in a real browser, Buy Now opens the seller in a new tab
// (a page on a loopback server of this test, never the internet) and the database counts the click
// in the background; a second click in the same page view, or after a reload, is not counted again;
// a bot's click is not counted at all; the admin sees the one click in the Insights tab.
import { expectAxeClean } from './support/axe.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Response } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { texts } from '../src/adminTexts.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

const BOT_UA = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';

let seller: http.Server;
let sellerUrl = '';
const category = uniqueName('Clicks Cat');
const title = uniqueName('Clicked Racket');

test.beforeAll(async ({ serviceDb }) => {
  seller = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Seller page</title><h1>Seller page</h1>');
  });
  await new Promise<void>((resolve) => seller.listen(0, '127.0.0.1', resolve));
  sellerUrl = `http://127.0.0.1:${(seller.address() as AddressInfo).port}/racket`;
  await createCategory(serviceDb, category);
  await insertProducts(serviceDb, [
    {
      title,
      cat: category,
      price: '£42.00',
      com: 'A racket for the click test',
      image: 'https://example.test/racket.png',
      link: sellerUrl,
    },
  ]);
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
  await new Promise((resolve) => seller.close(resolve));
});

async function clicksOf(db: SupabaseClient): Promise<number> {
  const { data: product } = await db.from('products').select('id').eq('title', title).single();
  const { data, error } = await db
    .from('buy_now_clicks_by_product')
    .select('clicks')
    .eq('product_id', product!.id as string);
  if (error) throw new Error(error.message);
  return (data as { clicks: number }[]).reduce((n, r) => n + r.clicks, 0);
}

/** Clicks Buy Now; resolves with the seller's tab and the counting request's answer. */
async function clickBuyNow(page: Page): Promise<{ tab: Page; answer: string }> {
  const counted = page.waitForResponse((r: Response) =>
    r.url().includes('/rest/v1/rpc/count_buy_now_click'),
  );
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: /Buy Now/ }).click(),
  ]);
  const answer = (await (await counted).json()) as string;
  return { tab, answer };
}

async function openStore(browser: Browser, baseURL: string, userAgent?: string) {
  const context = await browser.newContext({ baseURL, ...(userAgent ? { userAgent } : {}) });
  const page = await context.newPage();
  await page.goto(`/?cat=${encodeURIComponent(category)}`);
  // The only product of its category (a loaded 2-core machine: allow the cold start).
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole('link', { name: /Buy Now/ })).toHaveCount(1);
  return { context, page };
}

test('Buy Now opens the seller at once and counts once, reload or not; a bot counts zero', async ({
  browser,
  baseURL,
  serviceDb,
}) => {
  test.setTimeout(90_000);
  const { context, page } = await openStore(browser, baseURL!);
  const link = page.getByRole('link', { name: /Buy Now/ });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'sponsored noopener noreferrer');

  const first = await clickBuyNow(page);
  await expect(first.tab).toHaveURL(sellerUrl);
  await expect(first.tab).toHaveTitle('Seller page');
  expect(first.answer).toBe('counted');
  expect(await clicksOf(serviceDb)).toBe(1);

  // The same page view (the category buttons do not reload the page): counted once.
  await page.bringToFront();
  const second = await clickBuyNow(page);
  await expect(second.tab).toHaveURL(sellerUrl);
  expect(second.answer).toBe('repeat');
  expect(await clicksOf(serviceDb)).toBe(1);

  // A reload is a new page view, but the same source and product within the repeat window:
  // still counted once.
  await page.reload();
  await expect(page.getByRole('link', { name: /Buy Now/ })).toHaveCount(1, { timeout: 20_000 });
  const afterReload = await clickBuyNow(page);
  await expect(afterReload.tab).toHaveURL(sellerUrl);
  expect(afterReload.answer).toBe('repeat');
  expect(await clicksOf(serviceDb)).toBe(1);
  await context.close();

  const bot = await openStore(browser, baseURL!, BOT_UA);
  const botClick = await clickBuyNow(bot.page);
  await expect(botClick.tab).toHaveURL(sellerUrl);
  expect(botClick.answer).toBe('ignored');
  expect(await clicksOf(serviceDb)).toBe(1);
  await bot.context.close();
});

test('the click shows in the admin Insights tab', async ({ page, stack, serviceDb }) => {
  // Four axe scans and four screenshots besides the check itself.
  test.setTimeout(120_000);
  // The first test's click, or this one's if it runs alone.
  if ((await clicksOf(serviceDb)) === 0) {
    const store = await page.context().newPage();
    await store.goto(`/?cat=${encodeURIComponent(category)}`);
    expect((await clickBuyNow(store)).answer).toBe('counted');
    await store.close();
  }
  const session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  await useSession(page, stack, session);
  await page.goto('/admin');
  await page.getByRole('tab', { name: texts.insights.tab }).click();
  const panel = page.getByRole('tabpanel', { name: texts.insights.tab });
  await panel.getByText(texts.insights.periods[7], { exact: true }).click();
  await expect(panel.getByRole('figure', { name: /last 7 days/ })).toBeVisible();
  const row = panel
    .getByRole('table', { name: texts.insights.topProducts })
    .getByRole('row', { name: new RegExp(title) });
  await expect(row).toContainText(category);
  await expect(row.getByRole('cell').last()).toHaveText('1');
  await expect(panel.getByRole('table', { name: texts.insights.topCategories })).toContainText(
    category,
  );
  await expect(panel.getByTestId('clicks-chart')).toBeVisible();
  // Counts are best effort (decision 0200), and the tab says so.
  await expect(panel.getByText(texts.insights.bestEffort)).toBeVisible();

  // Readable and accessible on a desktop and a phone, light and dark.
  await expectAxeClean(page, 'insights', { reducedMotion: true, screenshot: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(row).toBeVisible();
  await expectAxeClean(page, 'insights', { reducedMotion: true, screenshot: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  expect(overflow, 'no sideways scrolling of the page at 375 px').toBeLessThanOrEqual(0);
});
