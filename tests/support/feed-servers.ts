// Feed hosts for the feed-sync tests: one real HTTP server on 127.0.0.1 (port chosen by the OS)
// whose paths serve product feeds the ways networks and shops do (Awin's gzip CSV download,
// Google Merchant RSS, ETag/304, redirects, endless generated files). Nothing here touches the
// internet; the feed-sync function may reach it only because the test stack sets
// FEED_SYNC_ALLOW_LOOPBACK.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

/** What a path answers. `body` may be a generator: it is streamed with back-pressure. */
export interface FeedRoute {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer | (() => Iterable<Buffer | string>);
  /** Answered as ETag; a request with the same If-None-Match gets 304. */
  etag?: string;
  lastModified?: string;
}

export interface SeenRequest {
  method: string;
  path: string;
  ifNoneMatch: string | undefined;
  ifModifiedSince: string | undefined;
}

export interface FeedServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: SeenRequest[];
  /** `path` answers `route` (or what the function returns for the n-th request to it, from 1). */
  serve(path: string, route: FeedRoute | ((n: number) => FeedRoute)): void;
  /** Requests seen for `path`. */
  seen(path: string): SeenRequest[];
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const sockets = new Set<Socket>();
  const requests: SeenRequest[] = [];
  const routes = new Map<string, FeedRoute | ((n: number) => FeedRoute)>();
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    requests.push({
      method: req.method ?? 'GET',
      path,
      ifNoneMatch: header('if-none-match'),
      ifModifiedSince: header('if-modified-since'),
    });
    const n = (counts.get(path) ?? 0) + 1;
    counts.set(path, n);
    const entry = routes.get(path);
    if (!entry) {
      res.writeHead(404);
      res.end('Not found');
      return;
    }
    const route = typeof entry === 'function' ? entry(n) : entry;
    const headers: Record<string, string> = { ...route.headers };
    if (route.etag) headers.etag = route.etag;
    if (route.lastModified) headers['last-modified'] = route.lastModified;
    if (route.etag && header('if-none-match') === route.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(route.status ?? 200, headers);
    const body = route.body;
    if (req.method === 'HEAD' || body === undefined) {
      res.end();
      return;
    }
    if (typeof body !== 'function') {
      res.end(body);
      return;
    }
    const it = body()[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        if (res.destroyed) return;
        const next = it.next();
        if (next.done) {
          res.end();
          return;
        }
        if (!res.write(next.value)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    res.on('error', () => undefined); // the reader stops at its budget and hangs up
    pump();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    serve: (path, route) => {
      routes.set(path, route);
      counts.delete(path);
    },
    seen: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Feed files
// ---------------------------------------------------------------------------------------------

/** Awin's product feed columns (the preset's names), in Awin's download order. */
export const AWIN_COLUMNS = [
  'aw_deep_link',
  'merchant_name',
  'merchant_product_id',
  'product_name',
  'search_price',
  'delivery_cost',
  'in_stock',
  'ean',
  'currency',
  'merchant_image_url',
  'brand_name',
  'last_updated',
] as const;

export type AwinRow = Partial<Record<(typeof AWIN_COLUMNS)[number], string>>;

/** The awin_csv preset mapping (feed field -> Awin column). */
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

/** One CSV field, quoted when it must be (RFC 4180). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\n`;
}

/** An Awin CSV (header + rows); `extra` names further columns the rows may carry. */
export function awinCsv(rows: AwinRow[], extra: string[] = []): string {
  const columns = [...AWIN_COLUMNS, ...extra];
  return (
    csvLine(columns) +
    rows
      .map((r) => csvLine(columns.map((c) => (r as Record<string, string | undefined>)[c] ?? '')))
      .join('')
  );
}

/** An Awin row with plausible defaults for what the test does not care about. */
export function awinRow(fields: AwinRow): AwinRow {
  return {
    merchant_name: 'Feed Test Shop',
    product_name: 'Feed test product',
    currency: 'GBP',
    in_stock: '1',
    merchant_image_url: 'https://images.example.com/p.jpg',
    brand_name: 'Acme',
    last_updated: '2026-11-26 10:00:00',
    ...fields,
  };
}

export const gzip = (text: string | Buffer): Buffer => gzipSync(text);

export interface GoogleItem {
  id?: string;
  gtin?: string;
  title?: string;
  link?: string;
  price?: string;
  sale_price?: string;
  availability?: string;
  image_link?: string;
  brand?: string;
  /** g:shipping/g:price */
  shipping?: string;
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Google Merchant feed: RSS 2.0 with the g: namespace. */
export function googleXml(items: GoogleItem[]): string {
  const item = (i: GoogleItem) => {
    const fields = Object.entries(i)
      .filter(([k, v]) => v !== undefined && k !== 'shipping' && k !== 'title' && k !== 'link')
      .map(([k, v]) => `<g:${k}>${xmlText(v as string)}</g:${k}>`);
    if (i.title !== undefined) fields.push(`<title>${xmlText(i.title)}</title>`);
    if (i.link !== undefined) fields.push(`<link>${xmlText(i.link)}</link>`);
    if (i.shipping !== undefined)
      fields.push(
        `<g:shipping><g:country>GB</g:country><g:service>Standard</g:service><g:price>${xmlText(i.shipping)}</g:price></g:shipping>`,
      );
    return `<item>\n${fields.map((f) => `  ${f}`).join('\n')}\n</item>`;
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">',
    '<channel>',
    '<title>Feed test shop</title>',
    '<link>https://shop.example.com</link>',
    '<description>Products</description>',
    ...items.map(item),
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}
