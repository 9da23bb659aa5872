// The optional cache purge hook (supabase/functions/cache-purge, REQ-CDN-5, decision 0256): the
// request it builds for Netlify's purge API, that it does nothing when unset, and who may call it.
import { describe, expect, it } from 'vitest';
import {
  NETLIFY_PURGE_URL,
  loadPurgeConfig,
  purgeRequest,
  purgeTags,
  trustedCaller,
} from '../../supabase/functions/cache-purge/purge.ts';
import { CATALOGUE_TAG, cacheTag } from '../../src/host/httpCache';

const ID = '0b6c1f7e-3a7e-4f55-9a51-5f1d2f0c9e11';
const env = (values: Record<string, string>) => (name: string) => values[name];

describe('REQ-CDN-5: the cache purge hook', () => {
  it('builds Netlify’s purge request: POST, the token as bearer, site_id and cache_tags', () => {
    const config = loadPurgeConfig(
      env({
        NETLIFY_PURGE_TOKEN: ' tok ',
        NETLIFY_SITE_ID: 'site-1',
        SUPABASE_SERVICE_ROLE_KEY: 'srv',
      }),
    );
    const request = purgeRequest(['catalogue', `product-${ID}`], config)!;
    expect(request.url).toBe(NETLIFY_PURGE_URL);
    expect(request.url).toBe('https://api.netlify.com/api/v1/purge');
    expect(request.init.method).toBe('POST');
    expect(request.init.headers).toEqual({
      Authorization: 'Bearer tok',
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(JSON.parse(String(request.init.body))).toEqual({
      site_id: 'site-1',
      cache_tags: ['catalogue', `product-${ID}`],
    });
  });

  it('does nothing without the token or the site id', () => {
    expect(purgeRequest(['catalogue'], loadPurgeConfig(env({})))).toBeNull();
    expect(
      purgeRequest(['catalogue'], loadPurgeConfig(env({ NETLIFY_PURGE_TOKEN: 't' }))),
    ).toBeNull();
    expect(purgeRequest(['catalogue'], loadPurgeConfig(env({ NETLIFY_SITE_ID: 's' })))).toBeNull();
  });

  it('empties the whole catalogue, and a product’s own tag as the host writes it', () => {
    expect(purgeTags({ table: 'catagories', record: { id: ID } })).toEqual([CATALOGUE_TAG]);
    expect(purgeTags({ table: 'products', record: { id: ID }, old_record: { id: ID } })).toEqual([
      CATALOGUE_TAG,
      cacheTag('product', ID),
    ]);
    expect(purgeTags({ table: 'products', record: { id: 'x,y' } })).toEqual([CATALOGUE_TAG]);
    expect(purgeTags({})).toEqual([CATALOGUE_TAG]);
  });

  it('admits only the service role or a secret key as bearer', () => {
    const config = loadPurgeConfig(
      env({ SUPABASE_SERVICE_ROLE_KEY: 'srv', SUPABASE_SECRET_KEYS: '{"default":"sb_secret_x"}' }),
    );
    expect(trustedCaller('Bearer srv', config)).toBe(true);
    expect(trustedCaller('Bearer sb_secret_x', config)).toBe(true);
    expect(trustedCaller('Bearer anon', config)).toBe(false);
    expect(trustedCaller(null, config)).toBe(false);
    expect(trustedCaller('Bearer ', loadPurgeConfig(env({})))).toBe(false);
  });
});
