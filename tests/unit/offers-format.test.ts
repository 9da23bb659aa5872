// REQ-OFF-2, REQ-OFF-3, REQ-OFF-4: the pure formatting the storefront and the host share
// (src/lib/domain/offers.ts).
import { describe, expect, it } from 'vitest';
import {
  aggregateOfferJsonLd,
  availabilityText,
  cardPrice,
  checkedAgo,
  checkedText,
  deliveryText,
  formatGbp,
  freshnessOf,
  historyDay,
  historySummary,
  offerNote,
  offerPriceText,
  priceNumber,
  type ProductOffer,
} from '../../src/lib/domain/offers';
import { texts } from '../../src/offerTexts';

const now = new Date('2026-11-26T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const limits = { staleDays: 7, hiddenDays: 30 };

describe('formatGbp', () => {
  it('writes pounds with two decimals and thousands commas', () => {
    expect(formatGbp(1249)).toBe('£1,249.00');
    expect(formatGbp(41)).toBe('£41.00');
    expect(formatGbp(3.99)).toBe('£3.99');
    expect(formatGbp('12.5')).toBe('£12.50');
    expect(formatGbp(0)).toBe('£0.00');
  });
});

describe('freshnessOf', () => {
  it('is current up to the stale limit, stale after it, hidden after the hidden limit', () => {
    expect(freshnessOf(ago(HOUR), now, 7, 30)).toBe('current');
    expect(freshnessOf(ago(7 * DAY), now, 7, 30)).toBe('current');
    expect(freshnessOf(ago(7 * DAY + 1000), now, 7, 30)).toBe('stale');
    expect(freshnessOf(ago(30 * DAY), now, 7, 30)).toBe('stale');
    expect(freshnessOf(ago(30 * DAY + 1000), now, 7, 30)).toBe('hidden');
    expect(freshnessOf(new Date(now.getTime() - 2 * DAY), now.getTime(), 1, 1)).toBe('hidden');
  });

  it('is none for a price never confirmed', () => {
    expect(freshnessOf(null, now, 7, 30)).toBe('none');
    expect(freshnessOf(undefined, now, 7, 30)).toBe('none');
    expect(freshnessOf('not a date', now, 7, 30)).toBe('none');
  });
});

describe('checkedAgo', () => {
  it('says how long ago in whole units (en-GB)', () => {
    expect(checkedAgo(ago(3 * HOUR + 59 * 60_000), now)).toBe('3 hours ago');
    expect(checkedAgo(ago(HOUR), now)).toBe('1 hour ago');
    expect(checkedAgo(ago(5 * 60_000), now)).toBe('5 minutes ago');
    expect(checkedAgo(ago(2 * DAY), now)).toBe('2 days ago');
    expect(checkedAgo(ago(90 * DAY), now)).toBe('3 months ago');
    expect(checkedAgo(ago(800 * DAY), now)).toBe('2 years ago');
  });

  it('says "just now" under a minute and for a time ahead of the clock', () => {
    expect(checkedAgo(ago(59_000), now)).toBe(texts.offerList.justNow);
    expect(checkedAgo(ago(-HOUR), now)).toBe(texts.offerList.justNow);
  });

  it('makes the freshness line', () => {
    expect(checkedText(ago(3 * HOUR), now)).toBe('price checked 3 hours ago');
  });
});

describe('delivery and availability', () => {
  it('says free, the cost, or nothing when unknown', () => {
    expect(deliveryText(0)).toBe('Free delivery');
    expect(deliveryText(3.99)).toBe('+ £3.99 delivery');
    expect(deliveryText(null)).toBeNull();
  });

  it('names the known availabilities only', () => {
    expect(availabilityText('in_stock')).toBe('In stock');
    expect(availabilityText('out_of_stock')).toBe('Out of stock');
    expect(availabilityText(null)).toBeNull();
    expect(availabilityText('toString')).toBeNull();
  });
});

describe('an offer on the product page', () => {
  it('shows a current or stale price, no number once hidden or without one', () => {
    expect(offerPriceText({ price_gbp: 41, freshness: 'current' })).toBe('£41.00');
    expect(offerPriceText({ price_gbp: 41, freshness: 'stale' })).toBe('£41.00');
    expect(offerNote({ price_gbp: 41, freshness: 'stale' })).toBe(texts.offers.stale);
    expect(offerNote({ price_gbp: 41, freshness: 'current' })).toBeNull();
    expect(offerPriceText({ price_gbp: null, freshness: 'hidden' })).toBe(texts.offers.hidden);
    expect(offerPriceText({ price_gbp: null, freshness: 'none' })).toBe(
      'check the price with the seller',
    );
  });
});

describe('priceNumber', () => {
  it('reads the first number as public.price_number does', () => {
    expect(priceNumber('£1,249.99 today')).toBe(1249.99);
    expect(priceNumber('12.5')).toBe(12.5);
    expect(priceNumber('from .5')).toBe(0.5);
    expect(priceNumber('Call us')).toBeNull();
    expect(priceNumber('')).toBeNull();
  });
});

describe('cardPrice', () => {
  const product = {
    price: '£45 (was £60)',
    price_value: 41,
    offer_count: 3,
    price_checked_at: ago(HOUR),
  };

  it('shows "from £X" and the number of sellers for several current offers', () => {
    expect(cardPrice(product, limits, now)).toEqual({ price: 'from £41.00', note: '3 sellers' });
  });

  it('shows the typed price text when the only offer is the text’s number', () => {
    expect(cardPrice({ ...product, price_value: 45, offer_count: 1 }, limits, now)).toEqual({
      // The typed text in the one money format (REQ-PATH-6).
      price: '£45.00 (was £60.00)',
      note: '',
    });
    expect(
      cardPrice({ ...product, price: '24.5', price_value: 24.5, offer_count: 1 }, limits, now),
    ).toEqual({ price: '£24.50', note: '' });
  });

  it('shows the only offer’s own price when it is another number', () => {
    expect(cardPrice({ ...product, offer_count: 1 }, limits, now)).toEqual({
      price: '£41.00',
      note: '',
    });
  });

  it('without a current offer: the text, noted when stale, no number when hidden', () => {
    const none = { ...product, price_value: null, offer_count: 0 };
    expect(cardPrice({ ...none, price_checked_at: ago(8 * DAY) }, limits, now)).toEqual({
      price: '£45.00 (was £60.00)',
      note: 'price may have changed — check with the seller',
    });
    expect(cardPrice({ ...none, price_checked_at: ago(31 * DAY) }, limits, now)).toEqual({
      price: '',
      note: 'check the price with the seller',
    });
    expect(cardPrice({ ...none, price: 'Call us', price_checked_at: null }, limits, now)).toEqual({
      price: 'Call us',
      note: '',
    });
  });

  it('shows the price text as before for a row without the summary columns', () => {
    expect(cardPrice({ price: '12.99' }, limits, now)).toEqual({ price: '£12.99', note: '' });
  });
});

describe('price history', () => {
  it('writes a day as "3 Oct"', () => {
    expect(historyDay('2026-10-03')).toBe('3 Oct');
    expect(historyDay('2026-01-31')).toBe('31 Jan');
  });

  it('finds the first day of the lowest price and the range', () => {
    const summary = historySummary([
      { day: '2026-09-01', lowest_gbp: 45 },
      { day: '2026-10-03', lowest_gbp: 41 },
      { day: '2026-10-04', lowest_gbp: 41 },
      { day: '2026-11-01', lowest_gbp: 52.5 },
      { day: '2026-11-02', lowest_gbp: null },
    ]);
    expect(summary?.text).toBe('Lowest in 90 days: £41.00 on 3 Oct');
    expect(summary?.label).toBe(
      'Lowest price each day over the last 90 days, between £41.00 and £52.50',
    );
    expect(historySummary([])).toBeNull();
    expect(historySummary([{ day: '2026-11-02', lowest_gbp: null }])).toBeNull();
  });
});

describe('aggregateOfferJsonLd', () => {
  const offer = (patch: Partial<ProductOffer>): ProductOffer => ({
    offer_id: 'o',
    seller_id: 's',
    seller_name: 'Seller',
    seller_site: 'https://seller.example',
    seller_logo: null,
    link: 'https://seller.example/x',
    price_gbp: 41,
    delivery_gbp: null,
    availability: null,
    price_confirmed_at: now.toISOString(),
    freshness: 'current',
    is_primary: false,
    ...patch,
  });

  it('describes several current offers, leaving stale and hidden ones out', () => {
    expect(
      aggregateOfferJsonLd([
        offer({ seller_name: 'Racket World', price_gbp: 41, link: 'https://a.example/r?tag=x' }),
        offer({ seller_name: 'Court Supplies', price_gbp: 45.5, link: 'https://b.example/r' }),
        offer({ seller_name: 'Old Prices', price_gbp: 35, freshness: 'stale' }),
        offer({ seller_name: 'Gone', price_gbp: null, freshness: 'hidden' }),
      ]),
    ).toEqual({
      '@type': 'AggregateOffer',
      lowPrice: '41',
      highPrice: '45.5',
      offerCount: 2,
      priceCurrency: 'GBP',
      offers: [
        {
          '@type': 'Offer',
          price: '41',
          priceCurrency: 'GBP',
          url: 'https://a.example/r?tag=x',
          seller: { '@type': 'Organization', name: 'Racket World' },
        },
        {
          '@type': 'Offer',
          price: '45.5',
          priceCurrency: 'GBP',
          url: 'https://b.example/r',
          seller: { '@type': 'Organization', name: 'Court Supplies' },
        },
      ],
    });
  });

  it('is null with one current offer (the product keeps its own Offer)', () => {
    expect(aggregateOfferJsonLd([offer({}), offer({ freshness: 'stale' })])).toBeNull();
  });
});
