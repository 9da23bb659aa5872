// The feeds bench's data (bench/feeds.ts): an Awin-style product feed (gzip CSV, Awin's column
// names) for the bulk catalogue of scripts/seed-bulk.ts, the feed seller's offers the catalogue
// starts with, what a run must report, and the loopback server that serves the file the way a
// network does (ETag, Last-Modified, 304 to a conditional request).
//
// Everything is a function of the product's serial i (the bulk product `…/bk-<i>`), so the same
// sizes give the same bytes. Feed lines, in order:
// - products 1..F (F = rows − 1% unmatched − 10 duplicates):
//   - the seller has an offer of it (i % 20 ≠ 0), keyed by GTIN (column ean) and its product id
//     (merchant_product_id = FB-i); some lines carry no GTIN and match by product id
//     (i % 10 = 1), some carry neither and match by link (i % 50 = 3);
//     most are unchanged; i % 100 = 7: £1 cheaper (changed); i % 100 = 41: out of stock
//     (changed); i % 1000 = 17: three times the price (held: over the 50% limit);
//   - no offer yet (i % 20 = 0): matched by GTIN, a new offer (added), except i % 400 = 0:
//     refused (bad price, EUR, bad check digit, unknown availability in turn);
// - 1% new items whose GTINs the catalogue does not have (unmatched);
// - 10 lines repeating an earlier line's GTIN (refused: duplicate_in_feed).
// Products F+1..N with an offer of the seller are missing from this full feed: made unavailable.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export const AWIN_COLUMNS = [
  'aw_deep_link',
  'product_name',
  'aw_product_id',
  'merchant_product_id',
  'merchant_image_url',
  'description',
  'merchant_category',
  'search_price',
  'merchant_name',
  'merchant_id',
  'category_name',
  'aw_image_url',
  'currency',
  'store_price',
  'delivery_cost',
  'merchant_deep_link',
  'language',
  'last_updated',
  'display_price',
  'data_feed_id',
  'brand_name',
  'ean',
  'in_stock',
] as const;

/** The awin_csv preset's mapping (FEEDS contract): field -> Awin column. */
export const AWIN_MAPPING = {
  id: 'merchant_product_id',
  gtin: 'ean',
  title: 'product_name',
  link: 'aw_deep_link',
  price: 'search_price',
  currency: 'currency',
  delivery: 'delivery_cost',
  availability: 'in_stock',
  image: 'merchant_image_url',
  brand: 'brand_name',
};

const REFUSALS = ['price_invalid', 'currency_not_gbp', 'gtin_invalid', 'availability_unknown'];

/** EAN-13 of a 12-digit body (check digit: weights 1, 3, 1, 3 … from the left). */
export function ean13(body: string): string {
  let sum = 0;
  for (let k = 0; k < 12; k++) sum += Number(body[k]) * (k % 2 ? 3 : 1);
  return body + String((10 - (sum % 10)) % 10);
}
export const productGtin = (i: number) => ean13(`501234${String(i).padStart(6, '0')}`);
const newItemGtin = (j: number) => ean13(`509999${String(j).padStart(6, '0')}`);
export const offerLink = (i: number) =>
  `https://www.awin1.com/pclick.php?p=${100_000_000 + i}&a=123456&m=7890`;

export const hasOffer = (i: number) => i % 20 !== 0;
const idOnly = (i: number) => i % 10 === 1;
const linkOnly = (i: number) => i % 50 === 3;
const refusal = (i: number) => (!hasOffer(i) && i % 400 === 0 ? REFUSALS[(i / 400) % 4]! : null);
/** The seller's price before the run: £5.00 to £504.99. */
export const basePrice = (i: number) => 5 + ((i * 7919) % 50_000) / 100;
export const baseDelivery = (i: number) => (i % 3 === 0 ? 0 : 3.99);
/** The offer's seller product id before the run (link-only lines have none). */
export const sellerProductId = (i: number) => (linkOnly(i) ? null : `FB-${i}`);

