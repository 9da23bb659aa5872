// How the storefront shows a product's offers (REQ-OFF-2, REQ-OFF-3, REQ-OFF-4): prices in GBP,
// how fresh a price is, when it was checked, delivery and availability. Pure functions of the
// values the database returns (public.product_offers, the products summary columns,
// public.product_price_history) and the store settings' limits, shared by the SPA and the server
// that answers /p/<slug> and the price-drop feed (src/host), so both say the same
// (docs/decisions/0231).
import { texts as offerTexts } from '../../offerTexts';
import { texts } from '../../texts';
import { formatPrice } from './format';

/** 'none': no price at all; 'hidden': past the store's hidden limit; see public.product_offers. */
export type Freshness = 'current' | 'stale' | 'hidden' | 'none';

/** The store settings' limits (public.store_settings), in days. */
export interface FreshnessLimits {
  staleDays: number;
  hiddenDays: number;
}

/** The contract's defaults (store_settings columns), until the row has been read. */
export const DEFAULT_FRESHNESS_LIMITS: FreshnessLimits = { staleDays: 7, hiddenDays: 30 };

const DAY_MS = 86_400_000;

const time = (t: string | number | Date) =>
  t instanceof Date ? t.getTime() : new Date(t).getTime();

/** A price in GBP with two decimals: 1249 → "£1,249.00" (no Intl: see formatPrice). */
export function formatGbp(n: number | string): string {
  return formatPrice(String(n));
}

/**
 * How fresh a price confirmed at `confirmedAt` is at `now`: older than `staleDays` days is
 * 'stale', older than `hiddenDays` days 'hidden' (the database's rule: confirmed before now minus
 * the limit); never confirmed is 'none'.
 */
export function freshnessOf(
  confirmedAt: string | Date | null | undefined,
  now: Date | number,
  staleDays: number,
  hiddenDays: number,
): Freshness {
  if (confirmedAt == null) return 'none';
  const at = time(confirmedAt);
  if (Number.isNaN(at)) return 'none';
  const age = time(now) - at;
  if (age > hiddenDays * DAY_MS) return 'hidden';
  if (age > staleDays * DAY_MS) return 'stale';
  return 'current';
}

let relative: Intl.RelativeTimeFormat | undefined;

/**
 * How long ago a price was checked, in words: "3 hours ago", "2 days ago" (Intl, en-GB), "just
 * now" under a minute (and for a time ahead of this clock). Whole units, rounded down.
 */
export function checkedAgo(confirmedAt: string | Date, now: Date | number): string {
  const seconds = Math.floor((time(now) - time(confirmedAt)) / 1000);
  if (!(seconds >= 60)) return offerTexts.offerList.justNow;
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
  return offerTexts.offerList.checked(checkedAgo(confirmedAt, now));
}

/** "Free delivery", "+ £3.99 delivery", or null when the delivery cost is not known. */
export function deliveryText(deliveryGbp: number | null | undefined): string | null {
  if (deliveryGbp == null) return null;
  return Number(deliveryGbp) === 0
    ? offerTexts.offerList.freeDelivery
    : offerTexts.offerList.delivery(formatGbp(deliveryGbp));
}

export type Availability = keyof typeof offerTexts.offerList.availability;

/** "In stock" and so on; null when unknown (or a value this build does not know). */
export function availabilityText(availability: string | null | undefined): string | null {
  const known = offerTexts.offerList.availability as Record<string, string>;
  return availability != null && Object.hasOwn(known, availability) ? known[availability]! : null;
}

/** One row of public.product_offers, as the API returns it. */
export interface ProductOffer {
  offer_id: string;
  seller_id: string;
  seller_name: string;
  seller_site: string;
  seller_logo: string | null;
  link: string;
  price_gbp: number | null;
  delivery_gbp: number | null;
  availability: string | null;
  price_confirmed_at: string | null;
  freshness: Freshness;
  is_primary: boolean;
}

/**
 * An offer's price as shown: "£41.00" while current or stale (the stale note goes beside it:
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

/**
 * The first number in a price text, as public.price_number reads it ("£1,249.99 today" →
 * 1249.99, "Call us" → null): thousands commas dropped, then the first number.
 */
export function priceNumber(price: string | null | undefined): number | null {
  if (!price) return null;
  const match = /[0-9]+(?:\.[0-9]+)?|\.[0-9]+/.exec(price.replace(/([0-9]),(?=[0-9]{3})/g, '$1'));
  return match ? Number(match[0]) : null;
}

/** The products summary columns a card shows its price from (the contract's products summary). */
export interface CardPriceSource {
  price: string;
  price_value?: number | null;
  offer_count?: number | null;
  price_checked_at?: string | null;
}

/**
 * A card's price line and the note beside it (REQ-OFF-2, REQ-OFF-3):
 * - several current offers: "from £39.00" and "3 sellers";
 * - one: the price text as the admin typed it when that offer's price is the text's number (the
 *   spec's display), else that offer's price;
 * - none current: the price text, noting "price may have changed — check with the seller" once
 *   the last check is older than the stale limit, and no number past the hidden limit.
 */
export function cardPrice(
  product: CardPriceSource,
  limits: FreshnessLimits,
  now: Date | number,
): { price: string; note: string } {
  const count = product.offer_count ?? 0;
  const value = product.price_value;
  if (count > 1 && value != null)
    return { price: texts.offers.from(formatGbp(value)), note: texts.offers.sellers(count) };
  if (count === 1 && value != null) {
    const typed = priceNumber(product.price);
    return {
      price:
        typed !== null && typed === Number(value) ? formatPrice(product.price) : formatGbp(value),
      note: '',
    };
  }
  switch (freshnessOf(product.price_checked_at, now, limits.staleDays, limits.hiddenDays)) {
    case 'hidden':
      return { price: texts.offers.hidden, note: '' };
    case 'stale':
      return { price: formatPrice(product.price), note: texts.offers.stale };
    default:
      return { price: formatPrice(product.price), note: '' };
  }
}

/** A history day ("2026-10-03") as the summary writes it: "3 Oct". */
export function historyDay(day: string): string {
  const [, month, date] = /^\d{4}-(\d{2})-(\d{2})/.exec(day) ?? [];
  if (!month || !date) return day;
  return `${Number(date)} ${offerTexts.priceHistory.months[Number(month) - 1] ?? ''}`.trim();
}

/** One row of public.product_price_history. */
export interface PriceHistoryDay {
  day: string;
  lowest_gbp: number | null;
}

/**
 * The history's summary: "Lowest in 90 days: £41.00 on 3 Oct" (the first day it was that low),
 * the lowest and highest daily price (the chart's name), or null with no price in the window.
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
    text: offerTexts.priceHistory.lowest(lowText, historyDay(low.day)),
    label: offerTexts.priceHistory.chart(lowText, formatGbp(high)),
    low: Number(low.lowest_gbp),
    high,
  };
}
