/**
 * The admin area's texts for sellers, offers and price freshness (REQ-OFF-1, REQ-OFF-3): the
 * admin texts (src/adminTexts.ts) plus the sections only the Sellers tab, the offers panel and
 * the Settings tab show. Same rule as src/texts.ts (one place, no dead keys, no repeats); kept
 * apart because those parts load as chunks of their own, so the admin chunk does not carry them.
 * Code in those chunks imports `texts` from here.
 */
import { texts as adminTexts } from './adminTexts';

export const texts = {
  ...adminTexts,
  sellers: {
    intro:
      'The shops whose links the store shows. A link to a site with no seller yet makes one by itself, named after the site.',
    loading: 'Loading the sellers',
    loadFailed: 'Could not load the sellers.',
    empty: 'No sellers yet.',
    add: 'Add seller',
    edit: 'Edit',
    editTitle: (name: string) => `Edit seller ${name}`,
    delete: 'Delete',
    save: 'Save seller',
    name: 'Name',
    site: 'Site',
    siteHint:
      'The shop’s address, e.g. https://www.sportsdirect.com (links to it find this seller)',
    logo: 'Logo link (optional)',
    network: 'Affiliate network (optional)',
    networkHint: 'e.g. Awin, Rakuten, Direct',
    networkColumn: 'Network',
    offerCount: (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'offer' : 'offers'}`,
    affiliateHeading: 'Affiliate rule',
    affiliateHint:
      'The store’s tag, added to this seller’s links as ?name=value unless the link already has it. Leave both empty for none.',
    affiliateParam: 'Parameter name',
    affiliateValue: 'Value',
    preview: 'A tagged link looks like',
    noRule: 'No affiliate rule',
    offers: 'Offers',
    saved: 'Seller saved',
    deleted: 'Seller deleted',
    failed: 'The seller could not be saved. Please try again.',
    deleteFailed: 'The seller was not deleted',
    changedElsewhere:
      'Another admin changed this seller meanwhile. The list shows their version now: check it and save again.',
    confirmTitle: 'Delete seller?',
    confirmText: (name: string) => `This permanently deletes the seller "${name}".`,
    nameInvalid: 'Name must be 1 to 80 characters',
    nameInUse: 'A seller with this name already exists',
    siteInvalid: 'Site must be a web address starting with https:// or http://',
    siteInUse: 'A seller for this site already exists',
    logoInvalid: 'Logo link must be an http(s) address or a site path like /sellers/logo.svg',
    networkInvalid: 'Network must be at most 80 characters',
    paramInvalid: 'Parameter name: letters, digits and _ . - ~ only, up to 40 characters',
    valueInvalid: 'Value: letters, digits and _ . - ~ % only, up to 200 characters',
    bothOrNeither: 'Give both the parameter name and the value, or neither',
  },
  offerPanel: {
    heading: 'Offers',
    intro:
      'Where shoppers can buy this product. The cheapest fresh price is the one the store shows.',
    loading: 'Loading the offers',
    loadFailed: 'Could not load the offers.',
    empty: 'No offers yet.',
    add: 'Add offer',
    addTitle: 'Add an offer',
    editTitle: (seller: string) => `Edit the offer of ${seller}`,
    edit: 'Edit',
    delete: 'Delete',
    confirmPrice: 'Confirm price',
    history: 'Price history',
    historyEmpty: 'No price recorded yet.',
    save: 'Save offer',
    seller: 'Seller',
    sellerPlaceholder: 'Choose a seller',
    newSeller: 'New seller from this link’s site',
    link: 'Link to the product at the seller',
    price: 'Price £',
    delivery: 'Delivery £',
    deliveryHint: 'Empty: not known; 0: free delivery',
    availability: 'Availability',
    availabilityUnknown: 'Not known',
    availabilityLabel: {
      in_stock: 'In stock',
      out_of_stock: 'Out of stock',
      preorder: 'Pre-order',
      backorder: 'On back order',
    },
    primary: 'Product’s own link',
    primaryHint: 'From the product’s Link and Price: change them in the product form.',
    noPrice: 'No price',
    plusDelivery: (delivery: string) => `+ ${delivery} delivery`,
    freeDelivery: 'free delivery',
    checked: (ago: string) => `Price checked ${ago}`,
    neverChecked: 'Price never checked',
    source: 'Source',
    confirmedAt: 'Price confirmed at',
    sourceLabel: {
      admin: 'entered by an admin',
      import: 'CSV import',
      feed: 'feed',
      check: 'check',
    },
    stale: 'Stale price',
    hidden: 'Price hidden on the store',
    saved: 'Offer saved',
    confirmed: 'Price confirmed',
    deleted: 'Offer deleted',
    failed: 'The offer could not be saved. Please try again.',
    deleteFailed: 'The offer was not deleted',
    changedElsewhere:
      'Someone changed this offer meanwhile. The list shows the latest version now: check it and try again.',
    confirmTitle: 'Delete offer?',
    confirmText: (seller: string) => `This permanently deletes the offer of ${seller}.`,
    sellerRequired: 'Seller is required',
    sellerTaken: 'This product already has an offer from this seller',
    amountInvalid: 'Enter an amount in pounds such as 12.50, or leave it empty',
  },
  freshness: {
    heading: 'Price freshness',
    hint: 'How long a price counts as current after it was last confirmed.',
    staleAfter: 'Stale after (days)',
    staleHint:
      'Older prices show "price may have changed" and leave the "from £X" price (1 to 365).',
    hiddenAfter: 'Hidden after (days)',
    hiddenHint:
      'Older prices are not shown as a number at all (at least the stale days, at most 3650).',
    // The database's words (private.store_settings_check).
    staleInvalid: 'A price is stale after 1 to 365 days',
    hiddenInvalid:
      'A price is hidden after at least as many days as it is stale after, and at most 3650',
  },
} as const;
export { constants } from './adminTexts';
