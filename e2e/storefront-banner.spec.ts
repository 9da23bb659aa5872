// The home page's banner in a real browser (REQ-HOME-1, REQ-CONST-1): three slides, dots, the
// 4-second advance that wraps, and every reason it pauses. Time is a paused fake clock, so each
// step is exact.
import { constants, texts } from '../src/adminTexts.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * Fake timers with time standing still: only `page.clock.runFor` moves it. (After a bare
 * `install()` time still flows on its own, which would let the banner advance by itself.)
 */
async function controlClock(page: import('@playwright/test').Page) {
  const start = new Date('2026-01-05T09:00:00Z');
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 1000));
}

/**
 * Steps the paused clock until React has hydrated the pre-rendered banner. main.tsx starts the
 * app after the first paint (requestAnimationFrame, then setTimeout), which the fake clock holds
 * back; until then the banner is static HTML whose buttons do nothing and whose timer has not
 * started. React marks the elements it has attached to with `__reactFiber$…` properties.
 */
async function runUntilHydrated(page: import('@playwright/test').Page) {
  await expect
    .poll(async () => {
      await page.clock.runFor(20);
      return page
        .getByTestId('banner')
        .evaluate((el) => Object.keys(el).some((key) => key.startsWith('__reactFiber')));
    })
    .toBe(true);
  // Effects (the banner's timer) run in a scheduler task posted after the commit: let it run.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );
}

const heading = (page: import('@playwright/test').Page) => page.getByTestId('catalogue-heading');

test.describe('banner', () => {
  const slides = (page: import('@playwright/test').Page) => page.getByTestId('banner-slide');
  const expectActive = async (page: import('@playwright/test').Page, index: number) => {
    await expect(slides(page).nth(index)).toHaveAttribute('data-active', 'true');
    for (let i = 0; i < constants.bannerSlides; i++) {
      if (i !== index) await expect(slides(page).nth(i)).not.toHaveAttribute('data-active');
    }
  };
  /** Moves the mouse off the banner (hover pauses it). */
  const leaveBanner = (page: import('@playwright/test').Page) => heading(page).hover();

  test.beforeEach(async ({ page }) => {
    await controlClock(page);
    await page.goto('/');
    await runUntilHydrated(page);
    await expect(slides(page)).toHaveCount(constants.bannerSlides);
    await expect(heading(page)).toBeVisible();
  });

  test('advances every 4 seconds and wraps from the last slide to the first', async ({ page }) => {
    await expectActive(page, 0);
    await page.clock.runFor(constants.bannerIntervalMs - 100);
    await expectActive(page, 0);
    await page.clock.runFor(100);
    await expectActive(page, 1);
    await page.clock.runFor(constants.bannerIntervalMs);
    await expectActive(page, 2);
    await page.clock.runFor(constants.bannerIntervalMs);
    await expectActive(page, 0);
  });

  test('dots choose a slide', async ({ page }) => {
    const dot = (n: number) =>
      page.getByRole('button', { name: texts.storefront.banner.showSlide(n) });
    await dot(3).click();
    await expectActive(page, 2);
    await expect(dot(3)).toHaveAttribute('aria-current', 'true');
    await expect(dot(1)).toHaveAttribute('aria-current', 'false');
    await dot(2).click();
    await expectActive(page, 1);
    await leaveBanner(page);
    await page.clock.runFor(constants.bannerIntervalMs);
    await expectActive(page, 2);
  });

  test('pauses while hovered', async ({ page }) => {
    await page.getByTestId('banner').hover();
    await page.clock.runFor(constants.bannerIntervalMs * 3);
    await expectActive(page, 0);
    await leaveBanner(page);
    await page.clock.runFor(constants.bannerIntervalMs);
    await expectActive(page, 1);
  });

  test('the pause control stops and restarts the slideshow', async ({ page }) => {
    await page.getByRole('button', { name: texts.storefront.banner.pause }).click();
    await leaveBanner(page);
    await page.clock.runFor(constants.bannerIntervalMs * 3);
    await expectActive(page, 0);
    await page.getByRole('button', { name: texts.storefront.banner.play }).click();
    await leaveBanner(page);
    await page.clock.runFor(constants.bannerIntervalMs);
    await expectActive(page, 1);
  });

  test('pauses while a control has keyboard focus', async ({ page }) => {
    const dot = (n: number) =>
      page.getByRole('button', { name: texts.storefront.banner.showSlide(n) });
    // Tab from the top of the page (header links first) until the first dot has focus.
    for (
      let i = 0;
      i < 20 && !(await dot(1).evaluate((el) => el === document.activeElement));
      i++
    ) {
      await page.keyboard.press('Tab');
    }
    await expect(dot(1)).toBeFocused();
    await page.clock.runFor(constants.bannerIntervalMs * 2);
    await expectActive(page, 0);
    await page.keyboard.press('Tab');
    await expect(dot(2)).toBeFocused();
    await page.keyboard.press('Enter');
    await expectActive(page, 1);
    await page.clock.runFor(constants.bannerIntervalMs * 2);
    await expectActive(page, 1);
    // Focus leaves the banner: it plays again.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(constants.bannerIntervalMs);
    await expectActive(page, 2);
  });
});

test.describe('banner with reduced motion', () => {
  test('does not advance by itself', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await controlClock(page);
    await page.goto('/');
    await runUntilHydrated(page);
    await expect(page.getByTestId('banner-slide').first()).toHaveAttribute('data-active', 'true');
    await page.clock.runFor(constants.bannerIntervalMs * 4);
    await expect(page.getByTestId('banner-slide').first()).toHaveAttribute('data-active', 'true');
    await expect(page.getByRole('button', { name: texts.storefront.banner.play })).toBeVisible();
  });
});
