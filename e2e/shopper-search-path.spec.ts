// The shopper's search path (REQ-PATH-2, REQ-PATH-3) in a real browser against the throwaway
// stack: a search within a category says so and offers all categories; an empty result says what
// was searched, how to widen it and the way back; an unknown `?cat=` says the category does not
// exist; the header's search works from every page; on a 375 × 812 phone two products show on
// the home page's first screen. Each at 375 and 1280 px; axe in the light and the dark scheme.
import { axeViolations } from './support/axe.ts';
import type { Page } from '@playwright/test';
import { texts } from '../src/adminTexts.ts';
import { texts as searchTexts } from '../src/searchTexts.ts';
import { cards, createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { uniqueName } from '../tests/support/names.ts';
import { keepScreenshot } from './support/screenshot.ts';

// The machine the tests share can be slow: waits are generous, never a timing assertion.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const t = searchTexts.storeSearch;
const letters = (n: number) =>
  Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join(
    '',
  );
/** Made-up words only this file's products hold: a ball in one category, a racket in another. */
const WORD = `quorbel${letters(4)}`;
const BALLS = uniqueName('Path Balls');
const RACKETS = uniqueName('Path Rackets');
const RACKET = `${WORD} Racket`;
const BALL = `${WORD} Ball`;

const searchBox = (page: Page) => page.getByRole('main').getByRole('searchbox', { name: t.label });
const heading = (page: Page) => page.getByTestId('catalogue-heading');
const WIDTHS = [375, 1280] as const;

/**
 * Presses the header's search button until it has done its part. Pages are pre-rendered: the
 * button is on screen before React has hydrated it, and a press in that moment does nothing (as
 * for a person on a slow phone, who presses again).
 */
async function pressHeaderSearch(page: Page, done: () => Promise<void>) {
  const button = page.locator('header').getByRole('button', { name: t.open });
  await expect(async () => {
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    await done();
  }).toPass({ timeout: 20_000 });
}
const headerField = (page: Page) =>
  page.getByRole('search', { name: t.open }).getByRole('searchbox');

test.beforeAll(async ({ serviceDb }) => {
  await createCategory(serviceDb, BALLS);
  await createCategory(serviceDb, RACKETS);
  const product = (title: string, cat: string) => ({
    title,
    cat,
    price: '£12.00',
    com: 'Browser test product for the search path',
    image: '/products/tennis-racket.svg',
    link: 'https://shop.example.com/search-path',
  });
  await insertProducts(serviceDb, [product(BALL, BALLS), product(RACKET, RACKETS)]);
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, BALLS);
  await removeCategory(serviceDb, RACKETS);
});

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 812 } });

    test(`REQ-PATH-2 a search within a category says so and offers all categories`, async ({
      page,
    }) => {
      await page.goto(`/?cat=${encodeURIComponent(BALLS)}&q=${WORD}`);
      await expect(cards(page)).toHaveCount(1);
      const scope = page.getByTestId('search-scope');
      await expect(scope).toContainText(t.resultsFor(WORD, BALLS));
      await scope.getByRole('button', { name: t.searchAll }).click();
      await expect(page).toHaveURL(new RegExp(`/\\?q=${WORD}$`));
      await expect(heading(page)).toHaveText(texts.home.all);
      await expect(cards(page)).toHaveCount(2);
      await expect(scope).toHaveText(t.resultsFor(WORD, null));
      await expect(scope.getByRole('button')).toHaveCount(0);
    });

    test(`REQ-PATH-2 an empty result says what was searched, how to widen it and the way back`, async ({
      page,
    }) => {
      // "racket" under the balls' category: nothing there, but in another category.
      await page.goto(`/?cat=${encodeURIComponent(BALLS)}`);
      await expect(cards(page)).toHaveCount(1);
      await searchBox(page).fill(RACKET);
      // The spec's words stay, the help is added next to them.
      await expect(page.getByTestId('no-products')).toHaveText(texts.home.noProducts);
      const help = page.getByTestId('no-products-help');
      await expect(help).toHaveText(`${t.nothingFor(RACKET, BALLS)} ${t.widen}`);

      // The way back: the category without the search.
      await page.getByRole('button', { name: t.clear }).click();
      await expect(page).toHaveURL(new RegExp(`/\\?cat=`));
      await expect(searchBox(page)).toHaveValue('');
      await expect(cards(page)).toHaveCount(1);

      // Widening: the same search in all categories finds the racket.
      await searchBox(page).fill(RACKET);
      await expect(help).toBeVisible();
      await page.getByRole('main').getByRole('button', { name: t.searchAll }).last().click();
      await expect(heading(page)).toHaveText(texts.home.all);
      await expect(cards(page)).toHaveCount(1);
      await expect(cards(page).first()).toContainText(RACKET);

      // Nothing anywhere: says so, without offering categories it already searches.
      const none = `qx${letters(9)}`;
      await searchBox(page).fill(none);
      await expect(help).toHaveText(`${t.nothingFor(none, null)} ${t.widenAll}`);
      await expect(page.getByRole('button', { name: t.searchAll })).toHaveCount(0);
      await expect(page.getByRole('button', { name: t.clear })).toBeVisible();
    });

    test(`REQ-PATH-2 an unknown category in the URL says it does not exist and offers all`, async ({
      page,
    }) => {
      const missing = `Nowhere ${letters(6)}`;
      await page.goto(`/?cat=${encodeURIComponent(missing)}`);
      await expect(page.getByTestId('no-products')).toHaveText(texts.home.noProducts);
      await expect(page.getByTestId('no-products-help')).toHaveText(t.unknownCategory(missing));
      await page.getByRole('button', { name: t.showAll }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(heading(page)).toHaveText(texts.home.all);
      await expect(cards(page).first()).toBeVisible();
    });

    test(`REQ-PATH-2 search is reachable from the header of every page`, async ({ page }) => {
      for (const path of ['/contact', '/about', `/?cat=${encodeURIComponent(RACKETS)}`]) {
        await page.goto(path);
        if (path.startsWith('/?')) {
          // On the home page the button goes to the search box already there.
          await pressHeaderSearch(page, () =>
            expect(searchBox(page)).toBeFocused({ timeout: 1_500 }),
          );
          continue;
        }
        const field = headerField(page);
        await pressHeaderSearch(page, () => expect(field).toBeFocused({ timeout: 1_500 }));
        await field.fill(BALL);
        await page.keyboard.press('Enter');
        await expect(page).toHaveURL(new RegExp(`/\\?q=${WORD}`));
        await expect(cards(page)).toHaveCount(1);
        await expect(cards(page).first()).toContainText(BALL);
        await expect(searchBox(page)).toHaveValue(BALL);
        await expect(page.getByRole('search', { name: t.open })).toHaveCount(0);
      }
      // The button leaves room for the whole store title (not cut short with an ellipsis).
      const title = page.locator('header').getByText(texts.brand.title, { exact: true });
      expect(await title.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(false);

      // Escape closes the field and gives the focus back to the button.
      await page.goto('/contact');
      const button = page.locator('header').getByRole('button', { name: t.open });
      await pressHeaderSearch(page, () =>
        expect(headerField(page)).toBeFocused({ timeout: 1_500 }),
      );
      await page.keyboard.press('Escape');
      await expect(page.getByRole('search', { name: t.open })).toHaveCount(0);
      await expect(button).toBeFocused();
    });
  });
}

