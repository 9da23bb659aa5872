// axe-core on every route signed out and on those a session changes signed in, and on every admin
// tab, at a phone and a desktop width, in the light and the dark colour scheme: no WCAG 2.0/2.1 A
// or AA violation. The views of REQ-ACC-1 to REQ-ACC-3 and REQ-LOG-3 (password reset, Account,
// Admins, Activity, Messages) are scanned in both schemes at both widths: their phone layouts
// (cards, stacked rows) are not the desktop's.
import { axeViolations, expectAxeClean } from './support/axe.ts';
import type { Page } from '@playwright/test';
import type { StackEnv } from '../stack/stack.ts';
import { texts } from '../src/adminTexts.ts';
import { texts as feedTexts } from '../src/adminFeedTexts.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { newAccount } from './admin.helpers.ts';
import { openMobileMenu } from './support/menu.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';
import { anonClient, createAdmin } from '../tests/support/stack.ts';

const WIDTHS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

const BOTH_SCHEMES = ['light', 'dark'] as const;

/**
 * Every route of the spec, and the heading that shows it has rendered; `bothSchemes`: scanned in
 * light and dark at the phone width too; `signedIn`: scanned signed in as well, where the page
 * differs (a session changes only the header's items elsewhere, scanned with the home page).
 */
const ROUTES: Array<{
  path: string;
  heading: string | RegExp;
  bothSchemes?: boolean;
  signedIn?: boolean;
}> = [
  { path: '/', heading: texts.home.all, signedIn: true },
  { path: '/?cat=Football', heading: 'Football' },
  { path: '/contact', heading: texts.contact.heading },
  { path: '/about', heading: texts.pages.aboutHeading },
  // What the store keeps, rendered from privacyFacts.ts (decision 0214).
  { path: '/policy', heading: texts.pages.policyHeading, bothSchemes: true },
  // The affiliate disclosure's page (decision 0210).
  { path: '/how-we-earn', heading: texts.howWeEarn.heading, bothSchemes: true },
  // Signed in: "you are signed in" instead of the form.
  { path: '/login', heading: texts.login.heading, signedIn: true },
  { path: '/forgot-password', heading: texts.passwordReset.requestHeading, bothSchemes: true },
  // Signed out: the "link invalid" box; signed in: the new-password form.
  {
    path: '/reset-password',
    heading: texts.passwordReset.setHeading,
    bothSchemes: true,
    signedIn: true,
  },
  // Where Auth sends an expired link: the "link invalid" box with its way to a new one.
  {
    path: '/reset-password#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    heading: texts.passwordReset.setHeading,
    bothSchemes: true,
    signedIn: true,
  },
  { path: '/no-such-page', heading: texts.notFound.title },
];

const ADMIN_TABS = [
  ...Object.values(texts.admin.tabs),
  texts.team.tab,
  texts.activity.tab,
  texts.insights.tab,
  texts.settings.tab,
  texts.storefrontContent.tab,
  texts.account.tab,
];
/** The admin accounts views (REQ-ACC, REQ-LOG): scanned in both schemes at the phone width too. */
const NEW_ADMIN_TABS: readonly string[] = [
  texts.admin.tabs.messages,
  texts.team.tab,
  texts.activity.tab,
  texts.account.tab,
  // The store settings (docs/decisions/0211).
  texts.settings.tab,
  // The banner's slides and the About text (docs/decisions/0212).
  texts.storefrontContent.tab,
];

let session = '';
const messageEmail = `a11y-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.co.uk`;
/** An open invitation whose account waits for confirmation: the Admins tab shows its card. */
const inviteEmail = `a11y-invite-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.co.uk`;
let inviteUserId: string | undefined;
/** A second admin, so the Admins tab shows another admin's card with its Remove button. */
let secondAdmin: { id: string; email: string } | undefined;

