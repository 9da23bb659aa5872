// The product page's offers in the host's HTML (REQ-OFF-2, REQ-OFF-3), said as the app's
// ProductOffers (src/features/storefront/product/ProductOffers.tsx) says them, from the same
// helpers (src/lib/domain/offers.ts): the top price as the card's ("from £39.00", "3 sellers"),
// one offer as the page's single Buy Now with when its price was checked, several as a list
// (seller, price, the stale or hidden note, delivery · availability · "price checked …", and each
// Buy Now with "Ad" and the seller's name, rel="sponsored"; decision 0210). What a crawler and a
// visitor without JavaScript read; the app then renders its own.
import { safeUrl } from '../lib/domain/format.ts';
import {
  aggregateOfferJsonLd,
  availabilityText,
  cardPrice,
  checkedText,
  currentOffers,
  deliveryText,
  offerNote,
  offerPriceText,
  type FreshnessLimits,
  type ProductOffer,
} from '../lib/domain/offers.ts';
import type { ProductPageProduct } from '../lib/domain/productSeo.ts';
import { texts } from '../offerTexts.ts';
import { escapeHtml } from './html.ts';

/**
 * "Ad" and who the link goes to, then the Buy Now (new tab, sponsored), as SellerTag + Button;
 * nothing without a usable link.
 */
export function buyNowHtml(link: string | null, seller: string | null, adLabel: string): string {
  if (!link) return '';
  return `<p><span data-testid="ad-label"><strong>${escapeHtml(adLabel)}</strong>${
    seller ? ` ${escapeHtml(seller)}` : ''
  }</span> <a href="${escapeHtml(link)}" target="_blank" rel="sponsored noopener noreferrer">${escapeHtml(
    texts.home.buyNow,
  )}</a></p>`;
}

/** The stale or hidden note, then delivery · availability · when checked (nothing unknown). */
function factsHtml(offer: ProductOffer, now: number): string {
  const facts = [
    deliveryText(offer.delivery_gbp),
    availabilityText(offer.availability),
    offer.price_confirmed_at && checkedText(offer.price_confirmed_at, now),
  ].filter((fact): fact is string => Boolean(fact));
  const note = offerNote(offer) ?? (offer.freshness === 'hidden' ? texts.offers.hidden : null);
  return [
    note ? `<p data-testid="offer-note">${escapeHtml(note)}</p>` : '',
    facts.length ? `<p data-testid="offer-facts">${escapeHtml(facts.join(' · '))}</p>` : '',
  ].join('');
}

function offerItem(offer: ProductOffer, adLabel: string, now: number): string {
  return `<li data-testid="offer"><strong data-testid="offer-seller">${escapeHtml(
    offer.seller_name,
  )}</strong> <span data-testid="offer-price">${escapeHtml(offerPriceText(offer))}</span>
${factsHtml(offer, now)}${buyNowHtml(safeUrl(offer.link), offer.seller_name, adLabel)}</li>`;
}

export interface OffersMarkup {
  /** The price under the title, and the note beside it ('' for none). */
  price: string;
  note: string;
  /** Where the product's single Buy Now was: one offer's, or the list of several. */
  body: string;
  /** The JSON-LD offers: several current offers' AggregateOffer, else null (the product's own). */
  jsonLd: ReturnType<typeof aggregateOfferJsonLd>;
}

/**
 * The page's offer parts from public.product_offers' rows, as the app computes them once it has
 * read them (ProductOffers' summary); null when there are none (the page as before offers).
 */
export function offersMarkup(
  product: ProductPageProduct,
  offers: readonly ProductOffer[],
  limits: FreshnessLimits,
  adLabel: string,
  now = Date.now(),
): OffersMarkup | null {
  if (offers.length === 0) return null;
  const current = currentOffers(offers);
  const primary = offers.find((o) => o.is_primary) ?? offers[0]!;
  const shown = cardPrice(
    {
      price: product.price,
      price_value: current[0]?.price_gbp ?? null,
      offer_count: current.length,
      price_checked_at: primary.price_confirmed_at,
    },
    limits,
    now,
  );
  const [single] = offers;
  const body =
    offers.length === 1
      ? `${buyNowHtml(safeUrl(single!.link), single!.seller_name, adLabel)}${factsHtml(single!, now)}`
      : `<section data-testid="offer-list" aria-labelledby="offers-heading">
<h2 id="offers-heading">${escapeHtml(texts.offerList.heading)}</h2>
<ul>
${offers.map((offer) => offerItem(offer, adLabel, now)).join('\n')}
</ul>
</section>`;
  return { price: shown.price, note: shown.note, body, jsonLd: aggregateOfferJsonLd(offers) };
}
