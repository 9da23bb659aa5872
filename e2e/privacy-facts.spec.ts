// The Privacy Policy's device-storage fact (src/features/pages/privacyFacts.ts, decision 0214)
// and the README's "sets no cookie and writes nothing to the browser's storage" for Buy Now, in a
// real browser: a visitor who browses, searches, opens a product, presses Buy Now and reads the
// pages has no cookie, no local and no session storage afterwards; the light/dark switch is the
// one thing that writes, under the key the page names.
import { deviceStorage } from '../src/features/pages/privacyFacts.ts';
import { texts } from '../src/adminTexts.ts';
import { expect, test } from './support/fixtures.ts';

test('a visitor browsing and pressing Buy Now leaves nothing on the device', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL });
  // The demo sellers are made-up addresses: answer them here, the click is what matters.
  await context.route(/^https:\/\/shop\.example\.com\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Seller</title>' }),
  );
  const page = await context.newPage();
  const stored = () =>
    page.evaluate(() => ({
      local: Object.keys(localStorage),
      session: Object.keys(sessionStorage),
      cookie: document.cookie,
    }));

  await page.goto('/');
  const buyNow = page.getByRole('link', { name: new RegExp(texts.home.buyNow) }).first();
  await expect(buyNow).toBeVisible({ timeout: 20_000 });
  // Pressed until the started app counts it (a press on the pre-rendered page only opens the tab).
  await expect(async () => {
    const counted = page.waitForResponse((r) => r.url().includes('/rpc/count_buy_now_click'), {
      timeout: 3000,
    });
    const [tab] = await Promise.all([context.waitForEvent('page'), buyNow.click()]);
    await tab.close();
    expect((await counted).ok()).toBe(true);
  }).toPass({ timeout: 30_000 });

  const product = await page
    .getByRole('main')
    .locator('a[href^="/p/"]')
    .first()
    .getAttribute('href');
  // A product opened from the listing (REQ-PATH-1's Back remembers the listing in the
  // page's memory, not in the browser's storage).
  await page.getByRole('main').locator('a[href^="/p/"]').first().click();
  await expect(page).toHaveURL(/\/p\//);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  expect(await stored()).toEqual({ local: deviceStorage.visitor, session: [], cookie: '' });
  for (const path of [product!, '/?q=ball', '/policy', '/about', '/contact', '/how-we-earn']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }
  expect(await stored()).toEqual({ local: deviceStorage.visitor, session: [], cookie: '' });
  expect(await context.cookies()).toEqual([]);

  // The light/dark switch: the one thing a visitor's action stores, under the named key.
  const html = page.locator('html');
  const before = await html.getAttribute('data-mantine-color-scheme');
  const name = before === 'dark' ? texts.a11y.colorScheme.toLight : texts.a11y.colorScheme.toDark;
  await expect(async () => {
    if ((await html.getAttribute('data-mantine-color-scheme')) === before)
      await page.getByRole('button', { name }).click({ timeout: 2000 });
    await expect(html).not.toHaveAttribute('data-mantine-color-scheme', before!, {
      timeout: 2000,
    });
  }).toPass({ timeout: 20_000 });
  expect((await stored()).local).toEqual([deviceStorage.colourScheme]);
  expect(await context.cookies()).toEqual([]);
  await context.close();
});