test.beforeAll(async ({ stack, serviceDb }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  // Messages in every delivery state, so the Messages tab shows each status badge.
  const now = new Date().toISOString();
  const { error } = await serviceDb.from('contact_messages').insert([
    {
      name: 'A11y Sent',
      email: messageEmail,
      message: 'Hello',
      delivery_status: 'sent',
      sent_at: now,
    },
    { name: 'A11y Failed', email: messageEmail, message: 'Hello', delivery_status: 'failed' },
    { name: 'A11y Pending', email: messageEmail, message: 'Hello', delivery_status: 'pending' },
    {
      name: 'A11y Sending',
      email: messageEmail,
      message: 'Hello',
      delivery_status: 'sending',
      claimed_at: now,
    },
  ]);
  if (error) throw new Error(error.message);
  const invite = await serviceDb.from('admin_invites').insert({ email: inviteEmail });
  if (invite.error) throw new Error(invite.error.message);
  const signUp = await anonClient(stack).auth.signUp({ email: inviteEmail, password: 'secret123' });
  if (signUp.error) throw signUp.error;
  inviteUserId = signUp.data.user?.id;
  secondAdmin = await createAdmin({ ...newAccount(), name: 'A11y Second Admin' }, stack);
});

test.afterAll(async ({ serviceDb }) => {
  await serviceDb.from('contact_messages').delete().eq('email', messageEmail);
  if (inviteUserId) await serviceDb.auth.admin.deleteUser(inviteUserId);
  await serviceDb.from('admin_invites').delete().eq('email', inviteEmail);
  if (secondAdmin) {
    await serviceDb.auth.admin.deleteUser(secondAdmin.id);
    await serviceDb.from('admin_invites').delete().eq('email', secondAdmin.email);
  }
});

// A still banner: the scan must not race a slide change.
test.use({ reducedMotion: 'reduce' });

/**
 * Scans the page in the light and then the dark scheme (Mantine follows the system setting).
 * The older views' colours do not depend on the width, so their phone runs scan light only.
 */
