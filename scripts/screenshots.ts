// `npm run screenshots`: full-page screenshots of every route and admin tab, then of the admin
// dialogs and states (scripts/screenshot-scenes.ts), at a phone (375 px) and a desktop (1280 px)
// width into screenshots/ (gitignored), against a throwaway stack + the built SPA.
import { chromium, type Browser, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromiumArgs, chromiumExecutable } from '../tests/support/browser.ts';
import { startHarness } from '../tests/support/harness.ts';
import { nodeClient } from '../stack/client.ts';
import { texts } from '../src/adminTexts.ts';
import { arrangeAdminData, SCENES } from './screenshot-scenes.ts';

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
    { path: '/how-we-earn', file: 'how-we-earn' },
    { path: '/login', file: 'login' },
    { path: '/admin', file: 'admin', admin: true },
    { path: '/admin', file: 'admin-signup', admin: true, tab: texts.admin.tabs.signup },
    { path: '/admin', file: 'admin-admins', admin: true, tab: texts.team.tab },
    { path: '/admin', file: 'admin-catagories', admin: true, tab: texts.admin.tabs.categories },
    { path: '/admin', file: 'admin-messages', admin: true, tab: texts.admin.tabs.messages },
    { path: '/admin', file: 'admin-feeds', admin: true, tab: texts.admin.tabs.feeds },
    { path: '/admin', file: 'admin-activity', admin: true, tab: texts.activity.tab },
    { path: '/admin', file: 'admin-account', admin: true, tab: texts.account.tab },
    { path: '/admin', file: 'admin-storefront', admin: true, tab: texts.storefrontContent.tab },
    { path: '/forgot-password', file: 'forgot-password' },
    // Signed out: the "link invalid" box; signed in (as after the link): the new-password form.
    { path: '/reset-password', file: 'reset-password-invalid' },
    { path: '/reset-password', file: 'reset-password', admin: true },
    // Where Auth sends an expired link.
    {
      path: '/reset-password#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
      file: 'reset-password-expired',
    },
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

type Scheme = 'light' | 'dark';

interface Run {
  browser: Browser;
  baseUrl: string;
  storageKey: string;
  session: string;
}

async function newPage(run: Run, width: number, height: number, scheme: Scheme, admin: boolean) {
  const context = await run.browser.newContext({
    baseURL: run.baseUrl,
    viewport: { width, height },
    deviceScaleFactor: 1,
    // Still pictures: the banner stays on its first slide.
    reducedMotion: 'reduce',
    locale: 'en-GB',
    colorScheme: scheme,
  });
  if (admin) {
    await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
      run.storageKey,
      run.session,
    ] as const);
  }
  return { context, page: await context.newPage() };
}

async function openTab(page: Page, tab: string) {
  await page.getByRole('tab', { name: tab }).click();
  await page.getByRole('tabpanel', { name: tab }).waitFor();
  await settle(page);
}

async function save(page: Page, name: string, fullPage: boolean) {
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  console.log(`saved ${path.relative(process.cwd(), file)}`);
}

async function shootRoutes(run: Run, only: string[], scheme: Scheme) {
  const suffix = scheme === 'dark' ? '-dark' : '';
  for (const size of WIDTHS) {
    for (const route of ROUTES) {
      if (only.length && !only.includes(route.file)) continue;
      if (route.menu && size.width >= 768) continue;
      const { context, page } = await newPage(run, size.width, size.height, scheme, !!route.admin);
      await page.goto(route.path);
      await settle(page);
      if (route.tab) await openTab(page, route.tab);
      if (route.menu) {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await page.waitForTimeout(400);
      }
      await save(page, `${route.file}-${size.width}${suffix}`, !route.menu);
      // What a visitor sees first (a phone's full page is too tall to judge at a glance).
      if (!route.menu) await save(page, `${route.file}-${size.width}${suffix}-fold`, false);
      await context.close();
    }
  }
}

/** The admin dialogs and states: what is on screen once each is up (dialogs are fixed). */
async function shootScenes(run: Run, only: string[], scheme: Scheme) {
  const suffix = scheme === 'dark' ? '-dark' : '';
  for (const size of WIDTHS) {
    for (const scene of SCENES) {
      if (only.length && !only.includes(scene.file)) continue;
      const { context, page } = await newPage(run, size.width, size.height, scheme, true);
      await page.goto('/admin');
      await settle(page);
      await openTab(page, scene.tab);
      await scene.act(page, size.width);
      await page.waitForTimeout(400);
      await save(page, `${scene.file}-${size.width}${suffix}`, false);
      await context.close();
    }
  }
}

async function main() {
  // `npm run screenshots -- --dark home about`: dark colour scheme, only the named pages;
  // `--both`: light, then dark.
  const args = process.argv.slice(2);
  const schemes: Scheme[] = args.includes('--both')
    ? ['light', 'dark']
    : [args.includes('--dark') ? 'dark' : 'light'];
  const only = args.filter((a) => !a.startsWith('--'));
  mkdirSync(OUT, { recursive: true });
  const harness = await startHarness();
  const browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: chromiumArgs,
    headless: true,
  });
  try {
    await arrangeAdminData(harness.stackEnv);
    const anon = nodeClient(harness.stackEnv.API_URL, harness.stackEnv.ANON_KEY);
    const { data, error } = await anon.auth.signInWithPassword({
      email: 'admin@mar-online-store.test',
      password: 'admin123',
    });
    if (error || !data.session) throw error ?? new Error('demo admin sign-in failed');
    const run: Run = {
      browser,
      baseUrl: harness.baseUrl,
      storageKey: `sb-${new URL(harness.stackEnv.API_URL).hostname.split('.')[0]}-auth-token`,
      session: JSON.stringify(data.session),
    };
    for (const scheme of schemes) {
      await shootRoutes(run, only, scheme);
      await shootScenes(run, only, scheme);
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
