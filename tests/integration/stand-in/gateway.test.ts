// The API gateway as supabase-js and browsers meet it (stack/PLATFORM.md: Gateway routes to CORS): apikey checks with
// the hosted 401 bodies, the open auth routes, CORS, the Authorization default for the opaque
// keys; and, on a gateway started here against a real echoing upstream and a dead one, prefix
// stripping, X-Forwarded-For, streaming and the 502 answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../../stack/gateway.ts';
import { portFree } from '../../../stack/process.ts';
import { findFreePortBase } from '../../../stack/stack.ts';
import { sql, stackEnv, waitForTable } from '../../support/stack.ts';

const NO_KEY = {
  message: 'No API key found in request',
  hint: 'No `apikey` request header or url param was found.',
};
const BAD_KEY = {
  message: 'Invalid API key',
  hint: 'Double check your Supabase `anon` or `service_role` API key.',
};

describe('apikey checks', () => {
  it('answers 401 without an apikey on /rest/v1 and /auth/v1', async () => {
    const env = stackEnv();
    for (const url of [`${env.REST_URL}/catagories`, `${env.API_URL}/auth/v1/settings`]) {
      const res = await fetch(url);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(NO_KEY);
    }
  });

  it('answers 401 for an unknown apikey, even a validly signed JWT', async () => {
    const env = stackEnv();
    for (const key of ['not-a-key', `${env.ANON_KEY.slice(0, -2)}xx`]) {
      const res = await fetch(`${env.REST_URL}/catagories`, { headers: { apikey: key } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(BAD_KEY);
    }
  });

  it('accepts the key as an `apikey` query parameter', async () => {
    const env = stackEnv();
    const res = await fetch(`${env.REST_URL}/catagories?select=title&apikey=${env.ANON_KEY}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
  });

  it('lets the open auth routes through without a key', async () => {
    const env = stackEnv();
    const res = await fetch(
      `${env.API_URL}/auth/v1/verify?type=signup&token=nope&redirect_to=${encodeURIComponent('http://127.0.0.1:3000')}`,
      {
        redirect: 'manual',
      },
    );
    await res.body?.cancel();
    // Whatever auth answers for a bad token, it is not the gateway's key refusal.
    expect(res.status).not.toBe(401);
    expect(res.status).toBeLessThan(500);
  });

  it('answers 404 for paths outside the routes', async () => {
    const res = await fetch(`${stackEnv().API_URL}/nowhere`);
    expect(res.status).toBe(404);
  });
});

describe('CORS', () => {
  it('answers a preflight itself with 200, echoing the requested headers', async () => {
    const env = stackEnv();
    const res = await fetch(`${env.REST_URL}/catagories`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:3000',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,apikey,content-type,x-client-info',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'authorization,apikey,content-type,x-client-info',
    );
  });

  it('adds Allow-Origin * to proxied responses and to refusals', async () => {
    const env = stackEnv();
    const ok = await fetch(`${env.REST_URL}/catagories?select=title`, {
      headers: { apikey: env.ANON_KEY, Origin: 'http://localhost:3000' },
    });
    await ok.body?.cancel();
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await fetch(`${env.REST_URL}/catagories`, {
      headers: { Origin: 'http://localhost:3000' },
    });
    await refused.body?.cancel();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('Authorization default for the opaque keys', () => {
  // RLS on and no policy: anon sees nothing, the service role everything.
  const table = `it_gateway_keys_${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    await sql(`create table public.${table} (id int primary key)`);
    await sql(`alter table public.${table} enable row level security`);
    await sql(`grant select on public.${table} to anon, service_role`);
    await sql(`insert into public.${table} values (1), (2)`);
    await waitForTable(table);
  });
  afterAll(async () => {
    await sql(`drop table if exists public.${table}`);
  });

  const count = async (headers: Record<string, string>) => {
    const res = await fetch(`${stackEnv().REST_URL}/${table}?select=id`, { headers });
    expect(res.status).toBe(200);
    return ((await res.json()) as unknown[]).length;
  };

  it('maps the publishable key to anon and the secret key to service_role', async () => {
    const env = stackEnv();
    expect(await count({ apikey: env.PUBLISHABLE_KEY })).toBe(0);
    expect(await count({ apikey: env.SECRET_KEY })).toBe(2);
    // An opaque key sent as the bearer is replaced as well.
    expect(await count({ apikey: env.SECRET_KEY, Authorization: `Bearer ${env.SECRET_KEY}` })).toBe(
      2,
    );
  });

  it('keeps a client Authorization and defaults to the legacy key otherwise', async () => {
    const env = stackEnv();
    expect(await count({ apikey: env.SERVICE_ROLE_KEY })).toBe(2);
    expect(
      await count({ apikey: env.SERVICE_ROLE_KEY, Authorization: `Bearer ${env.ANON_KEY}` }),
    ).toBe(0);
  });
});

describe('gateway module against its own upstreams', () => {
  let echo: http.Server;
  let gateway: Gateway;
  let deadGateway: Gateway;
  const keys = {
    anonKey: 'anon-jwt',
    serviceRoleKey: 'service-jwt',
    publishableKey: 'sb_publishable_test',
    secretKey: 'sb_secret_test',
  };

  beforeAll(async () => {
    // A real HTTP upstream that reports what it received, streaming its answer in chunks.
    echo = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"received":');
        setTimeout(
          () =>
            res.end(
              `${JSON.stringify({ url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() })}}`,
            ),
          50,
        );
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const upstream = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const base = await findFreePortBase();
    gateway = await startGateway({
      port: base,
      upstreams: { rest: upstream, auth: upstream, functions: upstream },
      keys,
    });
    // Upstreams on ports nothing listens on.
    const dead = `http://127.0.0.1:${base + 5}`;
    expect(await portFree(base + 5)).toBe(true);
    deadGateway = await startGateway({
      port: base + 1,
      upstreams: { rest: dead, auth: dead, functions: dead },
      keys,
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await deadGateway?.close();
    await new Promise((r) => echo?.close(r));
  });

  type Echo = { received: { url: string; headers: Record<string, string>; body: string } };

  it('strips the prefix, keeps the query, sets X-Forwarded-For and streams the body', async () => {
    const res = await fetch(`${gateway.url}/rest/v1/products?select=id&order=title`, {
      method: 'POST',
      headers: {
        apikey: keys.publishableKey,
        'x-forwarded-for': '203.0.113.7',
        'content-type': 'text/plain',
      },
      body: 'hello',
    });
    expect(res.status).toBe(200);
    const { received } = (await res.json()) as Echo;
    expect(received.url).toBe('/products?select=id&order=title');
    expect(received.body).toBe('hello');
    // A client-supplied address is replaced by the socket's: no upstream sees a made-up one.
    expect(received.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(received.headers.authorization).toBe('Bearer anon-jwt');
  });

  it('replaces every client-supplied address header with the socket peer address', async () => {
    const spoofed = {
      'x-forwarded-for': '192.0.2.1, 192.0.2.2',
      'x-real-ip': '192.0.2.3',
      forwarded: 'for=192.0.2.4;proto=https',
      'x-client-ip': '192.0.2.5',
      'cf-connecting-ip': '192.0.2.6',
      'cf-connecting-ipv6': '2001:db8::6',
      'true-client-ip': '192.0.2.7',
      'x-cluster-client-ip': '192.0.2.8',
      'fastly-client-ip': '192.0.2.9',
      'x-original-forwarded-for': '192.0.2.10',
    };
    for (const path of [
      '/rest/v1/products',
      '/auth/v1/token',
      '/auth/v1/verify',
      '/functions/v1/contact',
    ]) {
      const res = await fetch(`${gateway.url}${path}`, {
        headers: { apikey: keys.publishableKey, ...spoofed },
      });
      const { received } = (await res.json()) as Echo;
      expect(received.headers['x-forwarded-for'], path).toBe('127.0.0.1');
      expect(received.headers['x-real-ip'], path).toBe('127.0.0.1');
      // The header hosted's edge sets (decision 0200), from the socket as there.
      expect(received.headers['cf-connecting-ip'], path).toBe('127.0.0.1');
      const set = ['x-forwarded-for', 'x-real-ip', 'cf-connecting-ip'];
      for (const name of Object.keys(spoofed).filter((n) => !set.includes(n))) {
        expect(received.headers[name], `${path} ${name}`).toBeUndefined();
      }
      expect(JSON.stringify(received.headers), path).not.toContain('192.0.2.');
    }
  });

  it('routes the open auth routes without key or Authorization rewrite', async () => {
    const res = await fetch(`${gateway.url}/auth/v1/verify?token=t`);
    const { received } = (await res.json()) as Echo;
    expect(received.url).toBe('/verify?token=t');
    expect(received.headers.authorization).toBeUndefined();
  });

  it('passes functions through without a key check', async () => {
    const res = await fetch(`${gateway.url}/functions/v1/contact/sub?x=1`, {
      headers: { Authorization: 'Bearer user-token' },
    });
    const { received } = (await res.json()) as Echo;
    expect(received.url).toBe('/contact/sub?x=1');
    expect(received.headers.authorization).toBe('Bearer user-token');
  });

  it('answers 502 JSON at once when the upstream is down', async () => {
    const started = Date.now();
    for (const p of ['/rest/v1/products', '/auth/v1/user', '/functions/v1/health']) {
      const res = await fetch(`${deadGateway.url}${p}`, { headers: { apikey: keys.anonKey } });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({
        message: 'An invalid response was received from the upstream server',
      });
    }
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
