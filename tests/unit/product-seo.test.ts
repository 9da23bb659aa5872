// What a product page tells search engines (src/lib/domain/productSeo.ts), shared by the page and the
// server: the Offer only for a price with a number, absolute URLs, a description cut at a word,
// and JSON that no text can break out of its <script> element with.
import { describe, expect, it } from 'vitest';
import { storeSettings } from '../../src/lib/infra/storeSettings';
import {
  metaDescription,
  productHead,
  scriptJson,
  seoSettings,
  type ProductPageProduct,
} from '../../src/lib/domain/productSeo';

const product: ProductPageProduct = {
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'match-football-size-5',
  title: 'Match Football Size 5',
  cat: 'Football',
  image: '/products/match-football.svg',
  price: '£24.99',
  com: 'A hand-stitched ball.',
  link: 'https://seller.example.co.uk/ball',
  updated_at: '2026-11-24T02:00:00+00:00',
  price_number: 24.99,
};
const settings = seoSettings('https://shop.example.co.uk/', storeSettings.name);

describe('product page head', () => {
  it('gives title, canonical, Open Graph and a Product with an Offer in GBP', () => {
    const head = productHead(product, settings, product.image);
    expect(head.title).toBe('Match Football Size 5 | MAR Online.Store UK');
    expect(head.canonical).toBe('https://shop.example.co.uk/p/match-football-size-5');
    expect(Object.fromEntries(head.openGraph)).toMatchObject({
      'og:type': 'product',
      'og:url': head.canonical,
      'og:image': 'https://shop.example.co.uk/products/match-football.svg',
    });
    expect(head.jsonLd).toMatchObject({
      '@type': 'Product',
      name: product.title,
      url: head.canonical,
      offers: {
        '@type': 'Offer',
        price: '24.99',
        priceCurrency: 'GBP',
        url: product.link,
        seller: { '@type': 'Organization', name: 'seller.example.co.uk' },
      },
    });
  });

  it('leaves the Offer out when the price has no number', () => {
    const head = productHead({ ...product, price: 'Ask us', price_number: null }, settings, '');
    expect(head.jsonLd).not.toHaveProperty('offers');
  });

  it('leaves the Offer out when the seller link has no site to name', () => {
    const head = productHead({ ...product, link: 'javascript:alert(1)' }, settings, '');
    expect(head.jsonLd).not.toHaveProperty('offers');
  });

  it('keeps an absolute picture URL as it is', () => {
    const url = 'https://cdn.example.com/ball.webp';
    expect(productHead(product, settings, url).jsonLd.image).toEqual([url]);
  });

  it('cuts a long description at a word, within 160 characters', () => {
    const long = metaDescription({ price: '5', com: 'word '.repeat(60) });
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long).toMatch(/^£5\.00 · word( word)+…$/);
    expect(metaDescription({ price: 'POA', com: 'Two\nlines' })).toBe('POA · Two lines');
  });

  it('writes JSON no text can end a <script> with', () => {
    const json = scriptJson({ name: '</script><script>alert(1)</script>\u2028' });
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({ name: '</script><script>alert(1)</script>\u2028' });
  });
});
