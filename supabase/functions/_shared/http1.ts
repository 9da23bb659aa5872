// A minimal HTTP/1.1 client for the link checker and the feed fetcher: one request over a connection to an address
// the caller has already approved (docs/decisions/0131). fetch() cannot be used: it resolves the
// host name again itself, so a DNS answer that changes between the check and the connection
// (DNS rebinding) would slip past the guard. Here the TCP connection goes to the approved IP and
// TLS is started on it with the URL's host name (SNI and certificate checks as usual).
//
// Only what a link check needs: the status line and headers (Location), and at most
// `maxBodyBytes` of the body, read and dropped, so an endless body costs neither time beyond the
// deadline nor memory. `Connection: close`; the connection is always closed.

export interface Http1Request {
  method: 'HEAD' | 'GET';
  url: URL;
  /** The approved IP address to connect to. */
  address: string;
  userAgent: string;
  maxHeaderBytes: number;
  maxBodyBytes: number;
  /** Absolute time (ms since epoch) by which everything must be done. */
  deadline: number;
}

export interface Http1Response {
  status: number;
  location: string | null;
  /** The few headers that name a bot wall (BOT_HEADERS), lower-case names, values cut short. */
  headers: Record<string, string>;
  /** The start of a GET body (at most BODY_SNIPPET_BYTES), for spotting a captcha page. */
  body: string;
}

/** Headers that tell a bot wall (Cloudflare, Akamai) from a missing page (REQ-OFF-6). */
export const BOT_HEADERS = ['server', 'cf-mitigated', 'cf-ray', 'x-akamai-transformed'];
export const BODY_SNIPPET_BYTES = 8 * 1024;

export class TimeoutError extends Error {
  constructor() {
    super('timed out');
  }
}

export class ProtocolError extends Error {}

/** `promise`, or a TimeoutError at `deadline`; `onLate` gets a value that arrives too late. */
export function beforeDeadline<T>(promise: Promise<T>, deadline: number, onLate?: (v: T) => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        timedOut = true;
        reject(new TimeoutError());
      },
      Math.max(0, deadline - Date.now()),
    );
  });
  promise.then(
    (v) => {
      if (timedOut) onLate?.(v);
    },
    () => undefined,
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function hostHeader(url: URL): string {
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  return url.port && url.port !== defaultPort ? `${url.hostname}:${url.port}` : url.hostname;
}

function requestText(req: Http1Request): string {
  const target = `${req.url.pathname || '/'}${req.url.search}`;
  return (
    `${req.method} ${target} HTTP/1.1\r\n` +
    `Host: ${hostHeader(req.url)}\r\n` +
    `User-Agent: ${req.userAgent}\r\n` +
    'Accept: text/html,image/*,*/*;q=0.8\r\n' +
    'Accept-Encoding: identity\r\n' +
    'Connection: close\r\n\r\n'
  );
}

const HEADER_END = [13, 10, 13, 10];

function indexOfHeaderEnd(buf: Uint8Array, from: number): number {
  outer: for (let i = Math.max(0, from - 3); i + 3 < buf.length; i++) {
    for (let j = 0; j < 4; j++) if (buf[i + j] !== HEADER_END[j]) continue outer;
    return i;
  }
  return -1;
}

function parseHead(text: string): Http1Response {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (!m) throw new ProtocolError('not an HTTP/1.x response');
  let location: string | null = null;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'location') location = value;
    else if (BOT_HEADERS.includes(name)) headers[name] = value.slice(0, 200);
  }
  return { status: Number(m[1]), location, headers, body: '' };
}

/** Sends one request to `req.address` and reads the response head (and some body, for GET). */
export async function http1Request(req: Http1Request): Promise<Http1Response> {
  const port = Number(req.url.port) || (req.url.protocol === 'https:' ? 443 : 80);
  const closeLate = (c: Deno.Conn) => {
    try {
      c.close();
    } catch {
      // already closed
    }
  };
  let conn: Deno.Conn = await beforeDeadline(
    Deno.connect({ hostname: req.address, port, transport: 'tcp' }),
    req.deadline,
    closeLate,
  );
  try {
    if (req.url.protocol === 'https:') {
      const tcp = conn;
      conn = await beforeDeadline(
        Deno.startTls(tcp as Deno.TcpConn, { hostname: req.url.hostname.replace(/^\[|\]$/g, '') }),
        req.deadline,
        closeLate,
      );
    }
    await beforeDeadline(conn.write(new TextEncoder().encode(requestText(req))), req.deadline);

    const chunk = new Uint8Array(16 * 1024);
    let head = new Uint8Array(0);
    let response: Http1Response | null = null;
    let bodyBytes = 0;
    // The first bytes of the body, kept for the bot-wall check; the rest is read and dropped.
    let snippet = new Uint8Array(0);
    const keep = (bytes: Uint8Array) => {
      const room = BODY_SNIPPET_BYTES - snippet.length;
      if (room <= 0 || bytes.length === 0) return;
      const merged = new Uint8Array(snippet.length + Math.min(room, bytes.length));
      merged.set(snippet);
      merged.set(bytes.subarray(0, room), snippet.length);
      snippet = merged;
    };
    for (;;) {
      let n: number | null;
      try {
        n = await beforeDeadline(conn.read(chunk), req.deadline);
      } catch (err) {
        // A body that stalls or breaks off does not undo a status already read.
        if (response) break;
        throw err;
      }
      if (n === null) break;
      if (response) {
        keep(chunk.subarray(0, n));
        bodyBytes += n;
        if (bodyBytes >= req.maxBodyBytes) break;
        continue;
      }
      const merged = new Uint8Array(head.length + n);
      merged.set(head);
      merged.set(chunk.subarray(0, n), head.length);
      head = merged;
      const end = indexOfHeaderEnd(head, head.length - n);
      if (end < 0) {
        if (head.length > req.maxHeaderBytes) throw new ProtocolError('response head too large');
        continue;
      }
      const parsed = parseHead(new TextDecoder().decode(head.subarray(0, end)));
      // Interim answers (100 Continue, 103 Early Hints): the real one follows.
      if (parsed.status >= 100 && parsed.status < 200) {
        head = head.slice(end + 4);
        continue;
      }
      response = parsed;
      bodyBytes = head.length - (end + 4);
      keep(head.subarray(end + 4));
      // HEAD answers have no body; 204/304 neither. Enough is known: stop reading.
      if (req.method === 'HEAD' || parsed.status === 204 || parsed.status === 304) break;
      if (bodyBytes >= req.maxBodyBytes) break;
    }
    if (!response) throw new ProtocolError('connection closed before a response');
    if (req.method === 'GET') response.body = new TextDecoder().decode(snippet);
    return response;
  } finally {
    closeLate(conn);
  }
}
