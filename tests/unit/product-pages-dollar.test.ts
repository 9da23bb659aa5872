// Product text is data, never a replacement pattern: the server's page for a product (what
// src/host/productPages.ts sends for /p/<slug>) holds every field exactly as given, whatever `$`
// patterns ($$, $&, $`, $', $1, $<name>) and markup characters it contains. Built with
// String.replace and a text replacement, `20$"` became `20$&quot;`, and `$&` copied the matched
// shell into the description, Open Graph tags and JSON-LD.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storeSettings } from '../../src/lib/infra/storeSettings';
import { productHtml } from '../../src/host/productPages';
import { fillTemplate } from '../../scripts/vite-plugins/prerender';
import { safeUrl } from '../../src/lib/domain/format';
import {
  PRODUCT_DATA_ID,
  metaDescription,
  seoSettings,
  type ProductPageProduct,
} from '../../src/lib/domain/productSeo';

const SHELL =
  '<!doctype html><html lang="en-GB"><head><meta charset="utf-8" />' +
  '<meta name="description" content="The shell" />\n<title>Shell title</title>' +
  '<script>document.documentElement.dataset.x = "1"</script></head>' +
  '<body><div id="root"></div></body></html>';
const settings = seoSettings('https://shop.example.co.uk', storeSettings.name);
const SUPABASE = 'https://abc.supabase.co';

/** Every replacement pattern String.replace knows, next to what escaping turns into `&…;`. */
const PIECES = ['$$', '$&', '$`', "$'", '$1', '$9', '$<name>', '$<>', '$', '"', "'", '&', '<', '>'];
const dollarText = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 })), { maxLength: 12 })
  .map((parts) => parts.join(''));

const product = (fields: Partial<ProductPageProduct>): ProductPageProduct => ({
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'match-ball',
  title: 'Match Ball',
  cat: 'Football',
  image: '/products/ball.svg',
  price: '£20',
  com: 'A ball.',
  link: 'https://seller.example.co.uk/ball',
  updated_at: '2026-11-24T02:00:00+00:00',
  price_number: 20,
  ...fields,
});

const unescape = (s: string) =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

function checkPage(p: ProductPageProduct) {
  const html = productHtml(SHELL, { status: 'found', product: p }, settings, SUPABASE);
  expect(html.match(/<title>/g)).toHaveLength(1);
  expect(html.match(/<html/g)).toHaveLength(1);
  expect(html.match(/<div id="root">/g)).toHaveLength(1);
  expect(html.match(/<meta name="description"/g)).toHaveLength(1);
  const title = /<title>([^<]*)<\/title>/.exec(html)![1]!;
  expect(unescape(title)).toBe(`${p.title} | ${settings.titleSuffix}`);
  const description = /<meta name="description" content="([^"]*)" \/>/.exec(html)![1]!;
  expect(unescape(description)).toBe(metaDescription(p));
  const og = Object.fromEntries(
    [...html.matchAll(/<meta property="([^"]+)" content="([^"]*)" \/>/g)].map((m) => [
      m[1],
      unescape(m[2]!),
    ]),
  );
  expect(og['og:title']).toBe(`${p.title} | ${settings.titleSuffix}`);
  expect(og['og:description']).toBe(metaDescription(p));
  const ld = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)];
  expect(ld).toHaveLength(1);
  const jsonLd = JSON.parse(ld[0]![1]!) as Record<string, unknown>;
  expect(jsonLd).toMatchObject({
    '@type': 'Product',
    name: p.title,
    description: p.com,
    category: p.cat,
    url: `${settings.siteUrl}/p/${encodeURIComponent(p.slug)}`,
  });
  // The Offer's url is the seller link as Buy Now uses it (safeUrl: the same address, written
  // the WHATWG way, e.g. `<` as %3C).
  if (p.price_number !== null) expect(jsonLd.offers).toMatchObject({ url: safeUrl(p.link) });
  const data = new RegExp(`<script type="application/json" id="${PRODUCT_DATA_ID}">(.*?)</script>`);
  expect(JSON.parse(data.exec(html)![1]!)).toEqual({ status: 'found', product: p });
}

describe('product page HTML with $ in product text', () => {
  it('keeps "20$" before a quote as text (the case seen: 6 titles, broken JSON-LD)', () => {
    checkPage(product({ title: 'Ball 20$"', com: 'Was 20$" now 15$\' and $& $` $$ $1 $<x>' }));
  });

  it('holds every field as given, for any mix of $ patterns and markup characters', () => {
    fc.assert(
      fc.property(
        fc.record({
          title: dollarText,
          cat: dollarText,
          com: dollarText,
          price: dollarText,
          link: dollarText.map((s) => `https://seller.example.co.uk/${s}`),
          image: dollarText.map((s) => `/products/${s}`),
          slug: dollarText,
          id: dollarText,
          updated_at: dollarText,
          price_number: fc.option(fc.constant(20)),
        }),
        (fields) => checkPage(product(fields)),
      ),
      { numRuns: 300 },
    );
  });
});

describe('pre-rendered pages with $ in their text', () => {
  it('keeps title, description and markup as given', () => {
    // The markup is the app's own rendered HTML: no stray `<` (it could spell a <title>).
    const markupText = dollarText.map((t) => t.replaceAll('<', ''));
    fc.assert(
      fc.property(dollarText, dollarText, markupText, (title, description, markup) => {
        const html = fillTemplate(
          SHELL,
          '/about',
          { html: markup, title, description },
          'data-prerendered',
          'Shop $&',
        );
        expect(html.match(/<title>/g)).toHaveLength(1);
        expect(html.match(/<div id="root"/g)?.length).toBeGreaterThanOrEqual(1);
        expect(unescape(/<title>([^<]*)<\/title>/.exec(html)![1]!)).toBe(title);
        expect(html).toContain(`<div id="root" data-prerendered="/about">${markup}</div>`);
        expect(html).toContain('<meta property="og:site_name" content="Shop $&amp;" />');
      }),
      { numRuns: 200 },
    );
  });
});
