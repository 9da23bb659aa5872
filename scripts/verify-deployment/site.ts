// The site as a visitor and a search engine get it: static pages (/, /contact, a JS asset, an
// unknown path's 404) and the host function's pages (/p/<slug>, an unknown product's 404, the
// sitemaps, robots.txt, the cacheable catalogue reads), their HTML and JSON-LD, and the security
// headers on every page type.
// GET requests only.
import { randomUUID } from 'node:crypto';
import { timedFetch } from './context.ts';
import { CheckFailure, fail, guarded, ok, skip, type Line } from './report.ts';
import type { SampleProduct } from './storefront.ts';
import { checkHeaders, type ExpectedHeaders } from './headers.ts';

const PRODUCT_PAGES =
  'the host function for /p/*, the sitemaps and robots.txt (docs/product-pages.md, ' +
  '“Hosted”): deploy netlify/functions/product-pages.ts with the site and set ' +
  'VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY, VITE_SITE_URL in the host’s environment';
const STATIC =
  'deploy dist/ as built (README: Deploying to hosted Supabase, step 7), with its _redirects';
const SITE_URL =
  'set VITE_SITE_URL to the shop’s address in the host’s environment (docs/product-pages.md) ' +
  'and deploy again';

interface Page {
  status: number;
  headers: Headers;
  body: string;
}

async function get(site: string, path: string): Promise<Page> {
  // Redirects are followed (a host may send /contact on to /contact.html): what a browser shows.
  const res = await timedFetch(new URL(path, site));
  return { status: res.status, headers: res.headers, body: await res.text() };
}

const type = (p: Page) => p.headers.get('content-type') ?? '(none)';

function decodeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function expectPage(p: Page, status: number, contentType: RegExp, what: string, fix: string) {
  if (p.status !== status || !contentType.test(type(p)))
    throw new CheckFailure(`${what}: ${p.status} ${type(p)}, expected ${status}`, fix);
}

/** Checks one product page's HTML: title, canonical URL on the site, Product JSON-LD. */
export function productHtmlProblems(body: string, product: SampleProduct, site: string): string[] {
  const problems: string[] = [];
  const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1];
  if (!title || !decodeHtml(title).includes(product.title))
    problems.push(`<title> is “${title ?? ''}”, not the product’s`);
  const canonical = /<link rel="canonical" href="([^"]*)"/i.exec(body)?.[1];
  const expected = `${site}/p/${product.slug}`;
  if (!canonical || decodeHtml(canonical) !== expected)
    problems.push(`canonical is ${canonical ?? 'missing'}, expected ${expected}`);
  const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/i.exec(body)?.[1];
  let parsed: { '@type'?: string; name?: string } = {};
  try {
    if (ld) parsed = JSON.parse(ld) as typeof parsed;
  } catch {
    problems.push('JSON-LD is not valid JSON');
  }
  if (parsed['@type'] !== 'Product' || parsed.name !== product.title)
    problems.push('no schema.org Product JSON-LD naming the product');
  return problems;
}