export interface FeedShape {
  products: number;
  rows: number;
}

export interface Expected {
  rowsRead: number;
  added: number;
  changed: number;
  unchanged: number;
  unmatched: number;
  refused: number;
  held: number;
  madeUnavailable: number;
  refusedByCode: Record<string, number>;
}

function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** The feed (gzip) and the report a run of it against the seeded catalogue must give. */
export function makeFeed({ products, rows }: FeedShape): {
  gzip: Buffer;
  csvBytes: number;
  expected: Expected;
} {
  const unmatchedRows = Math.floor(rows / 100);
  const feedProducts = rows - unmatchedRows - 10;
  if (feedProducts > products || feedProducts < 2200) {
    throw new Error(`rows ${rows} do not fit ${products} products`);
  }
  const e: Expected = {
    rowsRead: rows,
    added: 0,
    changed: 0,
    unchanged: 0,
    unmatched: unmatchedRows,
    refused: 0,
    held: 0,
    madeUnavailable: 0,
    refusedByCode: {},
  };
  const refuse = (code: string) => {
    e.refused++;
    e.refusedByCode[code] = (e.refusedByCode[code] ?? 0) + 1;
  };
  const parts: string[] = [AWIN_COLUMNS.join(',')];
  const line = (f: Record<(typeof AWIN_COLUMNS)[number], string>) =>
    parts.push(AWIN_COLUMNS.map((c) => csvField(f[c])).join(','));
  const productLine = (i: number) => {
    const code = refusal(i);
    let price = basePrice(i);
    let inStock = '1';
    let currency = 'GBP';
    let ean = idOnly(i) || linkOnly(i) ? '' : productGtin(i);
    if (hasOffer(i) && i % 1000 === 17) price *= 3;
    else if (hasOffer(i) && i % 100 === 7) price -= 1;
    else if (hasOffer(i) && i % 100 === 41) inStock = '0';
    if (code === 'currency_not_gbp') currency = 'EUR';
    if (code === 'gtin_invalid') ean = ean.slice(0, 12) + String((Number(ean[12]) + 1) % 10);
    if (code === 'availability_unknown') inStock = 'maybe';
    const priceText = code === 'price_invalid' ? 'call us' : price.toFixed(2);
    // Every 1,000th description spans lines (RFC 4180 quoting); every 7th has quotes and commas.
    const description =
      i % 1000 === 0
        ? `Line one of the description.\nLine two, with "quotes".`
        : i % 7 === 0
          ? `The "Pro" model, built for clubs, schools and weekends`
          : 'Built for weekly club sessions and match days alike.';
    line({
      aw_deep_link: offerLink(i),
      product_name: `Bench Item ${i}`,
      aw_product_id: String(30_000_000 + i),
      merchant_product_id: linkOnly(i) ? '' : `FB-${i}`,
      merchant_image_url: `https://images.feed-bench.example.com/p/${i}.jpg`,
      description,
      merchant_category: 'Sports',
      search_price: priceText,
      merchant_name: 'Feed Bench Sports',
      merchant_id: '7890',
      category_name: 'Sports & Outdoors',
      aw_image_url: `https://images2.productserve.com/?w=200&h=200&url=p${i}`,
      currency,
      store_price: priceText,
      delivery_cost: baseDelivery(i).toFixed(2),
      merchant_deep_link: `https://www.feed-bench.example.com/p/FB-${i}`,
      language: 'en',
      last_updated: '2026-11-26 06:00:00',
      display_price: `GBP${priceText}`,
      data_feed_id: '12345',
      brand_name: 'Bench Brand',
      ean,
      in_stock: inStock,
    });
    return { code, price, inStock };
  };
  for (let i = 1; i <= feedProducts; i++) {
    const { code, price, inStock } = productLine(i);
    if (code) refuse(code);
    else if (!hasOffer(i)) e.added++;
    else if (i % 1000 === 17) e.held++;
    else if (price !== basePrice(i) || inStock !== '1') e.changed++;
    else e.unchanged++;
  }
  for (let j = 1; j <= unmatchedRows; j++) {
    line({
      aw_deep_link: `https://www.awin1.com/pclick.php?p=${200_000_000 + j}&a=123456&m=7890`,
      product_name: `Bench New Item ${j}`,
      aw_product_id: String(40_000_000 + j),
      merchant_product_id: `NEW-${j}`,
      merchant_image_url: `https://images.feed-bench.example.com/new/${j}.jpg`,
      description: 'New this season.',
      merchant_category: 'Sports',
      search_price: '19.99',
      merchant_name: 'Feed Bench Sports',
      merchant_id: '7890',
      category_name: 'Sports & Outdoors',
      aw_image_url: '',
      currency: 'GBP',
      store_price: '19.99',
      delivery_cost: '3.99',
      merchant_deep_link: `https://www.feed-bench.example.com/p/NEW-${j}`,
      language: 'en',
      last_updated: '2026-11-26 06:00:00',
      display_price: 'GBP19.99',
      data_feed_id: '12345',
      brand_name: 'Bench Brand',
      ean: newItemGtin(j),
      in_stock: '1',
    });
  }
  // Repeats of plain GTIN lines (i % 20 = 5: an offer, no price change), spread over the feed.
  const step = Math.floor(feedProducts / 220);
  for (let m = 1; m <= 10; m++) {
    productLine(5 + 20 * m * step);
    refuse('duplicate_in_feed');
  }
  for (let i = feedProducts + 1; i <= products; i++) if (hasOffer(i)) e.madeUnavailable++;
  const csv = Buffer.from(`${parts.join('\r\n')}\r\n`);
  return { gzip: gzipSync(csv, { level: 6 }), csvBytes: csv.length, expected: e };
}

