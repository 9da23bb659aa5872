// Storefront search and sort (REQ-FIND-1, REQ-FIND-2) in a real browser against the throwaway
// stack: results as you type (with a typo, with accents), "No Products", the keyboard alone, the
// three sorts, the view kept in the URL through reload, Back and Forward, Load more within a
// search, and axe on the search views at 375 and 1280 px in the light and the dark scheme.
import { axeViolations } from './support/axe.ts';
import type { Page } from '@playwright/test';
import { texts } from '../src/adminTexts.ts';
import { PAGE_SIZE } from '../src/features/storefront/paging.ts';
import {
  cards,
  cardTitles,
  createCategory,
  insertProducts,
  priceNumber,
  removeCategory,
  type NewProduct,
} from './support/catalogue.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { uniqueName } from '../tests/support/names.ts';
import { keepScreenshot } from './support/screenshot.ts';

// The machine the tests share can be slow to show the first page (seconds under load): waits are
// generous, never a timing assertion.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const t = texts.storeSearch;
const letters = (n: number) =>
  Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join(
    '',
  );
/** A made-up word only this file's products hold, and the same with one letter left out. */
const WORD = `zembla${letters(4)}`;
const TYPO = WORD.slice(0, 3) + WORD.slice(4);
const CAT = uniqueName('Search E2E');
const ACCENTED = `Crème Brûlée Racket ${WORD}`;
const NEWEST = `Newest Arrival ${WORD}`;

const product = (title: string, price: string): NewProduct => ({
  title,
  cat: CAT,
  price,
  com: 'Browser test product for search',
  image: '/products/tennis-racket.svg',
  link: 'https://shop.example.com/search-e2e',
});

const searchBox = (page: Page) => page.getByRole('searchbox', { name: t.label });
const sortSelect = (page: Page) => page.getByRole('combobox', { name: t.sortLabel });
const prices = async (page: Page) =>
  (await page.getByTestId('product-price').allTextContents())
    .map(priceNumber)
    .filter((p): p is number => p !== null);

test.beforeAll(async ({ serviceDb }) => {
  await createCategory(serviceDb, CAT);
  const rows = [product(ACCENTED, '£45.00')];
  for (let i = 0; i < 30; i++) {
    rows.push(product(`${WORD} Ball ${String(i).padStart(2, '0')}`, `£${(i * 13) % 40}.99`));
  }
  await insertProducts(serviceDb, rows);
  // Added last, on its own: the newest of the category.
  await insertProducts(serviceDb, [product(NEWEST, '£1.00')]);
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, CAT);
});

