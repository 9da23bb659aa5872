// Build-time pre-rendering (scripts/vite-plugins/prerender.ts): the public pages arrive as complete HTML
// with their own title, show without the JavaScript bundle, and are hydrated without a mismatch
// (React attaches to the markup and the page works). Every other URL gets the empty shell.
import type { Page } from '@playwright/test';
import { documentTitle } from '../src/routing/RouteMeta.tsx';
import { contactTexts } from '../src/features/contact/contactTexts.ts';
import { texts } from '../src/adminTexts.ts';
import { DEFAULT_ABOUT_TEXT } from '../src/features/pages/aboutText.ts';
import { expect, test } from './support/fixtures.ts';

const PAGES = [
  { path: '/', heading: texts.home.all, title: documentTitle({}) },
  {
    path: '/contact',
    heading: texts.contact.heading,
    title: documentTitle({ title: texts.nav.contact }),
  },
  {
    path: '/about',
    heading: texts.pages.aboutHeading,
    title: documentTitle({ title: texts.pages.aboutHeading }),
  },
  {
    path: '/policy',
    heading: texts.pages.policyHeading,
    title: documentTitle({ title: texts.pages.policyHeading }),
  },
  {
    path: '/how-we-earn',
    heading: texts.howWeEarn.heading,
    title: documentTitle({ title: texts.howWeEarn.heading }),
  },
];

/** Console errors and warnings (React reports a hydration mismatch there) and page errors. */
function problems(page: Page): string[] {
  const out: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning')
      out.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => out.push(`pageerror: ${err.message}`));
  return out;
}

test.describe('pre-rendered pages', () => {
  for (const { path, heading, title } of PAGES) {
    test(`${path} is served as complete HTML with its own title`, async ({ request }) => {
      const html = await (await request.get(path, { headers: { accept: 'text/html' } })).text();
      expect(html).toContain(`data-prerendered="${path}"`);
      expect(html).toContain(`<title>${title}</title>`);
      expect(html).toContain(`<meta property="og:title" content="${title}" />`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      // The layout is in the HTML too: navigation and footer.
      expect(html).toContain(texts.brand.footer);
    });

    test(`${path} shows its page before any JavaScript bundle runs`, async ({ page }) => {
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByText(texts.brand.footer)).toBeVisible();
    });
  }

  test("home and About carry the owner's banner and About text as the build read them", async ({
    request,
  }) => {
    // The build ran on the fresh seed, whose row holds the store's starting slides and text
    // (other tests change the row only after the build, and put it back).
    for (const path of ['/', '/about']) {
      const html = await (await request.get(path, { headers: { accept: 'text/html' } })).text();
      const embed =
        /<script type="application\/json" id="storefront-content">([^<]*)<\/script>/.exec(html);
      expect(embed, path).not.toBeNull();
      const built = JSON.parse(embed![1]!) as { slide_1_heading: string; about_text: string };
      expect(built.slide_1_heading, path).toBe(texts.storefront.banner.slides[0].heading);
      expect(built.about_text, path).toBe(DEFAULT_ABOUT_TEXT);
    }
    const contact = await (
      await request.get('/contact', { headers: { accept: 'text/html' } })
    ).text();
    expect(contact).not.toContain('id="storefront-content"');
  });

  test('the contact form cannot be sent before the app runs (no native submit into the URL)', async ({
    page,
  }) => {
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/contact');
    await expect(page.getByRole('button', { name: contactTexts.send })).toBeDisabled();
  });

  test('hydration attaches without a mismatch and the pages work', async ({ page }) => {
    const seen = problems(page);
    await page.goto('/');
    // A click only works once React has attached its handlers to the pre-rendered buttons.
    await page.getByRole('button', { name: texts.home.all, exact: true }).waitFor();
    const category = page.getByTestId('category-buttons').getByRole('button').nth(1);
    const name = (await category.textContent())!;
    await category.click();
    // Read back as a parameter: a name with a space is written `+`, not `%20` (another test's).
    await expect.poll(() => new URL(page.url()).searchParams.get('cat')).toBe(name);
    await expect(page.getByTestId('catalogue-heading')).toHaveText(name);

    await page.goto('/contact');
    await page.getByRole('button', { name: contactTexts.send }).click();
    await expect(page.getByText(texts.contact.fillAll)).toBeVisible();

    for (const path of ['/about', '/policy']) {
      await page.goto(path);
      await page.getByRole('link', { name: texts.nav.contact }).last().click();
      await expect(page).toHaveURL(/\/contact$/);
    }
    expect(seen).toEqual([]);
  });

  test('other URLs get the empty shell and render in the browser', async ({ page, request }) => {
    for (const path of ['/admin', '/login']) {
      const html = await (await request.get(path, { headers: { accept: 'text/html' } })).text();
      expect(html, path).toContain('<div id="root"></div>');
    }
    // An unknown path: the not-found page (404.html) with status 404 (REQ-PATH-8).
    const unknown = await request.get('/no-such-page', { headers: { accept: 'text/html' } });
    expect(unknown.status()).toBe(404);
    expect(await unknown.text()).toContain(texts.notFound.title);
    const seen = problems(page);
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.notFound.title);
    // Chromium logs the page's own 404 as a failed resource: that one line, and nothing else.
    const documentNotFound = seen.indexOf(
      'error: Failed to load resource: the server responded with a status of 404 (Not Found)',
    );
    expect(documentNotFound).toBeGreaterThanOrEqual(0);
    seen.splice(documentNotFound, 1);
    // Home with a category: the pre-rendered home (All) is replaced by the category's page.
    await page.goto('/?cat=No%20such%20category');
    await expect(page.getByTestId('catalogue-heading')).toHaveText('No such category');
    expect(seen).toEqual([]);
  });
});