export async function checkSite(
  site: string,
  api: string,
  product: SampleProduct | null,
  expected: ExpectedHeaders,
): Promise<Line[]> {
  const lines: Line[] = [];
  const pages = new Map<string, Page>();
  const page = async (label: string, path: string) => {
    const p = await get(site, path);
    pages.set(label, p);
    return p;
  };

  lines.push(
    ...(await guarded('site: / and /contact (static)', STATIC, async () => {
      const home = await page('/', '/');
      expectPage(home, 200, /text\/html/, '/', STATIC);
      const contact = await page('/contact', '/contact');
      expectPage(contact, 200, /text\/html/, '/contact', STATIC);
      const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(home.body)?.[1];
      if (!script) return fail('site: / and /contact (static)', '/ loads no /assets/*.js', STATIC);
      const asset = await page('/assets/*.js', script);
      expectPage(asset, 200, /javascript/, script, STATIC);
      return ok('site: / and /contact (static)', `200 text/html; ${script} 200 ${type(asset)}`);
    })),
  );

  // The static CSP names the API the site was built against (public/_headers, filled at build).
  const csp = pages.get('/')?.headers.get('content-security-policy') ?? '';
  const connect = /connect-src([^;]*)/.exec(csp)?.[1] ?? '';
  lines.push(
    connect.split(/\s+/).includes(api)
      ? ok('site: built for this API', `connect-src allows ${api}`)
      : fail(
          'site: built for this API',
          `the site’s Content-Security-Policy connect-src is “${connect.trim()}”, not ${api}`,
          'build with VITE_SUPABASE_URL=' +
            api +
            ' and deploy dist/ with its _headers ' +
            '(README: Deploying to hosted Supabase, step 7; docs/security-headers.md)',
        ),
  );

  if (product) {
    lines.push(
      ...(await guarded('site: product page /p/<slug>', PRODUCT_PAGES, async () => {
        const p = await page('/p/<slug>', `/p/${product.slug}`);
        expectPage(p, 200, /text\/html/, `/p/${product.slug}`, PRODUCT_PAGES);
        const problems = productHtmlProblems(p.body, product, site);
        return problems.length
          ? fail('site: product page /p/<slug>', problems.join('; '), SITE_URL)
          : ok('site: product page /p/<slug>', `/p/${product.slug}: title, canonical, JSON-LD`);
      })),
    );
    // The price-drop feed (REQ-OFF-5): Atom from the same host function, cacheable.
    lines.push(
      ...(await guarded('site: price-drop feed', PRODUCT_PAGES, async () => {
        const feed = await page('/p/<slug>/prices.atom', `/p/${product.slug}/prices.atom`);
        expectPage(feed, 200, /application\/atom\+xml/, '/p/<slug>/prices.atom', PRODUCT_PAGES);
        const cache = feed.headers.get('cache-control') ?? '';
        if (!/s-maxage=\d+/.test(cache))
          return fail('site: price-drop feed', `Cache-Control is “${cache}”`, PRODUCT_PAGES);
        return feed.body.includes('<feed xmlns="http://www.w3.org/2005/Atom"')
          ? ok('site: price-drop feed', `/p/${product.slug}/prices.atom: Atom, ${cache}`)
          : fail('site: price-drop feed', 'the body is not an Atom feed', PRODUCT_PAGES);
      })),
    );
  } else lines.push(skip('site: product page /p/<slug>', 'the catalogue is empty'));

  lines.push(
    ...(await guarded('site: unknown product answers 404', PRODUCT_PAGES, async () => {
      const p = await page('/p/<unknown> (404)', `/p/no-such-product-${randomUUID()}`);
      expectPage(p, 404, /text\/html/, '/p/<unknown>', PRODUCT_PAGES);
      return ok('site: unknown product answers 404', '404 text/html');
    })),
    // REQ-PATH-8: no soft 404 (a 200 with the app's not-found page) for a path of no page.
    ...(await guarded('site: unknown path answers 404', STATIC, async () => {
      const p = await page('/<unknown> (404)', `/no-such-page-${randomUUID()}`);
      expectPage(p, 404, /text\/html/, '/<unknown>', STATIC);
      return ok('site: unknown path answers 404', '404 text/html');
    })),
    ...(await guarded('site: sitemaps', PRODUCT_PAGES, async () => {
      const index = await page('/sitemap.xml', '/sitemap.xml');
      expectPage(index, 200, /xml/, '/sitemap.xml', PRODUCT_PAGES);
      const locs = [...index.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
      const wanted = [`${site}/sitemap-pages.xml`, `${site}/sitemap-products-1.xml`];
      const absent = wanted.filter((w) => !locs.includes(w));
      if (absent.length)
        return fail('site: sitemaps', `sitemap.xml lacks ${absent.join(', ')}`, SITE_URL);
      const products = await page('/sitemap-products-1.xml', '/sitemap-products-1.xml');
      expectPage(products, 200, /xml/, '/sitemap-products-1.xml', PRODUCT_PAGES);
      const urls = [...products.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
      const foreign = urls.filter((u) => !u.startsWith(`${site}/p/`));
      if (foreign.length)
        return fail('site: sitemaps', `product URLs not on ${site}: ${foreign[0]}`, SITE_URL);
      if (product && urls.length === 0)
        return fail('site: sitemaps', 'sitemap-products-1.xml lists no product', PRODUCT_PAGES);
      return ok('site: sitemaps', `index + sitemap-products-1.xml (${urls.length} products)`);
    })),
    // REQ-CDN-1/2: the storefront's reads on the site's own origin, shared by the CDN, and
    // never a shared copy for a request that carries a cookie.
    ...(await guarded('site: cacheable catalogue reads', PRODUCT_PAGES, async () => {
      const path = '/api/catalogue/catagories?select=title&order=title.asc';
      const shared = await page('/api/catalogue/catagories', path);
      expectPage(shared, 200, /json/, path, PRODUCT_PAGES);
      const cache = shared.headers.get('cache-control') ?? '(none)';
      if (!/public/.test(cache) || !/s-maxage=\d+/.test(cache))
        return fail(
          'site: cacheable catalogue reads',
          `Cache-Control is “${cache}”`,
          PRODUCT_PAGES,
        );
      const res = await timedFetch(new URL(path, site), { headers: { Cookie: 'probe=1' } });
      await res.body?.cancel();
      const personal = res.headers.get('cache-control') ?? '(none)';
      if (!/private/.test(personal) || !/no-store/.test(personal))
        return fail(
          'site: cacheable catalogue reads',
          `a request with a cookie got “${personal}”, not private, no-store`,
          PRODUCT_PAGES,
        );
      return ok('site: cacheable catalogue reads', `${cache}; with a cookie: ${personal}`);
    })),
    ...(await guarded('site: robots.txt', PRODUCT_PAGES, async () => {
      const robots = await page('/robots.txt', '/robots.txt');
      expectPage(robots, 200, /text\/plain/, '/robots.txt', PRODUCT_PAGES);
      const line = `Sitemap: ${site}/sitemap.xml`;
      return robots.body.includes(line)
        ? ok('site: robots.txt', line)
        : fail('site: robots.txt', `does not say “${line}”`, SITE_URL);
    })),
  );

  for (const [label, p] of pages) lines.push(checkHeaders(label, p.headers, expected, api));
  return lines;
}
