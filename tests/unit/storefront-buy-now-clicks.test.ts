// The storefront's side of click counting: one background request a click, sent with keepalive,
// naming the product, the page and this page view's random id (the same id for every click of
// the page view, kept in memory only), and never a failure the shopper could see.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: { url: string; init: RequestInit }[] = [];

beforeEach(() => {
  vi.resetModules();
  calls.length = 0;
  vi.stubEnv('VITE_SUPABASE_URL', 'http://127.0.0.1:9');
  vi.stubEnv('VITE_SUPABASE_ANON_KEY', 'anon-key');
  vi.stubGlobal('location', { pathname: '/', search: '?cat=Tennis' });
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url: String(url), init });
    return Promise.resolve(new Response('"counted"', { status: 200 }));
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('countBuyNowClick', () => {
  it('posts product, page and one page-view id per page load, with keepalive', async () => {
    const { countBuyNowClick } = await import('../../src/features/storefront/buyNowClicks');
    countBuyNowClick('11111111-1111-4111-8111-111111111111');
    countBuyNowClick('22222222-2222-4222-8222-222222222222');
    await flush();
    expect(calls).toHaveLength(2);
    const bodies = calls.map((c) => JSON.parse(String(c.init.body)) as Record<string, string>);
    expect(calls[0]!.url).toBe('http://127.0.0.1:9/rest/v1/rpc/count_buy_now_click');
    expect(calls.every((c) => c.init.keepalive === true && c.init.method === 'POST')).toBe(true);
    expect(bodies[0]).toMatchObject({
      p_product_id: '11111111-1111-4111-8111-111111111111',
      p_page: '/?cat=Tennis',
    });
    expect(bodies[0]!.p_page_view).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(bodies[1]!.p_page_view).toBe(bodies[0]!.p_page_view);

    // A new page load (a fresh module) is a new page view.
    vi.resetModules();
    const again = await import('../../src/features/storefront/buyNowClicks');
    again.countBuyNowClick('11111111-1111-4111-8111-111111111111');
    await flush();
    const third = JSON.parse(String(calls[2]!.init.body)) as Record<string, string>;
    expect(third.p_page_view).not.toBe(bodies[0]!.p_page_view);
  });

  it('names the offer a Buy Now opened, when there is one (REQ-OFF-2)', async () => {
    const { countBuyNowClick } = await import('../../src/features/storefront/buyNowClicks');
    countBuyNowClick(
      '11111111-1111-4111-8111-111111111111',
      '33333333-3333-4333-8333-333333333333',
    );
    countBuyNowClick('11111111-1111-4111-8111-111111111111', null);
    await flush();
    const bodies = calls.map((c) => JSON.parse(String(c.init.body)) as Record<string, string>);
    expect(bodies[0]!.p_offer_id).toBe('33333333-3333-4333-8333-333333333333');
    expect(bodies[1]).not.toHaveProperty('p_offer_id');
  });

  it('a failing network or a missing configuration throws nothing and rejects nothing', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
      const { countBuyNowClick } = await import('../../src/features/storefront/buyNowClicks');
      expect(() => countBuyNowClick('11111111-1111-4111-8111-111111111111')).not.toThrow();
      vi.resetModules();
      vi.stubEnv('VITE_SUPABASE_URL', '');
      const unconfigured = await import('../../src/features/storefront/buyNowClicks');
      expect(() => unconfigured.countBuyNowClick('x')).not.toThrow();
      await flush();
      await flush();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('clickPage', () => {
  it("keeps only the store's own page shape (decision 0200)", async () => {
    const { clickPage } = await import('../../src/features/storefront/buyNowClicks');
    const tracking =
      '&fbclid=IwAR0x&gclid=Cj0K&msclkid=abc&mc_eid=123&utm_source=news&email=ann%40example.com';
    expect(clickPage('/', `?cat=Tennis${tracking}`)).toBe('/?cat=Tennis');
    expect(clickPage('/', `?q=ann+smith&sort=newest&cat=Field+Hockey${tracking}`)).toBe(
      '/?cat=Field+Hockey&sort=newest',
    );
    expect(clickPage('/', '?sort=price-asc&sort=junk')).toBe('/');
    expect(clickPage('/', `?q=my+name${tracking}`)).toBe('/');
    expect(clickPage('/p/pro-racket-2', `?gclid=1${tracking}`)).toBe('/p/pro-racket-2');
  });

  it('sends the trimmed page, not the address bar', async () => {
    vi.stubGlobal('location', { pathname: '/', search: '?cat=Tennis&fbclid=IwAR0x&email=a%40b.c' });
    const { countBuyNowClick } = await import('../../src/features/storefront/buyNowClicks');
    countBuyNowClick('11111111-1111-4111-8111-111111111111');
    await flush();
    expect(JSON.parse(String(calls[0]!.init.body))).toMatchObject({ p_page: '/?cat=Tennis' });
  });
});
