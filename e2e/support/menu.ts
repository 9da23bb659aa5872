// Opening the phone menu. Home is pre-rendered: its burger is on screen before React has hydrated
// the page, and a tap in that moment does nothing (as for a person on a slow phone, who taps
// again). The tests tap again the same way instead of failing on a busy machine.
import { expect, type Locator, type Page } from '@playwright/test';
import { texts } from '../../src/adminTexts.ts';

export async function openMobileMenu(page: Page): Promise<Locator> {
  const burger = page.getByRole('button', { name: texts.storefront.menu.open });
  const menu = page.getByRole('dialog', { name: texts.storefront.menu.title });
  await expect(async () => {
    if (!(await menu.isVisible())) await burger.click();
    await expect(menu).toBeVisible({ timeout: 1_500 });
  }).toPass({ timeout: 15_000 });
  return menu;
}