export interface FeedServer {
  url: string;
  etag: string;
  /** The network publishes the same file again: a new ETag and Last-Modified, same bytes. */
  republish(): void;
  /** Full downloads (200), 304 answers, bytes sent. */
  stats: { full: number; notModified: number; bytesSent: number };
  close(): Promise<void>;
}

/** Serves `gzip` at /datafeed/7890.csv.gz on 127.0.0.1, conditional requests honoured. */
export async function startFeedServer(gzip: Buffer): Promise<FeedServer> {
  let etag = `"${createHash('sha1').update(gzip).digest('hex').slice(0, 20)}"`;
  let lastModified = 'Thu, 26 Nov 2026 06:00:00 GMT';
  const stats = { full: 0, notModified: 0, bytesSent: 0 };
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    if (req.url !== '/datafeed/7890.csv.gz') {
      res.writeHead(404).end();
      return;
    }
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const fresh =
      inm !== undefined
        ? inm.split(',').some((t) => [etag, '*'].includes(t.trim().replace(/^W\//, '')))
        : ims !== undefined && Date.parse(ims) >= Date.parse(lastModified);
    const headers = { etag, 'last-modified': lastModified, 'cache-control': 'no-cache' };
    if (fresh) {
      stats.notModified++;
      res.writeHead(304, headers).end();
      return;
    }
    stats.full++;
    res.writeHead(200, {
      ...headers,
      'content-type': 'application/x-gzip',
      'content-disposition': 'attachment; filename="datafeed_7890.csv.gz"',
      'content-length': String(gzip.length),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // In 64 kB pieces with back-pressure, as a file server sends; a reader that stops early
    // (the function at the end of its budget) just closes the connection.
    let at = 0;
    const pump = () => {
      while (at < gzip.length) {
        const piece = gzip.subarray(at, at + 65_536);
        at += piece.length;
        stats.bytesSent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('error', () => undefined);
    pump();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/datafeed/7890.csv.gz`,
    get etag() {
      return etag;
    },
    republish: () => {
      etag = `"${etag.slice(1, -1)}-r"`;
      lastModified = new Date().toUTCString();
    },
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
