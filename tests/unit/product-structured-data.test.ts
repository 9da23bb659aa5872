// A product page's JSON-LD against Google's documented product-snippet rules (Search Central,
// "Product snippet (Product, Review, Offer) structured data"): the required properties (name,
// and one of review, aggregateRating or offers; an Offer needs a price), the recommended ones
// wherever the store knows them, and nothing an affiliate page cannot truthfully claim
// (docs/decisions/0210): no availability, shipping or returns, and the Offer names the seller
// the link goes to, not this store.
import { describe, expect, it } from 'vitest';
import { storeSettings } from '../../src/lib/infra/storeSettings';
import {
  productJsonLd,
  seoSettings,
  type ProductPageProduct,
} from '../../src/lib/domain/productSeo';

const product: ProductPageProduct = {
  id: '00000000-0000-4000-8000-000000000002',
  slug: 'court-shoes',
  title: 'Court Shoes',
  cat: 'Tennis',
  image: '/products/court-shoes.svg',
  price: '£59.00',
  com: 'Grippy soles for hard courts.',
  link: 'https://www.sportsdirect.com/court-shoes-123',
  updated_at: '2026-11-24T02:00:00+00:00',
  price_number: 59,
};
const settings = seoSettings('https://shop.example.co.uk', storeSettings.name);

/** Google's product snippet: required on Product, one of these three, recommended on each. */
const REQUIRED = ['name'] as const;
const ONE_OF = ['review', 'aggregateRating', 'offers'] as const;
const RECOMMENDED_PRODUCT = ['image', 'description'] as const;
const REQUIRED_OFFER = ['price'] as const;
const RECOMMENDED_OFFER = ['priceCurrency'] as const;
/** Merchant-listing claims: only the seller knows them. */
const NOT_CLAIMED = [
  'availability',
  'shippingDetails',
  'hasMerchantReturnPolicy',
  'itemCondition',
  'priceValidUntil',
];

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  return [];
}

/** What the page puts in <script type="application/ld+json">, as a search engine reads it. */
const read = (p: ProductPageProduct) =>
  JSON.parse(JSON.stringify(productJsonLd(p, settings, p.image))) as Record<string, unknown>;

describe('product-snippet structured data for an affiliate page', () => {
  it('has the required and recommended properties, and the seller in the Offer', () => {
    const data = read(product);
    expect(data['@context']).toBe('https://schema.org');
    expect(data['@type']).toBe('Product');
    for (const key of REQUIRED) expect(data[key], key).toEqual(expect.any(String));
    expect(ONE_OF.filter((key) => key in data)).toEqual(['offers']);
    expect(data.image).toEqual(['https://shop.example.co.uk/products/court-shoes.svg']);
    for (const key of RECOMMENDED_PRODUCT) expect(data[key], key).toBeTruthy();
    const offer = data.offers as Record<string, unknown>;
    expect(offer['@type']).toBe('Offer');
    for (const key of [...REQUIRED_OFFER, ...RECOMMENDED_OFFER])
      expect(offer[key], key).toBeTruthy();
    // price: a number as text with a dot (schema.org), never "£59.00".
    expect(offer.price).toMatch(/^\d+(\.\d+)?$/);
    expect(offer.priceCurrency).toBe('GBP');
    expect(offer.url).toBe(product.link);
    expect(offer.seller).toEqual({ '@type': 'Organization', name: 'sportsdirect.com' });
  });

  it('claims no availability, shipping or returns', () => {
    const keys = keysOf(read(product));
    for (const claim of NOT_CLAIMED) expect(keys, claim).not.toContain(claim);
    expect(JSON.stringify(read(product))).not.toMatch(/InStock|OutOfStock|schema\.org\/\w+Stock/);
  });

  it('has no Offer without a numeric price (no snippet rather than an invalid one)', () => {
    const data = read({ ...product, price: 'Ask the seller', price_number: null });
    expect(data.name).toBe(product.title);
    expect(ONE_OF.filter((key) => key in data)).toEqual([]);
    expect(keysOf(data)).not.toContain('price');
  });

  it('carries several sellers as an AggregateOffer in place of the one Offer (REQ-OFF-2)', () => {
    const aggregate = { '@type': 'AggregateOffer', lowPrice: '41', highPrice: '45', offerCount: 2 };
    const data = JSON.parse(
      JSON.stringify(productJsonLd(product, settings, product.image, aggregate)),
    ) as Record<string, unknown>;
    expect(data.offers).toEqual(aggregate);
    expect(data.name).toBe(product.title);
  });
});
