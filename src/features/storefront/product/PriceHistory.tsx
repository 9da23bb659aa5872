import { Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';
import { historySummary, type PriceHistoryDay } from '../../../lib/domain/offers';
import type { ProductPageProduct } from '../../../lib/domain/productSeo';
import { catalogueDb } from '../../../lib/infra/catalogueDb';
import { texts } from '../../../offerTexts';
import { productPath } from '../../../routing/paths';
import classes from './ProductOffers.module.css';

/**
 * The window public.product_price_history is asked for (the summary's "90 days"), and the one
 * public.product_page_whole reads for the first page's HTML.
 */
const DAYS = 90;
const WIDTH = 240;
const HEIGHT = 48;
const PAD = 4;

/**
 * The lowest price over the last 90 days (REQ-OFF-4): a small sparkline (plain SVG, one image
 * with a name for screen readers) and its summary in words, and the product's price-drop feed
 * (REQ-OFF-5, served by src/host). Loaded when the browser is idle after the page is interactive
 * (ProductOffers), in a chunk of its own. `serverDays`: the days the server put into the first
 * page's HTML (REQ-CDN-13), used instead of a read.
 */
export default function PriceHistory({
  product,
  serverDays,
}: {
  product: ProductPageProduct;
  serverDays: PriceHistoryDay[] | null;
}) {
  const [days, setDays] = useState<PriceHistoryDay[] | null>(serverDays);

  useEffect(() => {
    if (serverDays) return;
    const controller = new AbortController();
    catalogueDb()
      .then((db) =>
        db
          .rpc('product_price_history', { p_product_id: product.id, p_days: DAYS }, { get: true })
          .abortSignal(controller.signal),
      )
      .then(
        ({ data }) => !controller.signal.aborted && setDays((data ?? []) as PriceHistoryDay[]),
        () => undefined,
      );
    return () => controller.abort();
    // The server's days belong to this product (the page is keyed by it): not a dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [product.id]);

  const summary = days && historySummary(days);
  return (
    <section aria-labelledby="history-heading" className={classes.history}>
      <Text component="h2" fw={700} fz="md" id="history-heading">
        {texts.priceHistory.heading}
      </Text>
      {summary && days && (
        <>
          <svg
            role="img"
            aria-label={summary.label}
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            preserveAspectRatio="none"
            className={classes.chart}
            data-testid="price-history-chart"
          >
            <path d={sparkline(days, summary.low, summary.high)} className={classes.line} />
          </svg>
          <Text size="sm" data-testid="price-history-summary">
            {summary.text}
          </Text>
        </>
      )}
      <a
        href={`${productPath(product.slug)}/prices.atom`}
        type="application/atom+xml"
        className={classes.feed}
        data-testid="price-feed-link"
      >
        <FeedIcon />
        {texts.priceHistory.follow}
        <VisuallyHidden> {texts.priceHistory.followHint}</VisuallyHidden>
      </a>
    </section>
  );
}

/**
 * A step line through the days' lowest prices over the window, today at the right edge (a
 * product with a short history draws only its last days), lower prices lower; a day without a
 * price breaks the line.
 */
function sparkline(days: readonly PriceHistoryDay[], low: number, high: number): string {
  const today = Date.parse(new Date().toISOString().slice(0, 10));
  const x = (day: string) =>
    Math.min(Math.max(1 - (today - Date.parse(day)) / ((DAYS - 1) * 86_400_000), 0), 1) * WIDTH;
  const y = (v: number) =>
    high === low ? HEIGHT / 2 : HEIGHT - PAD - ((v - low) / (high - low)) * (HEIGHT - 2 * PAD);
  let d = '';
  let drawing = false;
  for (const day of days) {
    if (day.lowest_gbp == null) {
      drawing = false;
      continue;
    }
    const [px, py] = [x(day.day).toFixed(1), y(Number(day.lowest_gbp)).toFixed(1)];
    d += drawing ? `H${px}V${py}` : `M${px} ${py}`;
    drawing = true;
  }
  // The last price holds until today: the line reaches the right edge.
  return drawing ? `${d}H${WIDTH}` : d;
}

/** The usual feed symbol (a dot and two arcs); the link's text names it. */
function FeedIcon() {
  return (
    <svg viewBox="0 0 16 16" width={16} height={16} aria-hidden="true" focusable="false">
      <circle cx="3" cy="13" r="2" fill="currentColor" />
      <path
        d="M1 6.5a8.5 8.5 0 0 1 8.5 8.5M1 1.5A13.5 13.5 0 0 1 14.5 15"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
      />
    </svg>
  );
}
