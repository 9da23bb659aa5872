// @vitest-environment jsdom
// The HTML's early request for the home page's first page (scripts/vite-plugins/first-page.ts) and how
// the app takes its answer (src/features/storefront/firstPagePrefetch.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATEGORY_PARAM as APP_CATEGORY_PARAM } from '../../src/features/storefront/HomePage';
import { PAGE_SIZE } from '../../src/features/storefront/paging';
import type { EarlyFirstPage } from '../../src/features/storefront/earlyFirstPage';
import { firstPage } from '../../src/features/storefront/firstPagePrefetch';
import { CATEGORY_PARAM, firstPageScript } from '../../scripts/vite-plugins/first-page';
import { fetchCardPage } from '../../src/features/storefront/catalogue';
import { selectList, CARD_PRODUCT_COLUMNS, type CardProduct } from '../../src/lib/domain/tables';

const API = 'https://abc.supabase.co';
const KEY = 'anon-key.with/odd+chars';

const script = firstPageScript(API, KEY);

/** Runs the inline script as the browser would at `href`; returns the URL it fetched, if any. */
async function runScript(href: string, answer = () => new Response('[]')) {
  const fetched: string[] = [];
  const fakeWindow: Record<string, unknown> = {};
  const location = new URL(href);
  // The script is text made for the browser: running it is the only way to test what it does.
  const run = new Function('window', 'location', 'fetch', await script) as (
    window: unknown,
    location: URL,
    fetch: (url: string, init: RequestInit) => Promise<Response>,
  ) => void;
  run(fakeWindow, location, (url: string, init: RequestInit) => {
    expect(init).toEqual({ credentials: 'omit' });
    fetched.push(url);
    return Promise.resolve(answer());
  });
  return { fetched, left: fakeWindow.__marFirstPage as EarlyFirstPage | undefined };
}

describe('the inline script', () => {
  it('asks for the first page of All on /, as the app would (page size + 1, its columns)', async () => {
    const { fetched, left } = await runScript('https://shop.example/');
    expect(fetched).toHaveLength(1);
    // The site's own cacheable read (REQ-CDN-1), not the Data API, and no key in the page.
    expect(fetched[0]!.startsWith('/api/catalogue/rpc/storefront_page?')).toBe(true);
    const url = new URL(fetched[0]!, 'https://shop.example');
    expect(url.searchParams.get('p_limit')).toBe(String(PAGE_SIZE + 1));
    expect(url.searchParams.get('select')).toBe(selectList(CARD_PRODUCT_COLUMNS));
    expect(url.searchParams.has('apikey')).toBe(false);
    expect(fetched[0]).not.toContain(KEY);
    expect(url.searchParams.has('p_cat')).toBe(false);
    expect(left?.cat).toBeNull();
  });

  it('asks for the category of /?cat=, trimmed like the app', async () => {
    expect(CATEGORY_PARAM).toBe(APP_CATEGORY_PARAM);
    const { fetched, left } = await runScript(
      'https://shop.example/?cat=%20Table%20%26%20Tennis%20',
    );
    expect(new URL(fetched[0]!, 'https://x.test').searchParams.get('p_cat')).toBe('Table & Tennis');
    expect(left?.cat).toBe('Table & Tennis');
  });

  it('REQ-CDN-1: asks the very URL the app’s own first-page read asks (one cached copy)', async () => {
    for (const cat of [null, 'Table & Tennis']) {
      const asked: string[] = [];
      vi.stubGlobal('location', new URL('https://shop.example/'));
      vi.stubGlobal('fetch', (url: string) => {
        asked.push(url);
        return Promise.resolve(new Response('[]'));
      });
      await fetchCardPage(cat, null);
      vi.unstubAllGlobals();
      const href = cat
        ? `https://shop.example/?cat=${encodeURIComponent(cat)}`
        : 'https://shop.example/';
      const { fetched } = await runScript(href);
      expect(`https://shop.example${fetched[0]}`).toBe(asked[0]);
    }
  });

  it('leaves a failed answer as a rejection, for the app to ask again', async () => {
    const { left } = await runScript(
      'https://shop.example/',
      () => new Response('{}', { status: 503 }),
    );
    await expect(left!.rows).rejects.toThrow('HTTP 503');
  });

  it('does nothing on other pages or with other query parameters', async () => {
    for (const href of [
      'https://shop.example/contact',
      'https://shop.example/admin',
      'https://shop.example/?q=racket',
      'https://shop.example/?cat=Tennis&sort=newest',
    ]) {
      const { fetched, left } = await runScript(href);
      expect(fetched, href).toEqual([]);
      expect(left, href).toBeUndefined();
    }
  });
});

describe('firstPage', () => {
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `p${i}`, title: `Product ${i}` }));
  afterEach(() => {
    delete window.__marFirstPage;
  });

  it('uses the early answer once, for its category, with one page and whether there is more', async () => {
    window.__marFirstPage = {
      cat: 'Tennis',
      clicks: [],
      rows: Promise.resolve(rows(PAGE_SIZE + 1) as CardProduct[]),
    };
    const load = vi.fn(() => Promise.resolve({ products: [], hasMore: false }));
    const page = await firstPage('Tennis', load);
    expect(load).not.toHaveBeenCalled();
    expect(page.products).toHaveLength(PAGE_SIZE);
    expect(page.hasMore).toBe(true);
    // Taken: the next first page (a retry, a return to Tennis) asks the database.
    await firstPage('Tennis', load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks the database for another category, and drops the early answer', async () => {
    window.__marFirstPage = { cat: null, clicks: [], rows: Promise.resolve([]) };
    const load = vi.fn(() => Promise.resolve({ products: [], hasMore: false }));
    await firstPage('Football', load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(window.__marFirstPage).toBeUndefined();
  });

  it('falls back to its own request when the early one failed', async () => {
    // Made one at a time: a rejected promise nobody awaits yet would be reported as unhandled.
    for (const rows of [
      () => Promise.reject(new Error('first page: HTTP 500')),
      () => Promise.reject(new TypeError('Failed to fetch')),
    ]) {
      window.__marFirstPage = { cat: null, clicks: [], rows: rows() };
      const own = { products: [], hasMore: false };
      const load = vi.fn(() => Promise.resolve(own));
      expect(await firstPage(null, load)).toBe(own);
      expect(load).toHaveBeenCalledTimes(1);
    }
  });

  it('without an early request (dev server, other pages) asks the database', async () => {
    const load = vi.fn(() => Promise.resolve({ products: [], hasMore: false }));
    await firstPage(null, load);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
