// How the storefront shows a product's offers (REQ-OFF-2, REQ-OFF-3, REQ-OFF-4): prices in GBP,
// how fresh a price is, when it was checked, delivery and availability, the price history's
// summary and the offers' JSON-LD. Pure functions of what the database returns
// (public.product_offers, the products summary columns, public.product_price_history) and the
// store settings' limits, shared by the SPA and the server that answers /p/<slug> and the
// price-drop feed (src/host), so both say the same (docs/decisions/0231).
import { texts } from '../../offerTexts.ts';
import {
  cardPrice as cardPriceWith,
  formatGbp,
  timeOf,
  type CardPriceSource,
  type Freshness,
  type FreshnessLimits,
} from './offerPrice.ts';

export {
  DEFAULT_FRESHNESS_LIMITS,
  formatGbp,
  freshnessOf,
  priceNumber,
  type CardPriceSource,
  type Freshness,
  type FreshnessLimits,
} from './offerPrice.ts';

/** The card's price line and note with the store's texts (see offerPrice.ts). */
export function cardPrice(product: CardPriceSource, limits: FreshnessLimits, now: Date | number) {
  return cardPriceWith(product, limits, now, texts.offers);
}

let relative: Intl.RelativeTimeFormat | undefined;

/**
 * How long ago a price was checked, in words: "3 hours ago", "2 days ago" (Intl, en-GB), "just
 * now" under a minute (and for a time ahead of this clock). Whole units, rounded down.
 */
export function checkedAgo(confirmedAt: string | Date, now: Date | number): string {
  const seconds = Math.floor((timeOf(now) - timeOf(confirmedAt)) / 1000);
  if (!(seconds >= 60)) return texts.offerList.justNow;
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    minutes < 60
      ? [minutes, 'minute']
      : hours < 24
        ? [hours, 'hour']
        : days < 45
          ? [days, 'day']
          : days < 365
            ? [Math.floor(days / 30), 'month']
            : [Math.floor(days / 365), 'year'];
  relative ??= new Intl.RelativeTimeFormat('en-GB', { numeric: 'always' });
  return relative.format(-value, unit);
}

/** "price checked 3 hours ago". */
export function checkedText(confirmedAt: string | Date, now: Date | number): string {
  return texts.offerList.checked(checkedAgo(confirmedAt, now));
}

/** "Free delivery", "+ £3.99 delivery", or null when the delivery cost is not known. */
export function deliveryText(deliveryGbp: number | null | undefined): string | null {
  if (deliveryGbp == null) return null;
  return Number(deliveryGbp) === 0
    ? texts.offerList.freeDelivery
    : texts.offerList.delivery(formatGbp(deliveryGbp));
}

/** "In stock" and so on; null when unknown (or a value this build does not know). */
export function availabilityText(availability: string | null | undefined): string | null {
  const known: Record<string, string> = texts.offerList.availability;
  return availability != null && Object.hasOwn(known, availability) ? known[availability]! : null;
}

/** One row of public.product_offers, as the API returns it. */
export interface ProductOffer {
  offer_id: string;
  seller_id: string;
  seller_name: string;
  seller_site: string;
  seller_logo: string | null;
  /** The seller's link with the store's affiliate tag. */
  link: string;
  /** Null past the hidden limit (the database leaves the number out). */
  price_gbp: number | null;
  delivery_gbp: number | null;
  availability: string | null;
  price_confirmed_at: string | null;
  freshness: Freshness;
  is_primary: boolean;
}

/**
 * An offer's price as shown: "£41.00" while current or stale (the stale note goes under it:
 * offerNote), no number once hidden or when there is none ("check the price with the seller").
 */
export function offerPriceText(offer: Pick<ProductOffer, 'price_gbp' | 'freshness'>): string {
  return offer.price_gbp == null || offer.freshness === 'hidden' || offer.freshness === 'none'
    ? texts.offers.hidden
    : formatGbp(offer.price_gbp);
}

/** The note under a stale offer's price, else null. */
export function offerNote(offer: Pick<ProductOffer, 'freshness' | 'price_gbp'>): string | null {
  return offer.freshness === 'stale' && offer.price_gbp != null ? texts.offers.stale : null;
}

/** The offers that count: current, with a price (the database's order: cheapest first). */
export const currentOffers = (offers: readonly ProductOffer[]) =>
  offers.filter((o) => o.freshness === 'current' && o.price_gbp != null);

/**
 * schema.org AggregateOffer for a product with several current offers (lowest and highest price,
 * their number, each seller by name), or null: one offer keeps the product's own Offer
 * (productSeo.ts). Stale and hidden prices are left out, as on the page's "from" price.
 */
export function aggregateOfferJsonLd(offers: readonly ProductOffer[], currency = 'GBP') {
  const current = currentOffers(offers);
  if (current.length < 2) return null;
  const prices = current.map((o) => Number(o.price_gbp));
  return {
    '@type': 'AggregateOffer',
    lowPrice: String(Math.min(...prices)),
    highPrice: String(Math.max(...prices)),
    offerCount: current.length,
    priceCurrency: currency,
    offers: current.map((o) => ({
      '@type': 'Offer',
      price: String(o.price_gbp),
      priceCurrency: currency,
      url: o.link,
      seller: { '@type': 'Organization', name: o.seller_name },
    })),
  };
}

/** A history day ("2026-10-03") as the summary writes it: "3 Oct". */
export function historyDay(day: string): string {
  const [, month, date] = /^\d{4}-(\d{2})-(\d{2})/.exec(day) ?? [];
  const name = month ? texts.priceHistory.months[Number(month) - 1] : undefined;
  return name && date ? `${Number(date)} ${name}` : day;
}

/** One row of public.product_price_history. */
export interface PriceHistoryDay {
  day: string;
  lowest_gbp: number | null;
}

/**
 * The history's summary: "Lowest in 90 days: £41.00 on 3 Oct" (the first day it was that low)
 * and the chart's name with the lowest and highest daily price; null with no price in the window.
 */
export function historySummary(days: readonly PriceHistoryDay[]) {
  let low: PriceHistoryDay | null = null;
  let high = -Infinity;
  for (const d of days) {
    if (d.lowest_gbp == null) continue;
    const n = Number(d.lowest_gbp);
    if (!low || n < Number(low.lowest_gbp)) low = d;
    high = Math.max(high, n);
  }
  if (!low) return null;
  const lowText = formatGbp(Number(low.lowest_gbp));
  return {
    text: texts.priceHistory.lowest(lowText, historyDay(low.day)),
    label: texts.priceHistory.chart(lowText, formatGbp(high)),
    low: Number(low.lowest_gbp),
    high,
  };
}
