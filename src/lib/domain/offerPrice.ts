// A price's freshness and a card's price line (REQ-OFF-2, REQ-OFF-3). No texts imported: the
// home page's early inline script (earlyFirstPage.ts) draws cards with this code and gets the
// few texts it needs from its build-time configuration; everything else uses offers.ts, which
// re-exports this module with the store's texts (docs/decisions/0231).
import { formatPrice, safeUrl, sellerSite } from './format.ts';

/** 'none': no price at all; 'hidden': past the store's hidden limit; see public.product_offers. */
export type Freshness = 'current' | 'stale' | 'hidden' | 'none';

/** The store settings' limits (public.store_settings), in days. */
export interface FreshnessLimits {
  staleDays: number;
  hiddenDays: number;
}

/** The database's defaults (store_settings columns), until the row has been read. */
export const DEFAULT_FRESHNESS_LIMITS: FreshnessLimits = { staleDays: 7, hiddenDays: 30 };

const DAY_MS = 86_400_000;

export const timeOf = (t: string | number | Date) =>
  t instanceof Date ? t.getTime() : new Date(t).getTime();

/** A price in GBP with two decimals: 1249 → "£1,249.00" (no Intl: see formatPrice). */
export function formatGbp(n: number | string): string {
  return formatPrice(String(n));
}

/**
 * How fresh a price confirmed at `confirmedAt` is at `now`: confirmed more than `staleDays` days
 * ago is 'stale', more than `hiddenDays` days ago 'hidden' (the database's rule); never
 * confirmed is 'none'.
 */
export function freshnessOf(
  confirmedAt: string | Date | null | undefined,
  now: Date | number,
  staleDays: number,
  hiddenDays: number,
): Freshness {
  if (confirmedAt == null) return 'none';
  const at = timeOf(confirmedAt);
  if (Number.isNaN(at)) return 'none';
  const age = timeOf(now) - at;
  if (age > hiddenDays * DAY_MS) return 'hidden';
  if (age > staleDays * DAY_MS) return 'stale';
  return 'current';
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

/** texts.offers (src/texts.ts): the card's words. */
export interface CardPriceTexts {
  from: (price: string) => string;
  sellers: (n: number) => string;
  stale: string;
  hidden: string;
}

/**
 * A card's price line and the note under it (REQ-OFF-2, REQ-OFF-3):
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
  t: CardPriceTexts,
): { price: string; note: string } {
  const count = product.offer_count ?? 0;
  const value = product.price_value;
  if (count > 1 && value != null)
    return { price: t.from(formatGbp(value)), note: t.sellers(count) };
  if (count === 1 && value != null) {
    const typed = priceNumber(product.price);
    const asTyped = typed !== null && typed === Number(value);
    return { price: asTyped ? formatPrice(product.price) : formatGbp(value), note: '' };
  }
  switch (freshnessOf(product.price_checked_at, now, limits.staleDays, limits.hiddenDays)) {
    case 'hidden':
      // No number; the words go where a note goes (the card lays a note out full width).
      return { price: '', note: t.hidden };
    case 'stale':
      return { price: formatPrice(product.price), note: t.stale };
    default:
      return { price: formatPrice(product.price), note: '' };
  }
}

/** The summary columns that say what a card's Buy Now opens (the contract's buy_* columns). */
export interface BuySource {
  link: string;
  buy_link?: string | null;
  buy_seller?: string | null;
  buy_offer_id?: string | null;
}

/**
 * Where a card's Buy Now goes (REQ-OFF-2): the database's choice (the primary offer, or the
 * cheapest current one whose link works, affiliate tag applied) with its seller's name and
 * offer; without one, the product's own link named by its site, as before (decision 0210).
 */
export function buyTarget(product: BuySource): {
  link: string | null;
  seller: string | null;
  offerId: string | null;
} {
  const buy = safeUrl(product.buy_link);
  if (buy)
    return {
      link: buy,
      seller: product.buy_seller?.trim() || sellerSite(buy),
      offerId: product.buy_offer_id ?? null,
    };
  const link = safeUrl(product.link);
  return { link, seller: sellerSite(link), offerId: null };
}
