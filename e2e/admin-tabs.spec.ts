// The admin tab row on a phone: 8+ tabs do not fit 375 px, and none may hide behind the edge
// (decision 0170: no hidden columns without a hint). The rows they wrap onto stay one tab list for
// the keyboard (arrow keys walk every tab, across rows).
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { texts } from '../src/adminTexts.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { keepScreenshot } from './support/screenshot.ts';

test.use({ viewport: { width: 375, height: 812 } });

test('at 375 px every admin tab is on screen, and the arrow keys reach each one', async ({
  page,
  stack,
}) => {
  await useSession(
    page,
    stack,
    await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password),
  );
  await page.goto('/admin');
  await expect(
    page.getByRole('heading', { name: `${texts.admin.heading} ${demoAccounts.admin.name}` }),
  ).toBeVisible({ timeout: 30_000 });

  const list = page.getByRole('tablist');
  const tabs = list.getByRole('tab');
  const names = await tabs.allTextContents();
  expect(names.length).toBeGreaterThanOrEqual(7);
  // Nothing scrolls sideways: neither the list nor the page.
  expect(await list.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    ),
  ).toBe(true);
  for (const tab of await tabs.all()) {
    // Wholly inside the 375 px viewport without any scrolling, its whole label shown.
    await expect(tab).toBeInViewport({ ratio: 1 });
    expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }

  // Keyboard: one tab stop, the arrow keys walk the tabs in order, across the wrapped rows.
  // By position: a tab's name can change meanwhile (Messages counts unread messages, and tests
  // running beside this one send some).
  await tabs.first().focus();
  for (let i = 1; i < names.length; i++) {
    await page.keyboard.press('ArrowRight');
    await expect(tabs.nth(i)).toBeFocused();
  }
  await page.keyboard.press('Enter');
  const last = names.at(-1)!;
  await expect(tabs.last()).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: last })).toBeVisible();

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await keepScreenshot(page, `admin-tabs-375-${colorScheme}.png`);
  }
});
