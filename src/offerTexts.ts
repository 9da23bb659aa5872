/**
 * The product page's offer list, price history and price-drop feed link (REQ-OFF-2..5): src/texts.ts
 * plus the sections only that lazily loaded part shows. Same rule as src/texts.ts (one place, no
 * dead keys, no repeats; tests/unit/texts-rule.test.ts checks both); kept apart so the first load
 * of the home page and the product page does not carry them (bench/budget.json).
 */
import { texts as storeTexts } from './texts.ts';

export const texts = {
  ...storeTexts,
  offerList: {
    heading: 'Compare sellers',
    freeDelivery: 'Free delivery',
    delivery: (price: string) => `+ ${price} delivery`,
    availability: {
      in_stock: 'In stock',
      out_of_stock: 'Out of stock',
      preorder: 'Pre-order',
      backorder: 'On back order',
    },
    checked: (ago: string) => `price checked ${ago}`,
    justNow: 'just now',
  },
  priceHistory: {
    heading: 'Price history',
    /** The summary under the chart; the day as "3 Oct". */
    lowest: (price: string, day: string) => `Lowest in 90 days: ${price} on ${day}`,
    /** The sparkline's name for screen readers. */
    chart: (low: string, high: string) =>
      `Lowest price each day over the last 90 days, between ${low} and ${high}`,
    months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
    follow: 'Follow price drops',
    /** The feed link's full name: what it is (an Atom feed opens in a feed reader). */
    followHint: '(Atom feed)',
  },
  /** The price-drop feed /p/<slug>/prices.atom, written by the host (REQ-OFF-5, decision 0232). */
  priceFeed: {
    title: (product: string, store: string) => `${product} price drops — ${store}`,
    entryTitle: (price: string, seller: string, was: string) =>
      `${price} at ${seller} (was ${was})`,
  },
} as const;
