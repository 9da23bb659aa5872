// The host's cache headers (src/host/httpCache.ts) and the catalogue reads' whitelist
// (src/host/catalogueApi.ts): what a CDN may share, for how long, under which tags, and what
// it must never share (REQ-CDN-1 to REQ-CDN-4, decision 0255).
import { describe, expect, it } from 'vitest';
import {
  CATALOGUE_PATHS,
  answerCatalogue,
  cataloguePath,
  catalogueTags,
} from '../../src/host/catalogueApi';
import {
  PUBLIC_CACHE_CONTROL,
  cacheTag,
  finishCaching,
  isPersonalRequest,
  publicHeaders,
} from '../../src/host/httpCache';
import { config } from '../../netlify/functions/product-pages';

const ANON = 'anon.key';
const options = { supabaseUrl: 'http://127.0.0.1:1', anonKey: ANON };

describe('REQ-CDN-1: the whitelist of catalogue reads', () => {
  it('takes exactly the storefront reads, nothing near them', () => {
    for (const path of CATALOGUE_PATHS) expect(cataloguePath(`/api/catalogue/${path}`)).toBe(path);
    for (const path of [
      '/api/catalogue/products',
      '/api/catalogue/rpc/count_buy_now_click',
      '/api/catalogue/rpc/storefront_page/',
      '/api/catalogue/rpc/admin_product_page',
      '/api/catalogue/catagories/../products',
      '/api/catalogue/',
      '/api/catalogue//catagories',
      '/rest/v1/catagories',
    ])
      expect(cataloguePath(path), path).toBeNull();
  });

  it('answers an unlisted path 404 and a write 405, never cached, without asking upstream', async () => {
    const notFound = await answerCatalogue(
      new URL('https://shop.example/api/catalogue/products'),
      'GET',
      new Headers(),
      options,
    );
    expect(notFound?.status).toBe(404);
    expect(notFound?.headers.get('Cache-Control')).toBe('no-store');
    const post = await answerCatalogue(
      new URL('https://shop.example/api/catalogue/rpc/storefront_page'),
      'POST',
      new Headers(),
      options,
    );
    expect(post?.status).toBe(405);
    expect(post?.headers.get('Allow')).toBe('GET, HEAD');
    expect(
      await answerCatalogue(new URL('https://shop.example/p/x'), 'GET', new Headers(), options),
    ).toBeNull();
  });

  it('is a path of the Netlify function too', () => {
    expect(config.path).toContain('/api/catalogue/*');
  });
});

describe('REQ-CDN-2: the cache headers', () => {
  it('public: browsers ask again, a CDN keeps 60 s and serves 30 s more while it asks again', () => {
    // No stale-while-revalidate for browsers: they honour it, and a reload after a change would
    // show the old answer once more.
    expect(PUBLIC_CACHE_CONTROL).toBe('public, max-age=0, s-maxage=60');
    expect(publicHeaders(['catalogue', 'product-1'])).toEqual({
      'Cache-Control': PUBLIC_CACHE_CONTROL,
      'CDN-Cache-Control': 'public, s-maxage=60, stale-while-revalidate=30',
      'Netlify-CDN-Cache-Control': 'public, durable, s-maxage=60, stale-while-revalidate=30',
      'Netlify-Cache-Tag': 'catalogue,product-1',
      'Cache-Tag': 'catalogue,product-1',
    });
  });

  it('tags: the catalogue, and the product or catagory a read names, safe for both CDNs', () => {
    const tags = catalogueTags(new URLSearchParams({ p_cat: 'Table, Tennis & Co', p_limit: '3' }));
    expect(tags).toEqual(['catalogue', 'catagory-Table_2C_20Tennis_20_26_20Co']);
    for (const tag of tags) expect(tag).toMatch(/^[!-+\--~]+$/);
    expect(catalogueTags(new URLSearchParams({ p_product_id: 'abc' }))).toEqual([
      'catalogue',
      'product-abc',
    ]);
    expect(cacheTag('catagory', 'x'.repeat(500))).toHaveLength(100);
  });

  it('a cookie or a user’s Authorization is personal; the anon key or none is not', () => {
    expect(isPersonalRequest(new Headers(), ANON)).toBe(false);
    expect(isPersonalRequest(new Headers({ Authorization: `Bearer ${ANON}` }), ANON)).toBe(false);
    expect(isPersonalRequest(new Headers({ Authorization: 'Bearer user.jwt' }), ANON)).toBe(true);
    expect(isPersonalRequest(new Headers({ Cookie: 'a=b' }), ANON)).toBe(true);
  });

  it('finishCaching: ETag of the body, 304 on a match, private for a personal request', async () => {
    const answer = () =>
      new Response('[1]', {
        headers: { 'Content-Type': 'application/json', ...publicHeaders() },
      });
    const first = await finishCaching(answer(), new Headers(), ANON);
    const etag = first.headers.get('ETag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await first.text()).toBe('[1]');
    const again = await finishCaching(answer(), new Headers({ 'If-None-Match': etag }), ANON);
    expect(again.status).toBe(304);
    expect(again.headers.get('ETag')).toBe(etag);
    expect(again.headers.get('Cache-Control')).toBe(PUBLIC_CACHE_CONTROL);
    expect(await again.text()).toBe('');
    const personal = await finishCaching(answer(), new Headers({ Cookie: 's=1' }), ANON);
    expect(personal.headers.get('Cache-Control')).toBe('private, no-store');
    expect(personal.headers.has('Netlify-Cache-Tag')).toBe(false);
    expect(personal.headers.has('Netlify-CDN-Cache-Control')).toBe(false);
    expect(personal.headers.has('CDN-Cache-Control')).toBe(false);
    expect(personal.headers.has('Cache-Tag')).toBe(false);
    expect(await personal.text()).toBe('[1]');
    const error = new Response('x', { status: 500, headers: { 'Cache-Control': 'no-store' } });
    expect((await finishCaching(error, new Headers(), ANON)).headers.has('ETag')).toBe(false);
  });
});
