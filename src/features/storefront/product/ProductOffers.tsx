import { Button, Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { safeUrl } from '../../../lib/domain/format';
import {
  aggregateOfferJsonLd,
  availabilityText,
  cardPrice,
  checkedText,
  currentOffers,
  deliveryText,
  offerNote,
  offerPriceText,
  type PriceHistoryDay,
  type ProductOffer,
} from '../../../lib/domain/offers';
import type { ProductPageProduct } from '../../../lib/domain/productSeo';
import { catalogueDb } from '../../../lib/infra/catalogueDb';
import { useStoreSetting } from '../../../lib/infra/storeSettings';
import { texts } from '../../../offerTexts';
import { NewTabIcon } from '../../../lib/ui/NewTabIcon';
import { countBuyNowClick } from '../buyNowClicks';
import { SellerTag } from '../Disclosure';
import classes from './ProductOffers.module.css';

// The related products below the page ride in this chunk (ProductPage.tsx): one lazy chunk and
// one dependency list for what the page draws after its first render (the page's JS budget).
export { default as RelatedProducts } from './RelatedProducts';

/** What the page shows at its top once the offers are known, and its JSON-LD offers. */
export interface OffersSummary {
  productId: string;
  price: string;
  note: string;
  jsonLd: ReturnType<typeof aggregateOfferJsonLd>;
}

/**
 * A product's offers on its page (REQ-OFF-2, REQ-OFF-3), loaded after the page's first render
 * (its own chunk: bench/budget.json): every seller, cheapest current first as
 * public.product_offers orders them, each with its price, delivery, availability, when the price
 * was checked and its own Buy Now, marked as an ad and counted per offer (decision 0210). With one
 * offer the page keeps its single Buy Now and adds when the price was checked. Until the offers
 * are there (or if they cannot be read) the page's own Buy Now (`fallback`) stays.
 * `serverOffers`: the rows the server put into the first page's HTML, used instead of a read
 * (one request less per product page a cache has not seen yet: REQ-CDN-11); `serverHistory`
 * likewise for the price history (REQ-CDN-13).
 */
export default function ProductOffers({
  product,
  serverOffers = null,
  serverHistory = null,
  fallback,
  onSummary,
}: {
  product: ProductPageProduct;
  serverOffers?: ProductOffer[] | null;
  serverHistory?: PriceHistoryDay[] | null;
  fallback: ReactNode;
  onSummary: (summary: OffersSummary) => void;
}) {
  const [offers, setOffers] = useState<ProductOffer[] | null>(serverOffers);
  const limits = useStoreSetting('priceLimits');

  useEffect(() => {
    if (serverOffers) return;
    const controller = new AbortController();
    catalogueDb()
      .then((db) =>
        db
          .rpc('product_offers', { p_product_id: product.id }, { get: true })
          .abortSignal(controller.signal),
      )
      .then(
        ({ data }) => !controller.signal.aborted && data && setOffers(data as ProductOffer[]),
        // Not read (offline): the page's own Buy Now stays, as before offers existed.
        () => undefined,
      );
    return () => controller.abort();
    // The server's rows belong to this product (the page is keyed by it): not a dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [product.id]);

  useEffect(() => {
    if (!offers?.length) return;
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
      Date.now(),
    );
    onSummary({ productId: product.id, ...shown, jsonLd: aggregateOfferJsonLd(offers) });
  }, [offers, limits, product.id, product.price, onSummary]);

  if (!offers?.length) return fallback;
  if (offers.length === 1) {
    const [offer] = offers as [ProductOffer];
    return (
      <>
        <div className={classes.single}>
          <BuyNow product={product} offer={offer} />
          <OfferFacts offer={offer} />
        </div>
        <HistoryWhenIdle product={product} serverDays={serverHistory} />
      </>
    );
  }
  return (
    <>
      <section aria-labelledby="offers-heading" className={classes.section}>
        <Text component="h2" fw={700} fz="lg" id="offers-heading">
          {texts.offerList.heading}
        </Text>
        <ul className={classes.list} data-testid="offer-list">
          {offers.map((offer) => (
            <li key={offer.offer_id} className={classes.offer} data-testid="offer">
              <div className={classes.seller}>
                {safeUrl(offer.seller_logo) && (
                  // The seller's name is beside it: the logo says nothing more (alt="").
                  <img
                    src={safeUrl(offer.seller_logo)!}
                    alt=""
                    width={24}
                    height={24}
                    className={classes.logo}
                    loading="lazy"
                  />
                )}
                <span className={classes.name} data-testid="offer-seller">
                  {offer.seller_name}
                </span>
              </div>
              <div className={classes.price}>
                {/* A price that may have changed is not shown like a current one. */}
                <Text
                  fw={700}
                  fz="lg"
                  c={offer.freshness === 'current' ? 'teal' : 'dimmed'}
                  data-testid="offer-price"
                >
                  {offerPriceText(offer)}
                </Text>
              </div>
              <OfferFacts offer={offer} />
              <div className={classes.buy}>
                <BuyNow product={product} offer={offer} />
              </div>
            </li>
          ))}
        </ul>
      </section>
      <HistoryWhenIdle product={product} serverDays={serverHistory} />
    </>
  );
}

interface HistoryProps {
  product: ProductPageProduct;
  serverDays: PriceHistoryDay[] | null;
}

/**
 * The price history, fetched (code and data) once the browser is idle after the offers are
 * shown: never in the way of the page becoming interactive (REQ-OFF-4).
 */
function HistoryWhenIdle(props: HistoryProps) {
  const [History, setHistory] = useState<ComponentType<HistoryProps> | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      void import('./PriceHistory').then(
        (m) => live && setHistory(() => m.default),
        () => undefined,
      );
    const idle = window.requestIdleCallback?.(load, { timeout: 2000 });
    const timer = idle === undefined ? window.setTimeout(load, 200) : undefined;
    return () => {
      live = false;
      if (idle !== undefined) window.cancelIdleCallback(idle);
      window.clearTimeout(timer);
    };
  }, []);
  return History ? <History {...props} /> : null;
}

