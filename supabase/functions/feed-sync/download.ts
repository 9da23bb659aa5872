// Opening a feed as a stream of decoded bytes (REQ-FEED-6, decision 0242): URL sources through
// the link checker's SSRF guard at every hop (resolve, approve every address, connect only to the
// approved one; redirects followed here), upload sources from Storage with the service key.
// Conditional headers from the source's ETag / Last-Modified; gzip by magic bytes, the
// Content-Encoding or the setting; FEED_MAX_BYTES on the decoded stream.
import { bareHost, refusal, type TargetPolicy } from '../_shared/address.ts';
import { resolveHost } from '../_shared/resolve.ts';
import { beforeDeadline } from '../_shared/http1.ts';
import { http1Stream, type StreamResponse } from '../_shared/http1-stream.ts';
import { maybeGunzip } from './gzip.ts';

export class FetchRefused extends Error {}

export interface Opened {
  status: number;
  etag: string | null;
  lastModified: string | null;
  /** Encoded bytes read so far (grows while the body is read). */
  encoded: () => number;
  /** Decoded bytes (null for 304). */
  body: ReadableStream<Uint8Array> | null;
}

export interface OpenOptions {
  policy: TargetPolicy;
  userAgent: string;
  maxRedirects: number;
  maxBytes: number;
  deadline: number;
  compression: 'auto' | 'none' | 'gzip';
  conditional?: { etag: string | null; lastModified: string | null };
  resolve?: (host: string) => Promise<string[]>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** GETs `start`, following redirects itself; every hop resolved and approved first. */
export async function guardedGet(start: string, o: OpenOptions): Promise<StreamResponse> {
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    throw new FetchRefused('the feed address is not a URL');
  }
  const resolve = o.resolve ?? resolveHost;
  const headers: Record<string, string> = {};
  if (o.conditional?.etag) headers['If-None-Match'] = o.conditional.etag;
  if (o.conditional?.lastModified) headers['If-Modified-Since'] = o.conditional.lastModified;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FetchRefused(`refused: ${url.protocol} is not http(s)`);
    const addresses = await beforeDeadline(resolve(bareHost(url)), o.deadline);
    if (addresses.length === 0) throw new FetchRefused(`no address for ${url.hostname}`);
    for (const a of addresses) {
      const why = refusal(a, o.policy);
      if (why) throw new FetchRefused(why);
    }
    const address = addresses.find((a) => !a.includes(':')) ?? addresses[0]!;
    const res = await http1Stream({
      url,
      address,
      userAgent: o.userAgent,
      headers,
      maxHeaderBytes: 32 * 1024,
      maxBodyBytes: o.maxBytes,
      deadline: o.deadline,
    });
    if (!REDIRECTS.has(res.status) || !res.headers.location) return res;
    await res.body.cancel();
    if (hop + 1 > o.maxRedirects) throw new FetchRefused('too many redirects');
    try {
      url = new URL(res.headers.location, url);
    } catch {
      throw new FetchRefused('redirect to an invalid URL');
    }
  }
}

/** Counts bytes through a stream and stops it past `limit` with a clear message. */
function counted(
  body: ReadableStream<Uint8Array>,
  limit: number,
  what: string,
): { stream: ReadableStream<Uint8Array>; count: () => number } {
  let n = 0;
  const stream = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        n += chunk.length;
        if (n > limit)
          throw new FetchRefused(`${what} is larger than ${limit} bytes (FEED_MAX_BYTES)`);
        c.enqueue(chunk);
      },
    }),
  );
  return { stream, count: () => n };
}

export interface SourceRef {
  origin: 'url' | 'upload';
  url: string | null;
  upload_path: string | null;
}

/** Opens a source: status, validators and the decoded, size-limited body. */
export async function openFeed(
  src: SourceRef,
  o: OpenOptions & { supabaseUrl: string; serviceRoleKey: string },
): Promise<Opened> {
  let status: number;
  let headers: Record<string, string>;
  let raw: ReadableStream<Uint8Array> | null;
  if (src.origin === 'upload') {
    if (!src.upload_path) throw new FetchRefused('Upload a feed file first');
    const path = src.upload_path.split('/').map(encodeURIComponent).join('/');
    // The project's own Storage (not a seller's address): plain fetch with the service key.
    const res = await fetch(`${o.supabaseUrl}/storage/v1/object/feed-uploads/${path}`, {
      headers: { Authorization: `Bearer ${o.serviceRoleKey}`, apikey: o.serviceRoleKey },
      signal: AbortSignal.timeout(Math.max(1000, o.deadline - Date.now())),
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new FetchRefused(`the uploaded file could not be read (HTTP ${res.status})`);
    }
    status = res.status;
    headers = Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v]));
    raw = res.body;
  } else {
    if (!src.url) throw new FetchRefused('the feed has no address');
    const res = await guardedGet(src.url, o);
    status = res.status;
    headers = res.headers;
    raw = res.body;
  }
  const etag = headers['etag'] ?? null;
  const lastModified = headers['last-modified'] ?? null;
  if (status === 304 || status >= 300 || !raw) {
    await raw?.cancel();
    return { status, etag, lastModified, encoded: () => 0, body: null };
  }
  const enc = counted(raw, o.maxBytes, 'the download');
  const gz = /gzip/i.test(headers['content-encoding'] ?? '') ? 'gzip' : o.compression;
  const decoded = counted(maybeGunzip(enc.stream, gz), o.maxBytes, 'the feed');
  return { status, etag, lastModified, encoded: enc.count, body: decoded.stream };
}