function expectNoViolations(
  page: Page,
  label: string,
  schemes: ReadonlyArray<'light' | 'dark'> = schemesFor(page),
) {
  return expectAxeClean(page, label, { schemes });
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
      for (const route of ROUTES.filter((r) => !signedIn || r.signedIn)) {
        // Signed in, /login shows only "you are signed in": scanned as well.
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
          await expectNoViolations(
            page,
            `${route.path} ${signedIn ? 'signed in' : 'signed out'}`,
            route.bothSchemes ? BOTH_SCHEMES : undefined,
          );
        });
      }
    }

    test('/admin signed out goes to the login page', async ({ page }) => {
      await page.goto('/admin');
      await expect(page.getByRole('heading', { name: texts.login.heading })).toBeVisible();
      await expectNoViolations(page, '/admin signed out');
    });

    // All tabs in one page load: a fresh sign-in and admin load per tab took 6-13 s of which the
    // scans were a fraction. Soft checks: every tab is scanned and each one's violations shown.
    test('/admin, every tab', async ({ page, stack }) => {
      test.setTimeout(ADMIN_TABS.length * 30_000);
      await signIn(page, stack);
      await page.goto('/admin');
      // The admin area is a chunk of its own, loaded after the session check: a busy machine.
      await expect(
        page.getByRole('heading', { name: `${texts.admin.heading} ${demoAccounts.admin.name}` }),
      ).toBeVisible({ timeout: 30_000 });
      for (const tab of ADMIN_TABS) {
        await test.step(`${tab} tab`, async () => {
          await page.getByRole('tab', { name: tab }).click();
          const panel = page.getByRole('tabpanel', { name: tab });
          await expect(panel).toBeVisible();
          // What each view must show to be scanned with its content, not while it loads.
          if (tab === texts.team.tab) {
            await expect(
              panel.getByTestId('team-invite').filter({ hasText: inviteEmail }),
            ).toBeVisible();
            await expect(
              panel.getByTestId('team-admin').filter({ hasText: secondAdmin!.email }),
            ).toBeVisible();
          } else if (tab === texts.activity.tab) {
            await expect(panel.getByTestId('activity-entry').first()).toBeVisible();
          } else if (tab === texts.settings.tab) {
            await expect(panel.getByRole('button', { name: texts.settings.save })).toBeVisible();
          } else if (tab === texts.admin.tabs.messages) {
            await expect(panel.getByText('A11y Failed').first()).toBeVisible();
          }
          // Its content, not its spinners (the test below scans one while it spins).
          await expect(panel.getByRole('progressbar')).toHaveCount(0);
          await expectAxeClean(page, `/admin ${tab}`, {
            schemes: NEW_ADMIN_TABS.includes(tab) ? BOTH_SCHEMES : schemesFor(page),
            soft: true,
          });
        });
      }
    });

    // REQ-IMG-1, REQ-IMG-4: the upload's refusal and the warning for an image link that does not load.
    test('/admin Products: upload refused, image link that does not load', async ({
      page,
      stack,
    }) => {
      // Two full scans (light, dark) of the admin page: slow on a shared 2-core machine.
      test.setTimeout(90_000);
      await signIn(page, stack);
      await page.goto('/admin');
      const products = page.getByRole('tabpanel', { name: texts.admin.tabs.products });
      // On a phone the list comes first; the form opens with Add product (REQ-PATH-10).
      if (size.width < 992) {
        await products.getByRole('button', { name: texts.productForm.addProduct }).click();
      }
      await products
        .getByRole('textbox', { name: texts.productForm.image, exact: true })
        .fill('https://127.0.0.1:9/no-such-picture.png');
      await expect(products.getByText(texts.productImages.linkBroken)).toBeVisible();
      await products
        .getByTestId('image-dropzone')
        .locator('input[type=file]')
        .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
      await expect(products.getByTestId('image-upload-error')).toBeVisible();
      await expectNoViolations(page, '/admin Products upload states');
    });

    test('the mobile menu / a product delete dialog', async ({ page, stack }) => {
      await signIn(page, stack);
      await page.goto('/');
      if (size.width < 768) {
        await openMobileMenu(page);
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
        // The "loaded" toast may be fading: its contrast is not settled mid-fade.
        await expectAxeClean(page, 'delete dialog', {
          schemes: schemesFor(page),
          closeToasts: true,
        });
      }
    });
  });
}

// A spinner has a name a screen reader reads: an aria-label on Mantine's bare loader was ignored
// (axe: aria-prohibited-attr). The feeds' answer is held back until the scan is done.
test('/admin Feeds while it loads: the spinner is a named progress bar', async ({
  page,
  stack,
}) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/rest\/v1\/feed_sources\?/, async (route) => {
    await held;
    await route.continue();
  });
  try {
    await signIn(page, stack);
    await page.goto('/admin');
    await expect(
      page.getByRole('heading', { name: `${texts.admin.heading} ${demoAccounts.admin.name}` }),
    ).toBeVisible({ timeout: 30_000 });
    await page.getByRole('tab', { name: texts.admin.tabs.feeds }).click();
    const panel = page.getByRole('tabpanel', { name: texts.admin.tabs.feeds });
    await expect(panel.getByRole('progressbar', { name: feedTexts.feeds.loading })).toBeVisible();
    await expectNoViolations(page, '/admin Feeds loading');
  } finally {
    release();
  }
  await expect(
    page.getByRole('tabpanel', { name: texts.admin.tabs.feeds }).getByRole('progressbar'),
  ).toHaveCount(0);
});

