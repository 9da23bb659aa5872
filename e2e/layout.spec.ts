// The common layout (nav, mobile menu, main area, footer) at a phone and a desktop width,
// plus per-route titles and descriptions.
import type { Page } from '@playwright/test';
import { texts } from '../src/adminTexts.ts';
import { demoAccounts, expect, signInAs, test } from './support/fixtures.ts';
import { openMobileMenu } from './support/menu.ts';

const header = (page: Page) => page.getByRole('banner');
const footer = (page: Page) => page.getByRole('contentinfo');

async function expectMainAreaAndNoOverflow(page: Page) {
  const viewport = page.viewportSize();
  if (!viewport) throw new Error('no viewport');
  // Polled: while the app takes over a pre-rendered page (e.g. the static 404.html) its main area
  // can be empty for a moment before the page's own chunk has loaded.
  await expect
    .poll(() => page.getByRole('main').evaluate((el) => el.getBoundingClientRect().height))
    .toBeGreaterThanOrEqual(0.8 * viewport.height);
  // Nothing sticks out sideways (no horizontal scrolling on a phone).
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

async function expectFooter(page: Page) {
  const f = footer(page);
  await expect(f).toContainText(texts.brand.footer);
  const links = [
    [texts.nav.about, '/about'],
    [texts.nav.policy, '/policy'],
    [texts.nav.contact, '/contact'],
  ] as const;
  for (const [name, href] of links) {
    await expect(f.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  // Follow us: the store settings' social pages (the seed's demo ones; docs/decisions/0211).
  await expect(f.getByTestId('follow-us')).toContainText(texts.brand.followUs);
  const follow = f.getByTestId('follow-us').getByRole('link', { name: /^Instagram\b/ });
  await expect(follow).toHaveAttribute('href', 'https://www.instagram.com/maronlinestore.demo');
  await expect(follow).toHaveAttribute('target', '_blank');
  await expect(follow).toHaveAttribute('rel', 'me noopener');
}

test.describe('desktop 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('nav bar, main area and footer for a visitor', async ({ page }) => {
    await page.goto('/');
    await expect(header(page).getByText(texts.brand.title, { exact: true })).toBeVisible();
    // The logo is decorative next to the title (empty alt), so it is found by its source.
    const logo = header(page).locator('img[src="/logo.svg"]');
    await expect(logo).toBeVisible();
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth > 0))
      .toBe(true);
    const nav = header(page).getByRole('navigation');
    await expect(nav.getByRole('link')).toHaveText([
      texts.nav.home,
      texts.nav.login,
      texts.nav.contact,
    ]);
    await expect(nav.getByRole('link', { name: texts.nav.admin })).toHaveCount(0);
    await expect(nav.getByRole('button', { name: texts.nav.logout })).toHaveCount(0);
    await expect(page.getByRole('button', { name: texts.storefront.menu.open })).toBeHidden();
    await expectMainAreaAndNoOverflow(page);
    await expectFooter(page);

    await nav.getByRole('link', { name: texts.nav.contact }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await nav.getByRole('link', { name: texts.nav.login }).click();
    await expect(page).toHaveURL(/\/login$/);
    await nav.getByRole('link', { name: texts.nav.home }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('footer links reach About, Privacy Policy and Contact Us', async ({ page }) => {
    await page.goto('/');
    for (const [name, path, heading] of [
      [texts.nav.about, '/about', texts.pages.aboutHeading],
      [texts.nav.policy, '/policy', texts.pages.policyHeading],
    ] as const) {
      await footer(page).getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expectMainAreaAndNoOverflow(page);
    }
    await footer(page).getByRole('link', { name: texts.nav.contact, exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test('signed in: Admin and Logout instead of Login; Logout signs out', async ({
    page,
    stack,
  }) => {
    await signInAs(page, stack, demoAccounts.shopper.email, demoAccounts.shopper.password);
    await page.goto('/about');
    const nav = header(page).getByRole('navigation');
    await expect(nav.getByRole('link', { name: texts.nav.admin })).toBeVisible();
    await expect(nav.getByRole('button', { name: texts.nav.logout })).toBeVisible();
    await expect(nav.getByRole('link', { name: texts.nav.login })).toHaveCount(0);

    await nav.getByRole('button', { name: texts.nav.logout }).click();
    await expect(page.getByText(texts.logout.success, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(nav.getByRole('link', { name: texts.nav.login })).toBeVisible();
    await expect(nav.getByRole('link', { name: texts.nav.admin })).toHaveCount(0);
  });

  test('each route has its own title and meta description', async ({ page }) => {
    const routes = [
      ['/', texts.brand.title, texts.meta.home],
      ['/about', `${texts.pages.aboutHeading} | ${texts.brand.title}`, texts.meta.about],
      ['/policy', `${texts.pages.policyHeading} | ${texts.brand.title}`, texts.meta.policy],
      ['/contact', `${texts.nav.contact} | ${texts.brand.title}`, texts.meta.contact],
      ['/login', `${texts.login.heading} | ${texts.brand.title}`, texts.meta.login],
      ['/missing-page', `${texts.notFound.title} | ${texts.brand.title}`, texts.meta.notFound],
    ] as const;
    for (const [path, title, description] of routes) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute(
        'content',
        description,
      );
    }
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
    const favicon = await page.request.get('/favicon.svg');
    expect(favicon.ok()).toBe(true);
    expect(favicon.headers()['content-type']).toContain('svg');
  });
});

test.describe('phone 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('burger menu holds the nav links and closes after navigating', async ({ page }) => {
    await page.goto('/');
    await expect(header(page).getByText(texts.brand.title, { exact: true })).toBeVisible();
    // The inline nav is hidden on a phone; the burger opens the menu.
    await expect(header(page).getByRole('link', { name: texts.nav.contact })).toBeHidden();
    const burger = page.getByRole('button', { name: texts.storefront.menu.open });
    await expect(burger).toBeVisible();
    await expect(burger).toHaveAttribute('aria-expanded', 'false');
    const menu = await openMobileMenu(page);
    await expect(menu.getByRole('link')).toHaveText([
      texts.nav.home,
      texts.nav.login,
      texts.nav.contact,
    ]);
    await menu.getByRole('link', { name: texts.nav.contact }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(menu).toBeHidden();

    // Closing without navigating.
    await page.getByRole('button', { name: texts.storefront.menu.open }).click();
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  });

  test('home, pages and footer fit the phone width', async ({ page }) => {
    for (const path of ['/', '/about', '/policy', '/contact', '/login', '/nope']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expectMainAreaAndNoOverflow(page);
    }
    await page.goto('/');
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    // Two cards a row on a phone (REQ-PATH-3), side by side, each half the content column.
    const boxes = await page.getByTestId('product-card').evaluateAll((els) =>
      els.slice(0, 4).map((el) => {
        const { top, left, width } = el.getBoundingClientRect();
        return { top, left, width };
      }),
    );
    for (const box of boxes) expect(box.width).toBeGreaterThan(150);
    expect(boxes[1].top).toBe(boxes[0].top);
    expect(boxes[1].left).toBeGreaterThan(boxes[0].left + boxes[0].width);
    expect(boxes[2].top).toBeGreaterThan(boxes[0].top);
    await expectFooter(page);
  });

  test('category buttons: one sideways-scrolling row; a chosen category is scrolled into view', async ({
    page,
  }) => {
    await page.goto('/?cat=Tennis');
    const row = page.getByTestId('category-buttons');
    const tennis = row.getByRole('button', { name: 'Tennis', exact: true });
    await expect(tennis).toHaveAttribute('aria-pressed', 'true');
    // One row, wider than the phone: it scrolls instead of wrapping.
    const { scrollWidth, clientWidth, rows } = await row.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
      rows: new Set([...el.children].map((child) => child.getBoundingClientRect().top)).size,
    }));
    expect(rows).toBe(1);
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    // The last button would be off-screen: the row has been scrolled to show it.
    await expect(tennis).toBeInViewport({ ratio: 1 });
    await expectMainAreaAndNoOverflow(page);
  });

  test('at 360 px the full store title fits beside the controls', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/', '/contact']) {
      await page.goto(path);
      const title = header(page).getByText(texts.brand.title, { exact: true });
      await expect(title).toBeVisible();
      // Not cut short with an ellipsis.
      const cut = await title.evaluate((el) => el.scrollWidth > el.clientWidth);
      expect(cut).toBe(false);
      await expectMainAreaAndNoOverflow(page);
    }
  });

  test('signed in: Admin and Logout are in the menu', async ({ page, stack }) => {
    await signInAs(page, stack, demoAccounts.shopper.email, demoAccounts.shopper.password);
    await page.goto('/');
    const menu = await openMobileMenu(page);
    await expect(menu.getByRole('link', { name: texts.nav.admin })).toBeVisible();
    await expect(menu.getByRole('button', { name: texts.nav.logout })).toBeVisible();
    await expect(menu.getByRole('link', { name: texts.nav.login })).toHaveCount(0);
  });
});