test.describe('phone 375 × 812', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('REQ-PATH-3 the first screen shows two whole products', async ({ page }) => {
    await page.goto('/');
    await expect(cards(page).nth(1)).toBeVisible();
    // Search and sort share one row.
    const box = await searchBox(page).boundingBox();
    const sort = await page.getByRole('combobox', { name: t.sortLabel }).boundingBox();
    expect(box && sort && Math.abs(box.y - sort.y) < 4).toBe(true);
    // The page has not scrolled. The first two products are whole on the screen (two a row),
    // every field of each with its Buy Now, under the affiliate disclosure.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const disclosure = page.getByTestId('ad-disclosure').first();
    await expect(disclosure).toBeInViewport({ ratio: 1 });
    const disclosureEnd = await disclosure.evaluate((el) => el.getBoundingClientRect().bottom);
    for (const i of [0, 1]) {
      const card = cards(page).nth(i);
      await expect(card).toBeInViewport({ ratio: 1 });
      for (const part of ['product-image', 'product-title', 'product-price', 'product-category'])
        await expect(card.getByTestId(part)).toBeInViewport({ ratio: 1 });
      await expect(card.getByTestId('product-comment')).toBeVisible();
      const buy = card.getByRole('link', { name: new RegExp(texts.home.buyNow) });
      await expect(buy).toBeInViewport({ ratio: 1 });
      const buyBox = (await buy.boundingBox())!;
      expect(buyBox.y, 'Buy Now is below the disclosure').toBeGreaterThan(disclosureEnd);
      // A touch target of at least 24 px (WCAG 2.5.8) and readable text.
      expect(Math.min(buyBox.width, buyBox.height)).toBeGreaterThanOrEqual(24);
      for (const part of ['product-title', 'product-price', 'product-comment'])
        expect(
          await card.getByTestId(part).evaluate((el) => parseFloat(getComputedStyle(el).fontSize)),
          part,
        ).toBeGreaterThanOrEqual(14);
    }
  });
});

test.describe('search path views are accessible', () => {
  test.use({ reducedMotion: 'reduce' });
  for (const width of WIDTHS) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`REQ-PATH-2 REQ-PATH-3 axe at ${width} px, ${scheme}`, async ({ page }) => {
        await page.setViewportSize({ width, height: 812 });
        await page.emulateMedia({ colorScheme: scheme });
        const views = [
          ['in-category', `/?cat=${encodeURIComponent(BALLS)}&q=${WORD}`, 'product-grid'],
          [
            'empty',
            `/?cat=${encodeURIComponent(BALLS)}&q=${encodeURIComponent(RACKET)}`,
            'no-products-help',
          ],
          ['unknown', `/?cat=Nowhere${letters(5)}`, 'no-products-help'],
          ['home', '/', 'product-grid'],
          ['header', '/contact', null],
        ] as const;
        for (const [name, url, ready] of views) {
          await page.goto(url);
          await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
          if (ready) await expect(page.getByTestId(ready)).toBeVisible();
          else
            await pressHeaderSearch(page, () =>
              expect(headerField(page)).toBeFocused({ timeout: 1_500 }),
            );
          await page.waitForTimeout(250);
          expect(await axeViolations(page), `${url} at ${width} px, ${scheme}`).toEqual([]);
          await keepScreenshot(page, `search-path-${name}-${width}-${scheme}.png`);
        }
      });
    }
  }
});
