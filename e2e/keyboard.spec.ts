// Keyboard-only use of the shop: only Tab, Shift+Tab, Enter, Space, arrows and typing; every
// element that takes focus on the way shows a visible focus indicator. Also: toasts sit in a live
// region and form errors are tied to their fields.
import type { Locator, Page } from '@playwright/test';
import { texts } from '../src/adminTexts.ts';
import { createCategory, removeCategory } from './support/catalogue.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { uniqueName } from '../tests/support/names.ts';

// A still banner: the walk must not race a slide change.
test.use({ reducedMotion: 'reduce' });

/** Fails unless the focused element draws an outline or a box shadow (WCAG 2.4.7). */
async function expectFocusVisible(page: Page) {
  const style = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const cs = getComputedStyle(el);
    return {
      element: `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}`,
      outline: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0,
      shadow: cs.boxShadow !== 'none' && cs.boxShadow !== '',
    };
  });
  expect(style, 'something has focus').not.toBeNull();
  expect(style!.outline || style!.shadow, `focus indicator on ${style!.element}`).toBe(true);
}

/** Presses Tab (or Shift+Tab) until `target` has focus, checking the focus ring at every stop. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  // Already there (a form moves focus to its first invalid field): nothing to press.
  if (await target.evaluate((el) => el === document.activeElement)) return;
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    await expectFocusVisible(page);
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`could not reach ${target.toString()} with the keyboard`);
}

/** The toast with `message`, which must be inside a live region so screen readers announce it. */
async function expectAnnouncedToast(page: Page, message: string) {
  const toast = page
    .locator('.mantine-Notifications-root')
    .getByRole('alert')
    .getByText(message, { exact: true });
  await expect(toast).toBeVisible();
  const live = await toast.evaluate(
    (el) =>
      !!el.closest(
        '[aria-live="polite"], [aria-live="assertive"], [role="alert"], [role="status"]',
      ),
  );
  expect(live, `"${message}" is in a live region`).toBe(true);
}

/** aria-invalid on the field and its message reachable through aria-describedby. */
async function expectErrorTiedTo(field: Locator, message: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  const described = await field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
  expect(described).toContain(message);
}

test('home by keyboard: banner controls, category buttons and a Buy Now link', async ({ page }) => {
  await page.goto('/');
  const slides = page.getByTestId('banner-slide');
  await expect(
    page.getByRole('link', { name: new RegExp(texts.home.buyNow) }).first(),
  ).toBeVisible();

  await tabTo(page, page.getByRole('button', { name: texts.storefront.banner.showSlide(2) }));
  await page.keyboard.press('Enter');
  await expect(slides.nth(1)).toHaveAttribute('data-active', 'true');
  await tabTo(page, page.getByRole('button', { name: texts.storefront.banner.showSlide(3) }));
  await page.keyboard.press('Space');
  await expect(slides.nth(2)).toHaveAttribute('data-active', 'true');

  const categories = page.getByRole('group', { name: texts.storefront.categoriesLabel });
  await tabTo(page, categories.getByRole('button', { name: 'Football', exact: true }));
  await page.keyboard.press('Enter');
  await expect(
    page
      .getByRole('heading', { level: 2, name: 'Football' })
      .or(page.getByRole('heading', { name: 'Football', exact: true }))
      .first(),
  ).toBeVisible();
  await expect(page).toHaveURL(/cat=Football/);

  // Back to All with Shift+Tab, then forward again to the first Buy Now link.
  await tabTo(page, categories.getByRole('button', { name: texts.home.all, exact: true }), {
    back: true,
  });
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/cat=/);
  const buyNow = page.getByRole('link', { name: new RegExp(texts.home.buyNow) }).first();
  await tabTo(page, buyNow);
  await expect(buyNow).toHaveAttribute('target', '_blank');
  const href = await buyNow.getAttribute('href');
  // Enter follows the link: the seller page opens in a new tab (outside addresses are not loaded).
  await page.context().route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.abort(),
  );
  const opened = page.context().waitForEvent('request', (r) => r.url() === href);
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
  await opened;
  await popup.close();
});

