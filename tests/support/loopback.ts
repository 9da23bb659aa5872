// Clients with addresses of their own on one machine. The gateway takes the client address from
// the socket (a client's X-Forwarded-For is dropped), and Linux routes all of 127.0.0.0/8 to the
// loopback device: a connection that leaves from 127.a.b.c is a different visitor to every
// per-address limit, for real.
import { randomBytes } from 'node:crypto';
import http from 'node:http';

/** A random loopback address other than 127.0.0.1. */
export function randomLoopbackIp(): string {
  const [a, b, c] = randomBytes(3);
  return `127.${1 + (a! % 254)}.${b!}.${1 + (c! % 254)}`;
}

/**
 * A fetch whose connections leave from `localAddress` (one connection per request, redirects
 * are returned, not followed). Enough for supabase-js (`global.fetch`) and plain calls.
 */
export function fetchFrom(localAddress: string): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const url = new URL(req.url);
    return new Promise<Response>((resolve, reject) => {
      const outgoing = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: req.method,
          headers: Object.fromEntries(req.headers),
          localAddress,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
                headers.append(name, v);
            }
            const status = res.statusCode ?? 0;
            const empty = status === 204 || status === 304 || req.method === 'HEAD';
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}
