// The host's function itself (netlify/functions/product-pages.ts), called as Netlify calls it
// against the real local stack: every page type it serves (product page, old slug, 404 page,
// sitemaps, robots.txt, the price-drop feed) carries the full security header set of
// public/_headers, because hosts apply `_headers` to static files only. The local servers' edge
// cases: a malformed address (/p/%E0%A4%A) is a 404 on the dev server as in the function (was a
// 500 with a stack trace), and the dev server's sitemap refuses a Host header that is not a host
// name.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import productPagesFunction from '../../netlify/functions/product-pages';
import { fillPlaceholders, parseHeadersFile } from '../../src/host/securityHeaders';
import { productFields } from './db-test-helpers.ts';
import { serviceClient, stackEnv } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
const CAT = uniqueId('Host Cat');
/** The built shell the function fetches from its own site: one inline script, as a build has. */
const SHELL =
  '<!doctype html><html lang="en-GB"><head><meta name="description" content="x" />' +
  '<title>Shell</title><script>document.documentElement.dataset.scheme = "light"</script>' +
  '</head><body><div id="root"></div></body></html>';
const ROOT = path.resolve(import.meta.dirname, '../..');
let site: http.Server;
let origin: string;
let slug: string;
let oldSlug: string;
const savedEnv = { ...process.env };

/** The headers public/_headers gives a static file, filled in as the build fills dist/_headers. */
async function staticHeaders(): Promise<Record<string, string>> {
  const file = readFileSync(path.join(ROOT, 'public/_headers'), 'utf8');
  const rules = parseHeadersFile(await fillPlaceholders(file, stackEnv().API_URL, SHELL));
  const all = rules.find((r) => r.pattern === '/*')!;
  return Object.fromEntries(all.headers.map(([n, v]) => [n.toLowerCase(), v]));
}

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url !== '/spa.html') return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(SHELL);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  process.env.VITE_SUPABASE_URL = stackEnv().API_URL;
  process.env.VITE_SUPABASE_ANON_KEY = stackEnv().ANON_KEY;
  delete process.env.VITE_SITE_URL;
  const { error } = await service.from('catagories').insert({ title: CAT });
  if (error) throw new Error(error.message);
  const title = `${uniqueId('Host Ball')} 20$" $& $'`;
  const { data, error: insertError } = await service
    .from('products')
    .insert(productFields(CAT, title, '£20$"'))
    .select('id, slug')
    .single();
  if (insertError) throw new Error(insertError.message);
  oldSlug = data.slug as string;
  await service
    .from('products')
    .update({ title: `${title} renamed` })
    .eq('id', data.id);
  const renamed = await service.from('products').select('slug').eq('id', data.id).single();
  slug = renamed.data!.slug as string;
});

afterAll(async () => {
  process.env = savedEnv;
  await service.from('products').delete().eq('cat', CAT);
  await service.from('catagories').delete().eq('title', CAT);
  await new Promise((resolve) => site.close(resolve));
});

describe('the host function sends the security headers itself', () => {
  it('on every page type it serves, the same set as the static files', async () => {
    const expected = await staticHeaders();
    expect(Object.keys(expected)).toEqual(
      expect.arrayContaining([
        'content-security-policy',
        'x-frame-options',
        'x-content-type-options',
        'referrer-policy',
        'permissions-policy',
      ]),
    );
    const pages: Array<[string, number]> = [
      [`/p/${slug}`, 200],
      [`/p/${oldSlug}`, 301],
      ['/p/no-such-product-ever', 404],
      ['/p/%E0%A4%A', 404],
      ['/p/a/b', 404],
      // The price-drop feed (REQ-OFF-5) and its 404.
      [`/p/${slug}/prices.atom`, 200],
      ['/p/no-such-product-ever/prices.atom', 404],
      ['/sitemap.xml', 200],
      ['/sitemap-pages.xml', 200],
      ['/sitemap-products-1.xml', 200],
      ['/sitemap-products-99.xml', 404],
      ['/robots.txt', 200],
    ];
    for (const [pathname, status] of pages) {
      const response = await productPagesFunction(new Request(`${origin}${pathname}`));
      expect(response.status, pathname).toBe(status);
      for (const [name, value] of Object.entries(expected))
        expect(response.headers.get(name), `${pathname} ${name}`).toBe(value);
    }
  });

  it('serves a product with $ patterns in its text as one page with valid JSON-LD', async () => {
    const response = await productPagesFunction(new Request(`${origin}/p/${slug}`));
    const html = await response.text();
    expect(html.match(/<title>/g)).toHaveLength(1);
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!;
    const jsonLd = JSON.parse(ld) as { name: string; url: string };
    expect(jsonLd.name).toMatch(/ 20\$" \$& \$' renamed$/);
    expect(jsonLd.url).toBe(`${origin}/p/${slug}`);
    // The £ amount in the money format (REQ-PATH-6), the rest of the text as typed.
    expect(html).toContain('£20.00$&quot;');
  });
});

describe('the dev server (npm start)', () => {
  let dev: ViteDevServer;
  let port: number;
  const get = (pathname: string, host?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: pathname, headers: host ? { host } : {} },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
    });

  beforeAll(async () => {
    dev = await createServer({
      root: ROOT,
      configFile: path.join(ROOT, 'vite.config.ts'),
      logLevel: 'silent',
      server: { port: 0, strictPort: false, host: '127.0.0.1', warmup: { clientFiles: [] } },
    });
    await dev.listen();
    port = (dev.httpServer!.address() as { port: number }).port;
  });
  afterAll(async () => {
    await dev?.close();
  });

  it('answers a malformed product address with the 404 page, not a 500 with a stack trace', async () => {
    const answer = await get('/p/%E0%A4%A');
    expect(answer.status).toBe(404);
    expect(answer.body).not.toMatch(/URI malformed|at decodeURIComponent|node_modules/);
  });

  it('serves the price-drop feed and answers a matching If-None-Match with 304 (REQ-OFF-5)', async () => {
    const feed = await fetch(`http://127.0.0.1:${port}/p/${slug}/prices.atom`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const etag = feed.headers.get('etag')!;
    const again = await fetch(`http://127.0.0.1:${port}/p/${slug}/prices.atom`, {
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('refuses a Host header that is not a host name, and escapes the one it takes', async () => {
    const forged = await get('/sitemap-pages.xml', `127.0.0.1:1"><x a="`);
    expect(forged.status).toBe(400);
    expect(forged.body).not.toContain('<x');
    const plain = await get('/sitemap-pages.xml', `127.0.0.1:${port}`);
    expect(plain.status).toBe(200);
    expect(plain.body).toContain(`<loc>http://127.0.0.1:${port}/contact</loc>`);
  });
});
