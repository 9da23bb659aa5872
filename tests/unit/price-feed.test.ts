// REQ-OFF-5: the price-drop feed's document (src/host/priceFeed.ts) is well-formed XML whatever
// the product, seller and store are called (& < > quotes, control characters, astral and lone
// surrogate characters), and says their names back exactly; If-None-Match is compared as RFC 9110
// asks.
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { parseFeed } from '@rowanmanning/feed-parser';
import { describe, expect, it } from 'vitest';
import {
  matchesIfNoneMatch,
  priceFeedXml,
  xmlText,
  type PriceFeedInput,
} from '../../src/host/priceFeed';
import { texts } from '../../src/offerTexts';

const window = new JSDOM().window;

/** A strict XML 1.0 parser: the document, or an error for anything not well-formed. */
function strictXml(text: string): Document {
  const doc = new window.DOMParser().parseFromString(text, 'application/xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`not well-formed: ${error.textContent}`);
  return doc;
}

/** What XML can carry of a text: XML 1.0 drops the forbidden characters, CR reads as LF. */
const carried = (s: string) =>
  s
    // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/\r\n?/g, '\n');

const input = (title: string, seller: string, store: string): PriceFeedInput => ({
  product: {
    id: '0b7c1c8e-6d7f-4f57-9d8e-2f5b2c8a9f10',
    slug: 'ball',
    title,
    updated_at: '2026-11-20T10:00:00.123456+00:00',
  },
  drops: [
    {
      history_id: 7,
      offer_id: 'x',
      seller_name: seller,
      price_gbp: 41,
      previous_gbp: 45,
      changed_at: '2026-11-26T16:00:00.5+00:00',
    },
  ],
  storeName: store,
  siteUrl: 'https://shop.example.co.uk',
});

const PIECES = ['&', '<', '>', '"', "'", ']]>', '&amp;', '\u0000', '\u0001', '\uFFFF', '\uD800'];
const name = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 6 })), {
    maxLength: 8,
  })
  .map((parts) => parts.join(''));

describe('the feed document (REQ-OFF-5)', () => {
  it('is well-formed and says every name back, whatever the names hold', () => {
    fc.assert(
      fc.property(name, name, name, (title, seller, store) => {
        const xml = priceFeedXml(input(title, seller, store));
        const doc = strictXml(xml);
        const text = (selector: string) => doc.querySelector(selector)!.textContent;
        expect(text('feed > title')).toBe(texts.priceFeed.title(carried(title), carried(store)));
        expect(text('entry > title')).toBe(
          texts.priceFeed.entryTitle('£41.00', carried(seller), '£45.00'),
        );
        expect(text('author > name')).toBe(carried(store));
      }),
    );
  });

  it('reads in a feed parser: ids, dates, links', () => {
    const feed = parseFeed(priceFeedXml(input('Ball & <Kit>', 'Sports "Direct"', 'MAR')));
    expect(feed.meta.type).toBe('atom');
    expect(feed.title).toBe('Ball & <Kit> price drops — MAR');
    expect(feed.url).toBe('https://shop.example.co.uk/p/ball');
    expect(feed.self).toBe('https://shop.example.co.uk/p/ball/prices.atom');
    expect(feed.updated!.toISOString()).toBe('2026-11-26T16:00:00.500Z');
    const [entry] = feed.items;
    expect(entry!.id).toBe('tag:shop.example.co.uk,2026:price-drop/7');
    expect(entry!.title).toBe('£41.00 at Sports "Direct" (was £45.00)');
    expect(entry!.url).toBe('https://shop.example.co.uk/p/ball');
  });

  it('with no drops yet: an empty feed dated by the product', () => {
    const empty = { ...input('Ball', 'S', 'MAR'), drops: [] };
    const feed = parseFeed(priceFeedXml(empty));
    expect(feed.items).toEqual([]);
    expect(feed.updated!.toISOString()).toBe('2026-11-20T10:00:00.123Z');
  });

  it('escapes every markup character', () => {
    expect(xmlText(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
  });
});

describe('If-None-Match', () => {
  const etag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abd"', false],
    ['', false],
  ])('%j matches: %s', (header, expected) => {
    expect(matchesIfNoneMatch(header, etag)).toBe(expected);
  });
  it('no header never matches', () => {
    expect(matchesIfNoneMatch(null, etag)).toBe(false);
  });
});
