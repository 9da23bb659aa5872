// axe-core on every route and every admin tab, signed out and signed in, at a phone and a desktop
// width, in the light and the dark colour scheme: no WCAG 2.0/2.1 A or AA violation.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { StackEnv } from '../stack/stack.ts';
import { texts } from '../src/texts.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { sessionFor, useSession } from './admin.helpers.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WIDTHS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** Every route of the spec, and the heading that shows it has rendered. */
const ROUTES: Array<{ path: string; heading: string | RegExp }> = [
  { path: '/', heading: texts.home.all },
  { path: '/?cat=Football', heading: 'Football' },
  { path: '/contact', heading: texts.contact.heading },
  { path: '/about', heading: texts.pages.aboutHeading },
  { path: '/policy', heading: texts.pages.policyHeading },
  { path: '/login', heading: texts.login.heading },
  { path: '/no-such-page', heading: texts.notFound.title },
];

const ADMIN_TABS = Object.values(texts.admin.tabs);

let session = '';

test.beforeAll(async ({ stack }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
});

// A still banner: the scan must not race a slide change.
test.use({ reducedMotion: 'reduce' });

/**
 * Scans the page in the light and then the dark scheme (Mantine follows the system setting).
 * Colours do not depend on the width, so the phone runs scan the light scheme only.
 */
async function expectNoViolations(page: Page, label: string, schemes = schemesFor(page)) {
  for (const colorScheme of schemes) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    // Let colour transitions finish before contrast is measured.
    await page.waitForTimeout(250);
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    const summary = violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')}: ${[...n.any, ...n.all, ...n.none][0]?.message ?? ''}`),
    }));
    expect(summary, `${label}, ${colorScheme} scheme`).toEqual([]);
  }
}

function schemesFor(page: Page): Array<'light' | 'dark'> {
  return (page.viewportSize()?.width ?? 0) >= 1024 ? ['light', 'dark'] : ['light'];
}

async function signIn(page: Page, stack: StackEnv) {
  await useSession(page, stack, session);
}

for (const size of WIDTHS) {
  test.describe(`${size.name} ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    for (const signedIn of [false, true]) {
      for (const route of ROUTES) {
        // Signed in, /login shows "you are signed in" instead of the form: scanned as well.
        test(`${route.path} ${signedIn ? 'signed in' : 'signed out'}`, async ({ page, stack }) => {
          if (signedIn) await signIn(page, stack);
          await page.goto(route.path);
          await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
          if (!(signedIn && route.path === '/login')) {
            await expect(
              page.getByRole('heading', { level: 1, name: route.heading }).first(),
            ).toBeVisible();
          }
          if (route.path.startsWith('/?') || route.path === '/') {
            // Wait for the catalogue, not its skeletons.
            await expect(
              page.getByRole('link', { name: new RegExp(texts.home.buyNow) }).first(),
            ).toBeVisible();
          }
          await expectNoViolations(page, `${route.path} ${signedIn ? 'signed in' : 'signed out'}`);
        });
      }
    }

    test('/admin signed out goes to the login page', async ({ page }) => {
      await page.goto('/admin');
      await expect(page.getByRole('heading', { name: texts.login.heading })).toBeVisible();
      await expectNoViolations(page, '/admin signed out');
    });

    for (const tab of ADMIN_TABS) {
      test(`/admin ${tab} tab`, async ({ page, stack }) => {
        await signIn(page, stack);
        await page.goto('/admin');
        await expect(
          page.getByRole('heading', { name: `${texts.admin.heading} ${demoAccounts.admin.name}` }),
        ).toBeVisible();
        await page.getByRole('tab', { name: tab }).click();
        await expect(page.getByRole('tabpanel', { name: tab })).toBeVisible();
        await page.waitForLoadState('networkidle');
        await expectNoViolations(page, `/admin ${tab}`);
      });
    }

    test('the mobile menu / a product delete dialog', async ({ page, stack }) => {
      await signIn(page, stack);
      await page.goto('/');
      if (size.width < 768) {
        await page.getByRole('button', { name: texts.storefront.menu.open }).click();
        await expect(page.getByRole('dialog', { name: texts.storefront.menu.title })).toBeVisible();
        await expectNoViolations(page, 'mobile menu', ['light', 'dark']);
      } else {
        await page.goto('/admin');
        const products = page.getByRole('tabpanel', { name: texts.admin.tabs.products });
        await products
          .getByRole('textbox', { name: 'Title', exact: true })
          .fill('Match Football Size 5');
        await products.getByRole('button', { name: texts.productForm.get, exact: true }).click();
        await expect(page.getByText(texts.product.loaded, { exact: true })).toBeVisible();
        await products.getByRole('button', { name: texts.productForm.delete, exact: true }).click();
        await expect(
          page.getByRole('dialog', { name: texts.productForm.confirmTitle }),
        ).toBeVisible();
        await expectNoViolations(page, 'delete dialog');
      }
    });
  });
}
