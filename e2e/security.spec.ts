// Security in the browser: `vite preview` (the harness serves the built app with it) sends the
// headers of public/_headers with the stack's Supabase URL filled in, the whole app works under
// that Content-Security-Policy without a single violation, and product text is rendered as text,
// never as HTML.
import type { Page } from '@playwright/test';
import { cards, createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { expect, test } from './support/fixtures.ts';
import { uniqueName } from '../tests/support/names.ts';

/** CSP violations and script errors of a page, collected from the start. */
function watch(page: Page): { violations: string[]; errors: string[]; dialogs: string[] } {
  const out = { violations: [] as string[], errors: [] as string[], dialogs: [] as string[] };
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to (load|execute|connect|apply)/i.test(msg.text()))
      out.violations.push(msg.text());
  });
  page.on('pageerror', (err) => out.errors.push(err.message));
  page.on('dialog', (dialog) => {
    out.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return out;
}

test.describe('security headers', () => {
  test('every route and asset is served with the CSP and the other headers', async ({
    request,
    stack,
  }) => {
    const home = await request.get('/');
    const html = await home.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    for (const path of ['/', '/admin', '/contact', '/no-such-page', asset!, '/logo.svg']) {
      const res = await request.get(path);
      // An unknown path answers 404 (REQ-PATH-8), with the same headers.
      expect(res.status(), path).toBe(path === '/no-such-page' ? 404 : 200);
      const h = res.headers();
      const csp = h['content-security-policy'] ?? '';
      expect(csp, path).toContain("default-src 'self'");
      // Scripts: the site's own files and, by their hashes, index.html's two inline scripts
      // (colour scheme; the home page's first-page request, scripts/vite-plugins/first-page.ts).
      expect(csp, path).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*'){2};/);
      expect(csp, path).not.toContain('__INLINE');
      expect(csp, path).toContain(`connect-src 'self' ${new URL(stack.API_URL).origin}`);
      expect(csp, path).toContain("img-src 'self' https: data:");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain('__SUPABASE');
      expect(h['x-content-type-options'], path).toBe('nosniff');
      expect(h['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      expect(h['x-frame-options'], path).toBe('DENY');
    }
  });

  test('the app works under the CSP: no violation while browsing, signing in and contacting', async ({
    page,
  }) => {
    const seen = watch(page);
    await page.goto('/');
    await expect(cards(page).first()).toBeVisible();
    await page.getByTestId('category-buttons').getByRole('button').nth(1).click();
    await expect(cards(page).first()).toBeVisible();
    for (const path of ['/about', '/policy', '/contact', '/login', '/admin', '/nowhere']) {
      await page.goto(path);
      await expect(page.locator('#root')).not.toBeEmpty();
    }
    expect(seen.violations).toEqual([]);
    expect(seen.errors).toEqual([]);
  });

  test('the store cannot be framed by another site', async ({ page, baseURL }) => {
    const seen = watch(page);
    await page.setContent(`<iframe id="f" src="${baseURL}/"></iframe>`);
    const frame = page.frameLocator('#f');
    // Blocked by frame-ancestors 'none': the frame never shows the store.
    await page.waitForTimeout(1500);
    await expect(frame.getByTestId('product-card')).toHaveCount(0);
    expect(seen.dialogs).toEqual([]);
  });
});

test('a product titled with HTML shows literally and runs nothing', async ({ page, serviceDb }) => {
  const cat = uniqueName('Xss');
  const title = '<img src=x onerror=alert(1)>';
  const com = '<script>alert(2)</script><b>bold?</b>';
  await createCategory(serviceDb, cat);
  try {
    await insertProducts(serviceDb, [
      {
        title,
        cat,
        com,
        price: '<i>£5</i>',
        image: '/products/match-football.svg',
        link: 'https://shop.example.com/xss',
      },
    ]);
    const seen = watch(page);
    await page.goto(`/?cat=${encodeURIComponent(cat)}`);
    await expect(page.getByTestId('product-title')).toHaveText(title);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(cards(page).first().locator('b, i, script')).toHaveCount(0);
    expect(seen.dialogs).toEqual([]);
    expect(seen.violations).toEqual([]);
  } finally {
    await removeCategory(serviceDb, cat);
  }
});
