/**
 * The How we earn page's body (/how-we-earn, docs/decisions/0210): src/texts.ts plus the texts
 * only that page shows, in its own chunk like src/adminTexts.ts and src/offerTexts.ts, so the first
 * load of the home page and the product page does not carry them (bench/budget.json). Same rule
 * as src/texts.ts (tests/unit/texts-rule.test.ts checks every texts module).
 */
import { texts as storeTexts } from './texts';

export const texts = {
  ...storeTexts,
  howWeEarn: {
    ...storeTexts.howWeEarn,
    earnHeading: 'How we earn money',
    earn: [
      'We do not sell anything ourselves. Every Buy Now button takes you to the seller’s own site, where you buy from the seller at the seller’s price.',
      'Most sellers pay us a commission when you buy through one of our links. That is how we pay for this site. You pay the same price as anyone who goes to the seller directly.',
      'That is why every Buy Now is marked “Ad” and names the seller it goes to.',
    ],
    sortHeading: 'How we sort',
    sort: [
      // REQ-OFF-2, REQ-OFF-3: the price a product is listed by is its lowest current offer's.
      'Products are listed by price, lowest first: the lowest price a seller offers now (a price that may have changed does not count). You can choose highest first or newest first instead, and a search shows its matches in the order you choose.',
      'What a seller pays us never changes where a product appears. No seller can pay for a higher place.',
    ],
    countHeading: 'What we count',
    count:
      'We count how many times each product’s Buy Now is clicked, and which seller’s, per page and per day, to see which products and sellers shoppers like. We keep nothing on your device for this.',
    countMore: 'More in our',
  },
} as const;
