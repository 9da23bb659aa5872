// Price-drop alerts without accounts (REQ-OFF-5, docs/decisions/0232): /p/<slug>/prices.atom, an
// Atom feed (RFC 4287) of the product's price drops, served by the host's function beside the
// product page (src/host/productPages.ts routes it here). Whoever wants alerts subscribes in a
// feed reader; the store keeps no list of followers and the feed holds no personal data (prices,
// dates and seller names only). Web-standard code only (crypto.subtle, Response).
import { formatPrice } from '../lib/domain/format.ts';
import { productPath } from '../routing/paths.ts';
import { texts } from '../offerTexts.ts';

/** A row of public.product_price_drops: one offer's price, lower than its previous one. */
export interface PriceDrop {
  history_id: number;
  offer_id: string;
  seller_name: string;
  price_gbp: number;
  previous_gbp: number;
  changed_at: string;
}

export interface PriceFeedInput {
  product: { id: string; slug: string; title: string; updated_at: string };
  drops: PriceDrop[];
  storeName: string;
  /** Absolute origin (no trailing slash) of the links and the ids. */
  siteUrl: string;
}

/** How many entries the feed carries (readers keep older ones themselves). */
export const FEED_ENTRIES = 50;
/**
 * The feed's caching: a reader polls every few minutes at most; browsers and readers keep it 5
 * minutes, a CDN 10, and a CDN may answer with its stale copy for an hour while it asks again.
 * A price drop reaches a follower within minutes; the database is asked at most every 10 minutes
 * per product and CDN node, however many follow.
 */
export const FEED_CACHE_CONTROL = 'public, max-age=300, s-maxage=600, stale-while-revalidate=3600';
export const FEED_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';
/**
 * The date part of the tag: URIs (RFC 4151) of the feed and its entries: the year the store's
 * feeds began, under the site's host name. Fixed, so every id stays the same forever.
 */
const TAG_DATE = '2026';

// Characters XML 1.0 does not allow at all (C0 controls other than tab, LF, CR; U+FFFE/U+FFFF;
// lone surrogates): dropped, so no stored text can make the document unreadable.
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text or an attribute value for XML: every markup character escaped, invalid characters out. */
export function xmlText(value: string): string {
  return value
    .replace(NOT_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

const gbp = (value: number) => formatPrice(String(value));

/** The entry's title: "£41.00 at Sports Direct (was £45.00)". */
export function dropTitle(drop: PriceDrop): string {
  return texts.priceFeed.entryTitle(gbp(drop.price_gbp), drop.seller_name, gbp(drop.previous_gbp));
}

/** RFC 3339 in UTC, as Atom's dates are written ("2026-11-26T16:00:00.123Z"). */
const atomDate = (timestamp: string) => new Date(timestamp).toISOString();

/** The newest change the feed shows: its newest entry, or the product itself when newer. */
export function feedUpdated(input: PriceFeedInput): string {
  const times = [input.product.updated_at, ...input.drops.map((d) => d.changed_at)]
    .map((t) => Date.parse(t))
    .filter(Number.isFinite);
  return new Date(Math.max(0, ...times)).toISOString();
}

/** The feed's document. Every text is escaped (titles may hold &, <, quotes). */
export function priceFeedXml(input: PriceFeedInput): string {
  const { product, drops, storeName, siteUrl } = input;
  const host = new URL(siteUrl).hostname;
  const tag = (specific: string) => `tag:${host},${TAG_DATE}:${specific}`;
  const page = `${siteUrl}${productPath(product.slug)}`;
  const self = `${page}/prices.atom`;
  const entries = drops.map(
    (drop) => `  <entry>
    <id>${xmlText(tag(`price-drop/${drop.history_id}`))}</id>
    <title type="text">${xmlText(dropTitle(drop))}</title>
    <updated>${atomDate(drop.changed_at)}</updated>
    <link rel="alternate" type="text/html" href="${xmlText(page)}"/>
  </entry>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-GB">
  <id>${xmlText(tag(`product/${product.id}/price-drops`))}</id>
  <title type="text">${xmlText(texts.priceFeed.title(product.title, storeName))}</title>
  <updated>${feedUpdated(input)}</updated>
  <link rel="self" type="application/atom+xml" href="${xmlText(self)}"/>
  <link rel="alternate" type="text/html" href="${xmlText(page)}"/>
  <author><name>${xmlText(storeName)}</name></author>
${entries.join('\n')}${entries.length ? '\n' : ''}</feed>
`;
}

/** A strong validator of the exact bytes: any change (a seller's new name too) changes it. */
async function etagOf(body: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `"${hex.slice(0, 32)}"`;
}

/** If-None-Match holds this ETag (or *): weak comparison, as RFC 9110 asks for GET. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/**
 * The feed's answer: 200 with the document, or 304 without a body when the reader already has
 * it (If-None-Match). Last-Modified is the newest entry's time (or the product's); only the ETag
 * decides a 304, because a store or seller rename changes the document but not that time.
 */
export async function priceFeedResponse(
  input: PriceFeedInput,
  requestHeaders: Headers,
): Promise<Response> {
  const body = priceFeedXml(input);
  const etag = await etagOf(body);
  const headers = {
    'Cache-Control': FEED_CACHE_CONTROL,
    ETag: etag,
    'Last-Modified': new Date(feedUpdated(input)).toUTCString(),
  };
  if (matchesIfNoneMatch(requestHeaders.get('If-None-Match'), etag))
    return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, 'Content-Type': FEED_CONTENT_TYPE } });
}

/** Unknown, hidden or malformed product: a short text answer (no feed document). */
export function feedNotFound(notFoundText: string): Response {
  return new Response(`${notFoundText}\n`, {
    status: 404,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=0, s-maxage=60',
    },
  });
}