/** The stale note, delivery, availability and when the price was checked; nothing unknown. */
function OfferFacts({ offer }: { offer: ProductOffer }) {
  const facts = [
    deliveryText(offer.delivery_gbp),
    availabilityText(offer.availability),
    offer.price_confirmed_at && checkedText(offer.price_confirmed_at, Date.now()),
  ].filter(Boolean);
  const note = offerNote(offer) ?? (offer.freshness === 'hidden' ? texts.offers.hidden : null);
  return (
    <div className={classes.facts}>
      {note && (
        <p className={classes.note} data-testid="offer-note">
          {note}
        </p>
      )}
      {facts.length > 0 && (
        <p className={classes.fact} data-testid="offer-facts">
          {facts.join(' · ')}
        </p>
      )}
    </div>
  );
}

/** One offer's Buy Now: the seller's link (affiliate tag applied), an ad naming the seller. */
function BuyNow({ product, offer }: { product: ProductPageProduct; offer: ProductOffer }) {
  const link = safeUrl(offer.link);
  if (!link)
    return (
      <Button size="md" disabled>
        {texts.home.buyNow}
      </Button>
    );
  const count = () => countBuyNowClick(product.id, offer.offer_id);
  return (
    <div className={classes.buyNow}>
      <SellerTag site={offer.seller_name} />
      <Button
        component="a"
        href={link}
        target="_blank"
        rel="sponsored noopener noreferrer"
        size="md"
        rightSection={<NewTabIcon />}
        onClick={count}
        onAuxClick={(e) => e.button === 1 && count()}
        data-testid="offer-buy"
      >
        {texts.home.buyNow}
        <VisuallyHidden> {texts.storefront.buyNowHint(offer.seller_name)}</VisuallyHidden>
      </Button>
    </div>
  );
}
