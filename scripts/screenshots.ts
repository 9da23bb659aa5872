// `npm run screenshots`: full-page screenshots of every route at a phone (375 px) and a desktop
// (1280 px) width into screenshots/ (gitignored), against a throwaway stack + the built SPA.
import { chromium, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromiumArgs, chromiumExecutable } from '../e2e/support/browser.ts';
import { startHarness } from '../e2e/support/harness.ts';
import { nodeClient } from '../stack/client.ts';
import { texts } from '../src/adminTexts.ts';

const OUT = path.resolve('screenshots');
const WIDTHS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** Route, file name, whether the demo admin is signed in, and the admin tab to open. */
const ROUTES: Array<{ path: string; file: string; admin?: boolean; menu?: boolean; tab?: string }> =
  [
    { path: '/', file: 'home' },
    { path: '/?cat=Football', file: 'home-football' },
    { path: '/', file: 'home-menu', menu: true },
    { path: '/contact', file: 'contact' },
    { path: '/about', file: 'about' },
    { path: '/policy', file: 'policy' },
    { path: '/login', file: 'login' },
    { path: '/admin', file: 'admin', admin: true },
    { path: '/admin', file: 'admin-signup', admin: true, tab: texts.admin.tabs.signup },
    { path: '/admin', file: 'admin-admins', admin: true, tab: texts.team.tab },
    { path: '/admin', file: 'admin-catagories', admin: true, tab: texts.admin.tabs.categories },
    { path: '/admin', file: 'admin-messages', admin: true, tab: texts.admin.tabs.messages },
    { path: '/admin', file: 'admin-account', admin: true, tab: texts.account.tab },
    { path: '/forgot-password', file: 'forgot-password' },
    // Signed out: the "link invalid" box; signed in (as after the link): the new-password form.
    { path: '/reset-password', file: 'reset-password-invalid' },
    { path: '/reset-password', file: 'reset-password', admin: true },
    { path: '/no-such-page', file: 'not-found' },
  ];

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  // Lazy images below the fold: scroll through once so the full-page shot shows them.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 50));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
}

async function main() {
  // `npm run screenshots -- --dark home about` : dark colour scheme, only the named pages.
  const args = process.argv.slice(2);
  const dark = args.includes('--dark');
  const only = args.filter((a) => !a.startsWith('--'));
  mkdirSync(OUT, { recursive: true });
  const harness = await startHarness();
  const browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: chromiumArgs,
    headless: true,
  });
  try {
    const anon = nodeClient(harness.stackEnv.API_URL, harness.stackEnv.ANON_KEY);
    const { data, error } = await anon.auth.signInWithPassword({
      email: 'admin@mar-online-store.test',
      password: 'admin123',
    });
    if (error || !data.session) throw error ?? new Error('demo admin sign-in failed');
    const storageKey = `sb-${new URL(harness.stackEnv.API_URL).hostname.split('.')[0]}-auth-token`;

    for (const size of WIDTHS) {
      for (const route of ROUTES) {
        if (only.length && !only.includes(route.file)) continue;
        const context = await browser.newContext({
          baseURL: harness.baseUrl,
          viewport: { width: size.width, height: size.height },
          deviceScaleFactor: 1,
          // Still pictures: the banner stays on its first slide.
          reducedMotion: 'reduce',
          locale: 'en-GB',
          colorScheme: dark ? 'dark' : 'light',
        });
        if (route.admin) {
          await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
            storageKey,
            JSON.stringify(data.session),
          ] as const);
        }
        const page = await context.newPage();
        await page.goto(route.path);
        await settle(page);
        if (route.tab) {
          await page.getByRole('tab', { name: route.tab }).click();
          await page.getByRole('tabpanel', { name: route.tab }).waitFor();
          await settle(page);
        }
        if (route.menu) {
          if (size.width >= 768) {
            await context.close();
            continue;
          }
          await page.getByRole('button', { name: 'Open navigation' }).click();
          await page.waitForTimeout(400);
        }
        const suffix = dark ? '-dark' : '';
        const file = path.join(OUT, `${route.file}-${size.width}${suffix}.png`);
        await page.screenshot({ path: file, fullPage: !route.menu });
        console.log(`saved ${path.relative(process.cwd(), file)}`);
        if (!route.menu) {
          // What a visitor sees first (a phone's full page is too tall to judge at a glance).
          const fold = path.join(OUT, `${route.file}-${size.width}${suffix}-fold.png`);
          await page.screenshot({ path: fold });
          console.log(`saved ${path.relative(process.cwd(), fold)}`);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await harness.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
