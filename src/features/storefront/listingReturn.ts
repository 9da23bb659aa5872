// Back from a product page to the listing the shopper came from (REQ-PATH-1): its search, category
// and sort (the URL's query, storeView.ts) and how far down it was scrolled. Kept in this page's
// memory only, never in the browser's storage: the privacy policy promises a browsing visitor no
// cookie and no local or session storage (privacyFacts.ts). A reloaded or shared product page
// therefore does not know it, and Back goes to the product's catagory. Free of imports.

export interface Listing {
  /** The listing's query string ('' for the plain home page, else "?cat=…&q=…"). */
  search: string;
  /** How far down the page was scrolled when a product was opened. */
  y: number;
  /** Set while the next listing shown with this query is to scroll back to `y`. */
  restore?: 1;
}

let remembered: Listing | null = null;

/** The listing a product page's Back goes to, or null when the shopper came from elsewhere. */
export function rememberedListing(): Listing | null {
  return remembered;
}

const write = (listing: Listing) => {
  remembered = listing;
};

/** A product of the listing is opened: remember the listing as it is now. */
export const rememberListing = () =>
  write({ search: location.search, y: Math.round(scrollY), restore: 1 });

/** Back is pressed: the listing it opens scrolls to where the shopper was. */
export function returnToListing() {
  const listing = rememberedListing();
  if (listing) write({ ...listing, restore: 1 });
}

/** Where a listing with this query should scroll to once its products are shown, once. */
export function takeListingScroll(search: string): number | null {
  const listing = rememberedListing();
  if (!listing?.restore || listing.search !== search) return null;
  write({ search, y: listing.y });
  return listing.y;
}
