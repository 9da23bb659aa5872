// The product page's offers in the host's HTML (REQ-OFF-2, REQ-OFF-3): every seller's offer as
// public.product_offers orders them, said as the app says it (src/lib/domain/offers.ts): price or
// "check the price with the seller", the stale note, delivery, availability, when the price was
// checked, and each Buy Now with "Ad" and the seller's name, rel="sponsored" (decision 0210).
// What a crawler and a visitor without JavaScript read; the app then renders its own list.
import { safeUrl } from '../lib/domain/format.ts';
import {
  availabilityText,
  checkedText,
  deliveryText,
  offerNote,
  offerPriceText,
  type ProductOffer,
} from '../lib/domain/offers.ts';
import { texts } from '../offerTexts.ts';
import { escapeHtml } from './html.ts';

/** The seller's "Ad" tag and Buy Now, as beside the product's own link (no link: no button). */
function buyNow(offer: ProductOffer, adLabel: string): string {
  const link = safeUrl(offer.link);
  if (!link) return '';
  const seller = escapeHtml(offer.seller_name);
  return `<span data-testid="ad-label"><strong>${escapeHtml(adLabel)}</strong> ${seller}</span> <a href="${escapeHtml(
    link,
  )}" target="_blank" rel="sponsored noopener noreferrer">${escapeHtml(texts.home.buyNow)}</a>`;
}

/** One offer: seller, price (or the hidden text), stale note, delivery, stock, checked, Buy Now. */
function offerItem(offer: ProductOffer, adLabel: string, now: Date): string {
  const notes = [
    offerNote(offer),
    deliveryText(offer.delivery_gbp),
    availabilityText(offer.availability),
    offer.price_confirmed_at && offer.freshness !== 'none'
      ? checkedText(offer.price_confirmed_at, now)
      : null,
  ].filter((note): note is string => Boolean(note));
  const parts = [
    `<strong data-testid="offer-seller">${escapeHtml(offer.seller_name)}</strong>`,
    `<span data-testid="offer-price">${escapeHtml(offerPriceText(offer))}</span>`,
    ...notes.map((note) => `<span>${escapeHtml(note)}</span>`),
  ];
  return `<li data-testid="offer" data-freshness="${escapeHtml(offer.freshness)}">${parts.join(
    ' · ',
  )} ${buyNow(offer, adLabel)}</li>`;
}

/** The list, cheapest current first (the database's order); empty when there are no offers. */
export function offersHtml(
  offers: readonly ProductOffer[],
  adLabel: string,
  now = new Date(),
): string {
  if (offers.length === 0) return '';
  return `<section data-testid="offer-list" aria-labelledby="offers-heading">
<h2 id="offers-heading">${escapeHtml(texts.offerList.heading)}</h2>
<ul>
${offers.map((offer) => offerItem(offer, adLabel, now)).join('\n')}
</ul>
</section>`;
}
