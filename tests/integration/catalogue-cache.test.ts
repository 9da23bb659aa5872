// The host function's caching, against the real local stack (REQ-CDN-1 to REQ-CDN-4, decision
// 0255): every public route (the whitelisted /api/catalogue reads, /p/<slug>, the sitemap,
// robots.txt) answers with the shared-cache Cache-Control, a strong ETag (304 on a match) and
// the cache tags; a signed-in or cookie-carrying request gets `private, no-store`; errors are never
// stored. Then a real shared cache: Varnish (its built-in VCL: honours s-maxage and
// stale-while-revalidate, never caches a request with Authorization or Cookie) in front of the
// host, a price changed with the service role, and the cached answer turns new within the
// production bound of 60 s + 30 s (no shortened s-maxage: the test waits the real minute).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostSite, type HostSite } from '../support/host-site.ts';
import { PUBLIC_CACHE_CONTROL } from '../../src/host/httpCache';
import { productFields } from './db-test-helpers.ts';
import {
  createConfirmedUser,
  serviceClient,
  signedInClient,
  type TestUser,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';
import { freePort } from '../support/harness.ts';

const VARNISHD = '/usr/sbin/varnishd';
const service = serviceClient();
const CAT = uniqueId('Cache Cat');
const savedEnv = { ...process.env };
let site: HostSite;
let origin: string;
let product: { id: string; slug: string };
let user: TestUser;
let userToken: string;
let varnish: ChildProcess | undefined;
let varnishDir: string;
let cacheOrigin: string;

/** varnishd in the foreground as a child, with only a backend: the built-in VCL does the rest. */
async function startVarnish(backendPort: number): Promise<void> {
  varnishDir = mkdtempSync(path.join(tmpdir(), 'mar-varnish-'));
  const vcl = path.join(varnishDir, 'site.vcl');
  writeFileSync(vcl, `vcl 4.1;\nbackend site { .host = "127.0.0.1"; .port = "${backendPort}"; }\n`);
  const port = await freePort();
  cacheOrigin = `http://127.0.0.1:${port}`;
  varnish = spawn(
    VARNISHD,
    // -j none: no privilege-separation jail (the test may run as any user); -T none: no CLI.
    ['-F', '-j', 'none', '-T', 'none', '-n', path.join(varnishDir, 'n')].concat([
      '-a',
      `127.0.0.1:${port}`,
      '-f',
      vcl,
      '-s',
      'malloc,32m',
    ]),
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    if (varnish.exitCode !== null) throw new Error(`varnishd exited ${varnish.exitCode}`);
    const up = await fetch(`${cacheOrigin}/robots.txt`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('varnishd did not start');
}

beforeAll(async () => {
  site = await startHostSite();
  origin = site.origin;
  const { error } = await service.from('catagories').insert({ title: CAT });
  if (error) throw new Error(error.message);
  const inserted = await service
    .from('products')
    .insert(productFields(CAT, uniqueId('Cache Ball'), '£20.00'))
    .select('id, slug')
    .single();
  if (inserted.error) throw new Error(inserted.error.message);
  product = inserted.data as { id: string; slug: string };
  user = await createConfirmedUser();
  const client = await signedInClient(user);
  userToken = (await client.auth.getSession()).data.session!.access_token;
  await startVarnish((site.server.address() as net.AddressInfo).port);
});

afterAll(async () => {
  process.env = savedEnv;
  varnish?.kill('SIGTERM');
  if (varnishDir) rmSync(varnishDir, { recursive: true, force: true });
  await service.from('products').delete().eq('cat', CAT);
  await service.from('catagories').delete().eq('title', CAT);
  if (user) await service.auth.admin.deleteUser(user.id);
  await site.close();
});

/** Every public route, with the tags it must carry besides `catalogue`. */
function publicRoutes(): [path: string, tags: string[]][] {
  const id = product.id;
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return [
    [`/api/catalogue/rpc/storefront_page?${q({ p_cat: CAT, p_limit: '3' })}`, []],
    ['/api/catalogue/catagories?select=title&order=title.asc', []],
    [`/api/catalogue/rpc/storefront_search?${q({ p_query: 'ball', p_limit: '3' })}`, []],
    [`/api/catalogue/rpc/product_page?${q({ p_slug: product.slug })}`, []],
    [`/api/catalogue/rpc/product_offers?p_product_id=${id}`, [`product-${id}`]],
    [`/api/catalogue/rpc/product_price_history?p_product_id=${id}&p_days=90`, [`product-${id}`]],
    [`/api/catalogue/rpc/catagory_current_title?${q({ p_title: CAT })}`, []],
    ['/api/catalogue/store_settings?select=store_name&id=eq.true', []],
    ['/api/catalogue/storefront_content?select=*&id=eq.true', []],
    [`/p/${product.slug}`, [`product-${id}`]],
    ['/sitemap.xml', []],
    ['/robots.txt', []],
  ];
}

describe('REQ-CDN-2: the host function caches every public route', () => {
  it('public Cache-Control, strong ETag, 304 on If-None-Match, the cache tags', async () => {
    for (const [route, tags] of publicRoutes()) {
      const response = await fetch(`${origin}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('Cache-Control'), route).toBe(PUBLIC_CACHE_CONTROL);
      expect(response.headers.get('Netlify-CDN-Cache-Control'), route).toMatch(/^public, durable/);
      expect(response.headers.get('CDN-Cache-Control'), route).toMatch(/stale-while-revalidate/);
      const etag = response.headers.get('ETag');
      expect(etag, route).toMatch(/^"[0-9a-f]{32}"$/);
      for (const header of ['Netlify-Cache-Tag', 'Cache-Tag']) {
        const got = response.headers.get(header)?.split(',');
        expect(got, `${route} ${header}`).toEqual(expect.arrayContaining(['catalogue', ...tags]));
      }
      await response.arrayBuffer();
      const again = await fetch(`${origin}${route}`, { headers: { 'If-None-Match': etag! } });
      expect(again.status, route).toBe(304);
      expect(again.headers.get('ETag'), route).toBe(etag);
      expect(await again.text(), route).toBe('');
    }
  });

  it('catalogue reads: the Data API body and type, Vary: Accept, a single object on asking', async () => {
    const route = `/api/catalogue/rpc/product_page?p_slug=${encodeURIComponent(product.slug)}`;
    const response = await fetch(`${origin}${route}`);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(response.headers.get('Vary')).toBe('Accept');
    const body = (await response.json()) as { status: string; product: { id: string } };
    expect(body.product.id).toBe(product.id);
    const rows = await fetch(`${origin}/api/catalogue/catagories?select=title&title=eq.${CAT}`, {
      headers: { Accept: 'application/vnd.pgrst.object+json' },
    });
    expect(await rows.json()).toEqual({ title: CAT });
  });

  it('a signed-in user or a cookie: the same body, private, no-store, no tags', async () => {
    for (const [route] of publicRoutes()) {
      const shared = await fetch(`${origin}${route}`).then((r) => r.text());
      const personals: Record<string, string>[] = [
        { Authorization: `Bearer ${userToken}` },
        { Cookie: 'sb=1' },
      ];
      for (const personal of personals) {
        const response = await fetch(`${origin}${route}`, { headers: personal });
        expect(response.status, route).toBe(200);
        expect(response.headers.get('Cache-Control'), route).toBe('private, no-store');
        expect(response.headers.has('Netlify-Cache-Tag'), route).toBe(false);
        expect(response.headers.has('Netlify-CDN-Cache-Control'), route).toBe(false);
        expect(response.headers.has('CDN-Cache-Control'), route).toBe(false);
        expect(response.headers.has('Cache-Tag'), route).toBe(false);
        expect(await response.text(), route).toBe(shared);
      }
    }
  });

  it('unlisted path 404, a write 405, a Data API error no-store; all with security headers', async () => {
    const unlisted = await fetch(`${origin}/api/catalogue/products?select=*`);
    expect(unlisted.status).toBe(404);
    expect(unlisted.headers.get('Cache-Control')).toBe('no-store');
    expect(unlisted.headers.get('X-Frame-Options')).toBe('DENY');
    const write = await fetch(`${origin}/api/catalogue/rpc/storefront_page`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBe(405);
    expect(write.headers.get('Cache-Control')).toBe('no-store');
    const error = await fetch(`${origin}/api/catalogue/rpc/product_offers?p_product_id=nope`);
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.headers.get('Cache-Control')).toBe('no-store');
    expect(error.headers.has('ETag')).toBe(false);
    expect(error.headers.has('Netlify-Cache-Tag')).toBe(false);
  });
});

/** A GET through Varnish: the body, and whether Varnish answered from its cache. */
async function throughCache(route: string): Promise<{ body: string; hit: boolean }> {
  const response = await fetch(`${cacheOrigin}${route}`);
  // X-Varnish holds two transaction ids when the object came from the cache.
  const hit = (response.headers.get('X-Varnish') ?? '').trim().split(/\s+/).length === 2;
  return { body: await response.text(), hit };
}

describe('REQ-CDN-3: a change shows through a real shared cache within 60 s + 30 s', () => {
  it('Varnish keeps the answer, then serves the new price within the bound', async () => {
    const routes = [
      `/api/catalogue/rpc/product_page?p_slug=${encodeURIComponent(product.slug)}`,
      `/p/${product.slug}`,
    ];
    for (const route of routes) expect((await throughCache(route)).body).toContain('£20.00');
    for (const route of routes) expect((await throughCache(route)).hit, route).toBe(true);
    // A signed-in request passes the cache (Varnish's built-in rule) and the host says no-store.
    const personal = await fetch(`${cacheOrigin}${routes[0]}`, {
      headers: { Authorization: `Bearer ${userToken}` },
    });
    expect(personal.headers.get('Cache-Control')).toBe('private, no-store');

    const { error } = await service
      .from('products')
      .update({ price: '£21.50' })
      .eq('id', product.id);
    expect(error).toBeNull();
    const changed = Date.now();
    // The host has it at once; the cache still has the old answer (it really is in between).
    expect(await fetch(`${origin}${routes[0]}`).then((r) => r.text())).toContain('£21.50');
    for (const route of routes) expect((await throughCache(route)).body).toContain('£20.00');

    const seen = new Map<string, number>();
    while (seen.size < routes.length && Date.now() - changed < 95_000) {
      for (const route of routes)
        if (!seen.has(route) && (await throughCache(route)).body.includes('£21.50'))
          seen.set(route, Date.now() - changed);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    for (const route of routes) {
      expect(seen.get(route), route).toBeDefined();
      expect(seen.get(route)!, route).toBeLessThanOrEqual(90_000);
    }
    console.info('new price through the cache after (ms):', Object.fromEntries(seen));
  }, 120_000);
});
