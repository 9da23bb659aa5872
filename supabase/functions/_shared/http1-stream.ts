// Streaming GET over the same approved-address HTTP/1.1 connection as http1.ts (decision 0242):
// the feed fetcher needs the whole body, read as a stream with bounded memory. The body is
// framed by Content-Length, chunked transfer-encoding or the connection's end; every read has
// the caller's deadline and the body never grows beyond `maxBodyBytes` (encoded bytes).
import { beforeDeadline, ProtocolError } from './http1.ts';
import { ChunkedDecoder, concat, find } from './chunked.ts';

export { ChunkedDecoder };

export interface StreamRequest {
  url: URL;
  /** The approved IP address to connect to (the caller resolved and approved it). */
  address: string;
  userAgent: string;
  /** Extra request headers (If-None-Match, If-Modified-Since, Authorization). */
  headers: Record<string, string>;
  maxHeaderBytes: number;
  maxBodyBytes: number;
  deadline: number;
}

export interface StreamResponse {
  status: number;
  /** Every header, lower-case names (a repeated header keeps its last value). */
  headers: Record<string, string>;
  /** The decoded (de-chunked) body; cancel it to close the connection early. */
  body: ReadableStream<Uint8Array>;
}

export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`the file is larger than ${limit} bytes`);
  }
}

const CRLF2 = [13, 10, 13, 10];

function parseHead(text: string): { status: number; headers: Record<string, string> } {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (!m) throw new ProtocolError('not an HTTP/1.x response');
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line
      .slice(colon + 1)
      .trim()
      .slice(0, 1000);
  }
  return { status: Number(m[1]), headers };
}

function hostHeader(url: URL): string {
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  return url.port && url.port !== defaultPort ? `${url.hostname}:${url.port}` : url.hostname;
}

/** Sends a GET to `req.address` and answers the head with the body as a stream. */
export async function http1Stream(req: StreamRequest): Promise<StreamResponse> {
  const port = Number(req.url.port) || (req.url.protocol === 'https:' ? 443 : 80);
  const close = (c: Deno.Conn) => {
    try {
      c.close();
    } catch {
      // already closed
    }
  };
  let conn: Deno.Conn = await beforeDeadline(
    Deno.connect({ hostname: req.address, port, transport: 'tcp' }),
    req.deadline,
    close,
  );
  try {
    if (req.url.protocol === 'https:') {
      const tcp = conn as Deno.TcpConn;
      conn = await beforeDeadline(
        Deno.startTls(tcp, { hostname: req.url.hostname.replace(/^\[|\]$/g, '') }),
        req.deadline,
        close,
      );
    }
    const extra = Object.entries(req.headers)
      .filter(([, v]) => !/[\r\n]/.test(v))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const text =
      `GET ${req.url.pathname || '/'}${req.url.search} HTTP/1.1\r\n` +
      `Host: ${hostHeader(req.url)}\r\nUser-Agent: ${req.userAgent}\r\n` +
      `Accept: */*\r\nAccept-Encoding: gzip, identity\r\n${extra}Connection: close\r\n\r\n`;
    await beforeDeadline(conn.write(new TextEncoder().encode(text)), req.deadline);

    const chunk = new Uint8Array(64 * 1024);
    let head: Uint8Array = new Uint8Array(0);
    let parsed: { status: number; headers: Record<string, string> } | null = null;
    let rest: Uint8Array = new Uint8Array(0);
    while (!parsed) {
      const n = await beforeDeadline(conn.read(chunk), req.deadline);
      if (n === null) throw new ProtocolError('connection closed before a response');
      head = concat(head, chunk.slice(0, n));
      const end = find(head, CRLF2, Math.max(0, head.length - n - 3));
      if (end < 0) {
        if (head.length > req.maxHeaderBytes) throw new ProtocolError('response head too large');
        continue;
      }
      const p = parseHead(new TextDecoder().decode(head.subarray(0, end)));
      head = head.slice(end + 4);
      if (p.status >= 100 && p.status < 200) continue;
      parsed = p;
      rest = head;
    }
    const { status, headers } = parsed;
    const live = conn;
    const noBody = status === 204 || status === 304;
    const chunked = /\bchunked\b/i.test(headers['transfer-encoding'] ?? '');
    const length =
      headers['content-length'] !== undefined ? Number(headers['content-length']) : null;
    if (length !== null && (!Number.isSafeInteger(length) || length < 0))
      throw new ProtocolError('bad Content-Length');
    if (!chunked && length !== null && length > req.maxBodyBytes)
      throw new BodyTooLargeError(req.maxBodyBytes);
    const decoder = chunked ? new ChunkedDecoder() : null;
    let received = 0;
    let pending: Uint8Array | null = rest.length ? rest : null;
    let finished = noBody || length === 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (;;) {
          if (finished) {
            close(live);
            controller.close();
            return;
          }
          let bytes: Uint8Array;
          if (pending) {
            bytes = pending;
            pending = null;
          } else {
            const n = await beforeDeadline(live.read(chunk), req.deadline);
            if (n === null) {
              if (decoder || (length !== null && received < length))
                throw new ProtocolError('the connection closed before the end of the file');
              finished = true;
              continue;
            }
            bytes = chunk.slice(0, n);
          }
          received += bytes.length;
          if (received > req.maxBodyBytes + (decoder ? 1024 * 1024 : 0))
            throw new BodyTooLargeError(req.maxBodyBytes);
          let parts: Uint8Array[];
          if (decoder) {
            parts = decoder.push(bytes);
            if (decoder.done) finished = true;
          } else if (length !== null) {
            const over = received - length;
            parts = [over > 0 ? bytes.subarray(0, bytes.length - over) : bytes];
            if (received >= length) finished = true;
          } else parts = [bytes];
          const data = parts.filter((p) => p.length > 0);
          for (const p of data) controller.enqueue(p);
          if (data.length) return;
        }
      },
      cancel() {
        close(live);
      },
    });
    if (noBody) close(live);
    return { status, headers, body };
  } catch (err) {
    close(conn);
    throw err;
  }
}