test('SEO: noindex on /admin and /login, Open Graph tags, robots.txt and sitemap.xml', async ({
  page,
  request,
}) => {
  const robots = () => page.locator('head meta[name="robots"]');
  for (const path of ['/', '/contact', '/about', '/policy', '/how-we-earn']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(robots()).toHaveCount(0);
    const title = await page.title();
    await expect(page.locator('head meta[property="og:title"]')).toHaveAttribute('content', title);
    const description = await page.locator('head meta[name="description"]').getAttribute('content');
    await expect(page.locator('head meta[property="og:description"]')).toHaveAttribute(
      'content',
      description!,
    );
    await expect(page.locator('head meta[property="og:url"]')).toHaveAttribute(
      'content',
      new URL(path, page.url()).href,
    );
    await expect(page.locator('head meta[property="og:type"]')).toHaveAttribute(
      'content',
      'website',
    );
  }
  // Signed out, /admin ends on /login: both are noindex, and leaving them lifts it again.
  for (const path of ['/login', '/admin']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: texts.login.heading })).toBeVisible();
    await expect(robots()).toHaveAttribute('content', /noindex/);
  }
  await page
    .getByRole('navigation', { name: 'Footer' })
    .getByRole('link', { name: texts.nav.about })
    .click();
  await expect(robots()).toHaveCount(0);

  const robotsTxt = await request.get('/robots.txt');
  expect(robotsTxt.ok()).toBe(true);
  const rules = await robotsTxt.text();
  expect(rules).toMatch(/^Disallow: \/admin$/m);
  expect(rules).toMatch(/^Disallow: \/login$/m);
  const sitemapUrl = rules.match(/^Sitemap: (\S+)$/m)?.[1];
  expect(sitemapUrl).toBeTruthy();

  // The sitemap (an index: the static pages' file, then the product pages' files, which
  // e2e/product-page.spec.ts checks) lists exactly the public routes, each of them a real page.
  const index = await request.get('/sitemap.xml');
  expect(index.ok()).toBe(true);
  expect(await index.text()).toContain(`${new URL(sitemapUrl!).origin}/sitemap-pages.xml`);
  const sitemap = await request.get('/sitemap-pages.xml');
  expect(sitemap.ok()).toBe(true);
  const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (m) => new URL(m[1]!),
  );
  expect(locs.every((u) => u.origin === new URL(sitemapUrl!).origin)).toBe(true);
  expect(locs.map((u) => u.pathname).sort()).toEqual([
    '/',
    '/about',
    '/contact',
    '/how-we-earn',
    '/policy',
  ]);
  for (const u of locs) {
    await page.goto(u.pathname);
    await expect(page.getByRole('heading', { name: texts.notFound.title })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }
});

test('the colour scheme follows the system and the header toggle switches it', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/about');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  // The toggle shows the one icon it switches to: a sun in dark, a moon in light.
  const sun = page.getByRole('banner').getByTestId('icon-sun');
  const moon = page.getByRole('banner').getByTestId('icon-moon');
  await expect(sun).toBeVisible();
  await expect(moon).toBeHidden();
  // The page is pre-rendered: a press before the app has started does nothing, so press until
  // the app takes it (each attempt waits long enough for a press the app did take to show).
  const press = async (name: string, scheme: string) =>
    expect(async () => {
      if ((await html.getAttribute('data-mantine-color-scheme')) !== scheme)
        await page.getByRole('button', { name }).click({ timeout: 2000 });
      await expect(html).toHaveAttribute('data-mantine-color-scheme', scheme, { timeout: 2000 });
    }).toPass({ timeout: 20_000 });
  await press(texts.a11y.colorScheme.toLight, 'light');
  await expect(moon).toBeVisible();
  await expect(sun).toBeHidden();
  // The choice outlives a reload, whatever the system says.
  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await press(texts.a11y.colorScheme.toDark, 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe('rgb(255, 255, 255)');
});

test('the scan as every test runs it reports a contrast failure and a picture without a text', async ({
  page,
}) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  // Outside the app's root, which React may draw again.
  await page.evaluate(() => {
    const box = document.createElement('div');
    box.innerHTML =
      '<p style="color:#777;background:#888">Low contrast</p><img src="/favicon.svg">';
    document.body.append(box);
  });
  const found = (await axeViolations(page)).map((line) => line.split(' ')[0]);
  expect(found).toEqual(expect.arrayContaining(['color-contrast', 'image-alt']));
});
