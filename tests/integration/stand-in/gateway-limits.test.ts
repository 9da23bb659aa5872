// Gateway limits, on gateways started here in front of a real echoing upstream (loopback only,
// bounded in count and time): slow clients neither starve other clients nor stay connected for
// ever, oversized bodies get 413 before they reach a backend, and a secret key is refused from a
// browser as hosted Supabase refuses it. The stack's own gateway: functions keep hosted's rules
// (verify_jwt decides, not an API key).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../../stack/gateway.ts';
import { findFreePortBase } from '../../../stack/stack.ts';
import { stackEnv } from '../../support/stack.ts';

const keys = {
  anonKey: 'anon-jwt',
  serviceRoleKey: 'service-jwt',
  publishableKey: 'sb_publishable_test',
  secretKey: 'sb_secret_test',
};
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const SECRET_IN_BROWSER = {
  message: 'Forbidden use of secret API key in browser',
  hint: 'Secret API keys can only be used in a protected environment and should never be used in a browser. Delete this secret API key immediately!',
};

let echo: http.Server;
let upstreamRequests = 0;
let gateway: Gateway;
let quickGateway: Gateway;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  echo = http.createServer((req, res) => {
    upstreamRequests++;
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ bytes, headers: req.headers }));
    });
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  const upstream = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  const upstreams = { rest: upstream, auth: upstream, functions: upstream };
  const base = await findFreePortBase();
  gateway = await startGateway({ port: base, upstreams, keys });
  // Short timeouts, so the test can watch slow clients being cut off.
  quickGateway = await startGateway({
    port: base + 1,
    upstreams,
    keys,
    limits: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 },
  });
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await gateway?.close();
  await quickGateway?.close();
  await new Promise((r) => echo?.close(r));
});

function connect(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(port), hostname, () => resolve(s));
    s.on('error', reject);
    sockets.push(s);
  });
}

/**
 * Opens `n` slowloris-style connections that stop inside the body (each holds a backend request
 * open) or, with `mixed`, every other one inside the headers.
 */
async function openSlowClients(url: string, n: number, mixed = false): Promise<net.Socket[]> {
  const opened: net.Socket[] = [];
  for (let i = 0; i < n; i++) {
    const s = await connect(url);
    s.on('error', () => undefined);
    s.resume(); // read what the gateway answers, so its closing the connection is seen
    if (mixed && i % 2 === 0) {
      s.write('GET /rest/v1/products HTTP/1.1\r\nHost: gateway\r\napikey: anon-jwt\r\n');
    } else {
      s.write(
        'POST /rest/v1/products HTTP/1.1\r\nHost: gateway\r\napikey: anon-jwt\r\n' +
          'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":',
      );
    }
    opened.push(s);
  }
  return opened;
}

describe('slow clients', () => {
  it('80 slow connections do not hold up a normal request', async () => {
    await openSlowClients(gateway.url, 80);
    // Give the slow bodies time to claim upstream sockets.
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const res = await fetch(`${gateway.url}/rest/v1/products`, {
      headers: { apikey: keys.anonKey },
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('cuts off connections that do not finish their headers or body in time', async () => {
    const slow = await openSlowClients(quickGateway.url, 20, true);
    let open = slow.length;
    const closed = slow.map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.destroyed) resolve();
          else s.once('close', () => resolve(void open--));
        }),
    );
    const started = Date.now();
    await Promise.race([
      Promise.all(closed),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`${open} of ${slow.length} still open`)), 8_000),
      ),
    ]);
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});

describe('body size', () => {
  it('answers 413 for a declared body over the limit, without calling the backend', async () => {
    const before = upstreamRequests;
    for (const path of ['/rest/v1/products', '/functions/v1/contact', '/auth/v1/signup']) {
      const res = await fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
        body: 'x'.repeat(9 * 1024 * 1024),
      });
      expect(res.status, path).toBe(413);
      expect(await res.json()).toEqual({ message: 'Request size limit exceeded' });
    }
    expect(upstreamRequests).toBe(before);
  });

  it('stops a chunked body at the limit with 413', async () => {
    const chunk = new Uint8Array(256 * 1024).fill(120);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 50 * 1024 * 1024) controller.close();
        else {
          sent += chunk.length;
          controller.enqueue(chunk);
        }
      },
    });
    const res = await fetch(`${gateway.url}/rest/v1/products`, {
      method: 'POST',
      headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit).catch((err: Error) => err);
    // Either the 413 arrives, or the gateway closed the connection while the client still sent.
    if (res instanceof Error) expect(res.message).toMatch(/fetch failed|closed|reset/i);
    else expect(res.status).toBe(413);
    expect(sent).toBeLessThan(50 * 1024 * 1024);
  });

  it('passes a body under the limit', async () => {
    const res = await fetch(`${gateway.url}/rest/v1/products`, {
      method: 'POST',
      headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
      body: 'y'.repeat(1024 * 1024),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { bytes: number }).bytes).toBe(1024 * 1024);
  });
});

describe('secret keys from a browser', () => {
  const refused = async (res: Response, what: string) => {
    expect(res.status, what).toBe(401);
    expect(await res.json(), what).toEqual(SECRET_IN_BROWSER);
  };

  it('refuses an sb_secret key sent with a browser User-Agent, Origin or in the URL', async () => {
    for (const path of ['/rest/v1/products', '/auth/v1/admin/users', '/functions/v1/contact']) {
      await refused(
        await fetch(`${gateway.url}${path}`, {
          headers: { apikey: keys.secretKey, 'user-agent': BROWSER_UA },
        }),
        `${path} user-agent`,
      );
      await refused(
        await fetch(`${gateway.url}${path}`, {
          headers: { apikey: keys.secretKey, origin: 'http://localhost:5173' },
        }),
        `${path} origin`,
      );
      await refused(
        await fetch(`${gateway.url}${path}?apikey=${keys.secretKey}`),
        `${path} query parameter`,
      );
      await refused(
        await fetch(`${gateway.url}${path}`, {
          headers: { authorization: `Bearer ${keys.secretKey}`, 'user-agent': BROWSER_UA },
        }),
        `${path} bearer`,
      );
    }
  });

  it('accepts the secret key from a server and the publishable key from a browser', async () => {
    const server = await fetch(`${gateway.url}/rest/v1/products`, {
      headers: { apikey: keys.secretKey },
    });
    expect(server.status).toBe(200);
    await server.body?.cancel();
    const browser = await fetch(`${gateway.url}/rest/v1/products?apikey=${keys.publishableKey}`, {
      headers: { 'user-agent': BROWSER_UA, origin: 'http://localhost:5173' },
    });
    expect(browser.status).toBe(200);
    await browser.body?.cancel();
  });
});

describe('functions keep hosted rules on the stack', () => {
  it('verify_jwt decides: health needs a JWT, contact (verify_jwt = false) is public', async () => {
    const env = stackEnv();
    const none = await fetch(`${env.FUNCTIONS_URL}/health`);
    expect(none.status).toBe(401);
    await none.body?.cancel();
    const anon = await fetch(`${env.FUNCTIONS_URL}/health`, {
      headers: { authorization: `Bearer ${env.ANON_KEY}` },
    });
    expect(anon.status).toBe(200);
    await anon.body?.cancel();
    // Like a webhook on hosted: no key, no Authorization; the function answers itself.
    const open = await fetch(`${env.FUNCTIONS_URL}/contact`, { method: 'OPTIONS' });
    expect(open.status).toBe(200);
    await open.body?.cancel();
  });
});
