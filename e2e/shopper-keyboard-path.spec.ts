// REQ-PATH-4 and REQ-PATH-5: the keyboard path past the header (a skip link, one focus ring on
// every link and button, focus back on the menu button when the phone menu closes) and the end
// of the home page staying in place while the visitor scrolls to it.
import { expectAxeClean } from './support/axe.ts';
import type { Locator, Page } from '@playwright/test';
import { texts } from '../src/texts.ts';
import { expect, test } from './support/fixtures.ts';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };
/** The first load of a test can be slow on a machine shared by several test runs. */
const SLOW_START = { timeout: 30_000 };

// A still banner: Tab must not race a slide change.
test.use({ reducedMotion: 'reduce' });

/** The focused element's ring: outline style, width and colour (empty when none). */
function focusRing(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const cs = getComputedStyle(el);
    return {
      element: `${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}`,
      ring:
        cs.outlineStyle === 'none'
          ? ''
          : `${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor}`,
    };
  });
}

async function tabUntil(page: Page, target: Locator, max = 60): Promise<number> {
  for (let i = 1; i <= max; i += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return i;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test.describe('desktop', () => {
  test.use({ viewport: DESKTOP });

  test('REQ-PATH-4 the first Tab stop is "Skip to content", which leads to the first product in a few stops', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByTestId('product-card').first()).toBeVisible(SLOW_START);
    const skip = page.getByRole('link', { name: texts.a11y.skipToContent });
    await page.keyboard.press('Tab');
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    expect((await focusRing(page)).ring).toMatch(/^solid 2px/);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();

    // From the content on, the first product's title is nearer than the header's 20 stops.
    const firstTitle = page.getByTestId('product-title').first().getByRole('link');
    const stops = await tabUntil(page, firstTitle);
    const fromTop = await (async () => {
      await page.goto('/');
      await expect(page.getByTestId('product-card').first()).toBeVisible(SLOW_START);
      return tabUntil(page, page.getByTestId('product-title').first().getByRole('link'));
    })();
    expect(stops).toBeLessThan(fromTop);
    await expectAxeClean(page, 'home with the skip link', { reducedMotion: true });
  });

  test('REQ-PATH-4 one focus ring: the logo, a nav link, a product title and Buy Now look alike', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByTestId('product-card').first()).toBeVisible(SLOW_START);
    const targets: Locator[] = [
      page.getByRole('link', { name: `${texts.brand.title} – ${texts.nav.home}` }),
      page.getByRole('banner').getByRole('link', { name: texts.nav.contact, exact: true }),
      page.getByTestId('product-title').first().getByRole('link'),
      page.getByRole('contentinfo').getByRole('link', { name: texts.nav.about, exact: true }),
    ];
    const rings = new Map<string, string>();
    for (const target of targets) {
      await page.keyboard.press('Shift+Tab'); // from wherever focus is, keyboard modality
      await target.focus();
      const { element, ring } = await focusRing(page);
      rings.set(element, ring);
    }
    const seen = JSON.stringify(Object.fromEntries(rings));
    for (const ring of rings.values()) expect(ring, seen).toMatch(/^solid 2px /);
    expect(new Set(rings.values()).size, seen).toBe(1);
  });

  test('REQ-PATH-5 scrolling to the end of the home page leaves the footer in place', async ({
    page,
  }) => {
    await expectEndStaysPut(page);
  });
});

test.describe('phone', () => {
  test.use({ viewport: PHONE });

  test('REQ-PATH-4 closing the phone menu returns focus to the menu button, the first time too', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByTestId('product-card').first()).toBeVisible(SLOW_START);
    const burger = page.getByRole('button', { name: texts.storefront.menu.open });
    const menu = page.getByRole('dialog', { name: texts.storefront.menu.title });
    for (const round of [1, 2]) {
      await expect(async () => {
        await burger.focus();
        if (!(await menu.isVisible())) await page.keyboard.press('Enter');
        await expect(menu).toBeVisible({ timeout: 1_500 });
      }).toPass({ timeout: 15_000 });
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(burger, `close number ${round}`).toBeFocused();
    }
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(burger).toBeFocused();
    expect((await focusRing(page)).ring).toMatch(/^solid 2px/);
    await expectAxeClean(page, 'home on a phone', { reducedMotion: true });
  });

  test('REQ-PATH-5 scrolling to the end of the home page leaves the footer in place (phone)', async ({
    page,
  }) => {
    await expectEndStaysPut(page);
  });
});

/**
 * Scrolls to the end as a visitor does, in steps, and checks after each that the page did not
 * grow under them: the footer's end stays at the window's end. Cards that are drawn only near
 * the screen (content-visibility) must take the room they were given.
 */
async function expectEndStaysPut(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('product-card').first()).toBeVisible(SLOW_START);
  await expect(page.getByTestId('product-card')).not.toHaveCount(0);
  // The page's own reads first (the category buttons, the settings): what arrives late may take
  // room, and a category another test adds meanwhile can wrap the buttons' row. Scrolling must not.
  await expect(page.getByTestId('category-buttons').getByRole('button').nth(1)).toBeVisible();
  await page.waitForLoadState('networkidle');
  const samples = await page.evaluate(async () => {
    const frames = (n: number) =>
      new Promise<void>((resolve) => {
        const step = (left: number) =>
          left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1));
        step(n);
      });
    const cardHeights = () =>
      [...document.querySelectorAll('[data-testid=product-card]')]
        .map((el) => Math.round(el.getBoundingClientRect().height))
        .join(',');
    const out: { height: number; after: number; footerGap: number; cards: string }[] = [];
    for (let i = 0; i < 4; i += 1) {
      const height = document.documentElement.scrollHeight;
      window.scrollTo(0, height);
      await frames(10);
      const footer = document.querySelector('footer')!.getBoundingClientRect();
      out.push({
        height,
        after: document.documentElement.scrollHeight,
        footerGap: Math.round(window.innerHeight - footer.bottom),
        // What grew, if anything.
        cards: cardHeights(),
      });
    }
    return out;
  });
  for (const s of samples) {
    expect(s.after, JSON.stringify(samples)).toBe(s.height);
    expect(Math.abs(s.footerGap), JSON.stringify(samples)).toBeLessThanOrEqual(1);
  }
}
