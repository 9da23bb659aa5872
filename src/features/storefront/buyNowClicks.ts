import { restRpc } from '../../lib/infra/catalogueRest';
import { CATEGORY_PARAM, DEFAULT_SORT, SORTS, SORT_PARAM } from './storeView';

/**
 * Buy Now click counting (docs/buy-now-clicks.md, docs/decisions/0120). The link itself opens
 * the seller at once; this only tells the database, in the background, that it was followed.
 * Nothing about the visitor is sent: the product, the store page (clickPage), and a random id
 * for this page view (held in memory only: no cookie, no storage), so that the database counts
 * a product once per page view however often it is clicked. A reload is a new page view; the database then
 * recognises the repeat by the connection's address, hashed with the day's salt, for 30 minutes.
 */

/** A version 4 UUID from getRandomValues, which, unlike randomUUID, plain http also has. */
function randomId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The store page a click came from, in the store's own shape only (decision 0200): a product's
 * page by its path, the home page with its category and sort. Everything else in the address
 * (ad click ids, mail ids, an e-mail address, the search words) stays in the browser. The
 * database applies the same rule whatever it is sent.
 */
export function clickPage(pathname: string, search: string): string {
  if (pathname.startsWith('/p/')) return pathname;
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  const cat = params.get(CATEGORY_PARAM);
  const sort = params.get(SORT_PARAM);
  if (cat) kept.set(CATEGORY_PARAM, cat);
  if (sort && sort !== DEFAULT_SORT && SORTS.includes(sort as (typeof SORTS)[number]))
    kept.set(SORT_PARAM, sort);
  const query = kept.toString();
  return query ? `${pathname}?${query}` : pathname;
}

let pageView: string | null = null;

/** One Buy Now click; `offerId`: which seller's offer it opened (REQ-OFF-2), when known. */
export function countBuyNowClick(productId: string, offerId?: string | null): void {
  try {
    pageView ??= randomId();
    // keepalive: the request is sent even if the visitor closes this tab right away.
    // A failed count is of no concern to the shopper: nothing shown, nothing thrown.
    void restRpc(
      'count_buy_now_click',
      {
        p_product_id: productId,
        p_page: clickPage(location.pathname, location.search),
        p_page_view: pageView,
        p_offer_id: offerId ?? undefined,
      },
      { keepalive: true },
    ).then(undefined, () => undefined);
  } catch {
    // No crypto or fetch (a very old browser): the link still works, uncounted.
  }
}