test.describe('storefront search', () => {
  test('typing with a typo finds the products, kept in the URL', async ({ page }) => {
    await page.goto('/');
    await expect(cards(page).first()).toBeVisible();
    await searchBox(page).pressSequentially(TYPO, { delay: 30 });
    await expect(page).toHaveURL(new RegExp(`[?&]q=${TYPO}`));
    await expect(cards(page).first()).toContainText(WORD);
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    for (const title of await cardTitles(page)) expect(title).toContain(WORD);
    await expect(page.getByTestId('search-announcement')).toHaveText(t.found(PAGE_SIZE, true));

    // Load more goes on within the search.
    await page.getByRole('button', { name: texts.storefront.loadMore }).click();
    await expect(cards(page)).toHaveCount(32);
    await expect(page.getByRole('button', { name: texts.storefront.loadMore })).toHaveCount(0);
    await expect(page.getByTestId('search-announcement')).toHaveText(t.found(32, false));
  });

  test('accents and case do not matter', async ({ page }) => {
    await page.goto('/');
    await searchBox(page).fill('CREME brulee');
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText(ACCENTED);
    await searchBox(page).fill('crème BRÛLÉE racket');
    await expect(page).toHaveURL(/q=cr%C3%A8me/);
    await expect(cards(page).first()).toContainText(ACCENTED);
  });

  test('nothing matching shows "No Products"', async ({ page }) => {
    await page.goto('/');
    await searchBox(page).fill(`qx${letters(9)}`);
    await expect(page.getByTestId('no-products')).toHaveText(texts.home.noProducts);
    await expect(page.getByTestId('search-announcement')).toHaveText(texts.home.noProducts);
    await expect(cards(page)).toHaveCount(0);
  });

  test('works with the keyboard alone', async ({ page }) => {
    await page.goto('/');
    await expect(cards(page).first()).toBeVisible();
    // Tab from the top of the page to the search box.
    for (let i = 0; i < 100; i++) {
      await page.keyboard.press('Tab');
      if (await searchBox(page).evaluate((el) => el === document.activeElement)) break;
    }
    await expect(searchBox(page)).toBeFocused();
    await page.keyboard.type(WORD);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`q=${WORD}`));
    await expect(cards(page).first()).toContainText(WORD);
    await page.keyboard.press('Tab');
    await expect(sortSelect(page)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page).toHaveURL(/sort=price-desc/);
    await expect(cards(page).first()).toContainText(ACCENTED); // £45.00, the dearest
  });

  test('sorts by price both ways and by newest, within a category', async ({ page }) => {
    await page.goto(`/?cat=${encodeURIComponent(CAT)}`);
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    const up = await prices(page);
    expect(up).toEqual([...up].sort((a, b) => a - b));

    await sortSelect(page).selectOption('price-desc');
    await expect(page).toHaveURL(/sort=price-desc/);
    await expect(cards(page).first()).toContainText(ACCENTED);
    const down = await prices(page);
    expect(down).toEqual([...down].sort((a, b) => b - a));

    await sortSelect(page).selectOption('newest');
    await expect(cards(page).first()).toContainText(NEWEST);
    await expect(page).toHaveURL(new RegExp(`cat=.+&sort=newest`));
  });

  test('the URL keeps the view on reload, Back and Forward', async ({ page }) => {
    await page.goto('/');
    await expect(cards(page).first()).toBeVisible();
    await searchBox(page).fill(WORD);
    await expect(page).toHaveURL(new RegExp(`\\?q=${WORD}$`));
    await page.getByTestId('category-buttons').getByRole('button', { name: CAT }).click();
    await expect(page).toHaveURL(new RegExp(`q=${WORD}&cat=`));
    await sortSelect(page).selectOption('price-desc');
    await expect(cards(page).first()).toContainText(ACCENTED);

    await page.reload();
    await expect(searchBox(page)).toHaveValue(WORD);
    await expect(sortSelect(page)).toHaveValue('price-desc');
    await expect(page.getByTestId('catalogue-heading')).toHaveText(CAT);
    await expect(cards(page).first()).toContainText(ACCENTED);

    await page.goBack(); // sort back to the default
    await expect(sortSelect(page)).toHaveValue('price-asc');
    await page.goBack(); // category back to All
    await expect(page.getByTestId('catalogue-heading')).toHaveText(texts.home.all);
    await expect(searchBox(page)).toHaveValue(WORD);
    await page.goBack(); // the search gone
    await expect(page).toHaveURL(/\/$/);
    await expect(searchBox(page)).toHaveValue('');
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await expect(page.getByTestId('search-announcement')).toHaveText('');

    await page.goForward();
    await expect(searchBox(page)).toHaveValue(WORD);
    await expect(cards(page).first()).toContainText(WORD);
  });
});

test.describe('search views are accessible', () => {
  test.use({ reducedMotion: 'reduce' });
  for (const width of [375, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`axe at ${width} px, ${scheme}`, async ({ page }) => {
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme: scheme });
        for (const [name, url] of [
          ['results', `/?q=${WORD}&sort=newest`],
          ['none', `/?q=qx${letters(9)}`],
        ] as const) {
          await page.goto(url);
          await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
          await expect(
            page.getByTestId('product-grid').or(page.getByTestId('no-products')),
          ).toBeVisible();
          await page.waitForTimeout(250);
          expect(await axeViolations(page), `${url} at ${width} px, ${scheme}`).toEqual([]);
          // Kept with the test's output, to be looked at.
          await page.getByRole('search').evaluate((el) => el.scrollIntoView());
          await keepScreenshot(page, `search-${name}-${width}-${scheme}.png`);
        }
      });
    }
  }
});
