// Test clients with real addresses of their own. The gateway takes the client address from the
// socket (a client-sent X-Forwarded-For is dropped), and Linux routes all of 127.0.0.0/8 to the
// loopback device, so a test that needs to be "another visitor" for a per-address limit connects
// from another 127.x.y.z address instead of claiming one in a header.
import { randomBytes } from 'node:crypto';
import http from 'node:http';

/**
 * A fetch whose connections leave from `localAddress`. Linux routes all of 127.0.0.0/8 to the
 * loopback device, so each test can be a visitor with its own real address: the gateway takes
 * the client address from the socket and ignores any X-Forwarded-For a client sends.
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

/**
 * A fresh loopback address (127.x.y.z, never 127.0.0.1) to send from. Per-address limits (auth,
 * contact) then count this test's requests apart from every other test's.
 */
export function uniqueIp(): string {
  const [a, b, c] = randomBytes(3);
  return `127.${1 + (a! % 254)}.${b!}.${1 + (c! % 254)}`;
}