test('contact by keyboard: fill, submit, errors tied to the fields', async ({ page }) => {
  await page.goto('/contact');
  const form = page.getByRole('form', { name: texts.contact.heading });
  const name = form.getByRole('textbox', { name: 'Name' });
  const email = form.getByRole('textbox', { name: 'Email' });
  const message = form.getByRole('textbox', { name: 'Message' });
  const send = form.getByRole('button', { name: 'Send' });
  await expect(send).toBeVisible();

  // Submitting empty: the alert, and every field marked invalid.
  await tabTo(page, send);
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('alert').getByText(texts.contact.fillAll, { exact: true }),
  ).toBeVisible();
  for (const field of [name, email, message])
    await expect(field).toHaveAttribute('aria-invalid', 'true');

  // The form moved focus to the first invalid field.
  await expect(name).toBeFocused();
  await tabTo(page, name, { back: true });
  await page.keyboard.type('Kim Keyboard');
  await page.keyboard.press('Tab');
  await expect(email).toBeFocused();
  await page.keyboard.type(`kim-${Date.now().toString(36)}@example.co.uk`);
  await page.keyboard.press('Tab');
  await expect(message).toBeFocused();
  await page.keyboard.type('Sent without a mouse.');
  // The hidden bot trap is skipped: the next stop is Send.
  await page.keyboard.press('Tab');
  await expect(send).toBeFocused();
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  await expectAnnouncedToast(page, texts.contact.sent);
  // The thank-you panel takes the form's place and focus (REQ-PATH-9); a new message by keyboard.
  await expect(page.getByRole('heading', { name: texts.contact.thanksHeading })).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: texts.contact.sendAnother }));
  await page.keyboard.press('Enter');
  await expect(name).toHaveValue('');
});

test('admin Products tab by keyboard, signing in by keyboard too', async ({ page, serviceDb }) => {
  test.setTimeout(90_000);
  const category = uniqueName('E2E Keys Cat');
  await createCategory(serviceDb, category);
  try {
    await page.goto('/login');
    const email = page.getByRole('textbox', { name: texts.login.email, exact: true });
    await expect(email).toBeVisible();
    await tabTo(page, email);
    await page.keyboard.type(demoAccounts.admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(demoAccounts.admin.password);
    await page.keyboard.press('Enter');
    await expectAnnouncedToast(page, texts.login.success);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(
      page.getByRole('heading', { name: `${texts.admin.heading} ${demoAccounts.admin.name}` }),
    ).toBeVisible();

    // Tabs: arrow keys move between them; back to Products.
    const productsTab = page.getByRole('tab', { name: texts.admin.tabs.products });
    await tabTo(page, productsTab);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: texts.admin.tabs.signup })).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(productsTab).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(productsTab).toHaveAttribute('aria-selected', 'true');

    const form = page.getByRole('tabpanel', { name: texts.admin.tabs.products });
    const field = (label: string) => form.getByRole('textbox', { name: label, exact: true });
    const add = form.getByRole('button', { name: texts.productForm.add, exact: true });

    // Add with nothing filled in: the first error is tied to its field.
    await tabTo(page, add);
    await page.keyboard.press('Enter');
    await expectAnnouncedToast(page, texts.validation.titleRequired);
    await expectErrorTiedTo(field(texts.productForm.title), texts.validation.titleRequired);

    const title = uniqueName('E2E Keyboard Ball');
    await tabTo(page, field(texts.productForm.title), { back: true });
    await page.keyboard.type(title);
    await tabTo(page, form.getByRole('combobox', { name: texts.productForm.category }));
    await page.keyboard.type(category);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(form.getByRole('combobox', { name: texts.productForm.category })).toHaveValue(
      category,
    );
    await tabTo(page, field(texts.productForm.price));
    await page.keyboard.type('£12.50');
    await tabTo(page, field(texts.productForm.comment));
    await page.keyboard.type('Added with the keyboard alone');
    await tabTo(page, field(texts.productForm.image));
    await page.keyboard.type('/products/match-football.svg');
    await tabTo(page, field(texts.productForm.link));
    await page.keyboard.type('https://example.com/keyboard');
    await tabTo(page, add);
    await page.keyboard.press('Enter');
    await expectAnnouncedToast(page, texts.product.added);
    await expect(field(texts.productForm.title)).toHaveValue('');
    const saved = await serviceDb.from('products').select('cat, price').eq('title', title);
    expect(saved.data).toEqual([{ cat: category, price: '£12.50' }]);
  } finally {
    await removeCategory(serviceDb, category);
  }
});
