// The bench's CDN stand-in (bench/cdn.vcl, REQ-CDN-9) in a real Varnish in front of a small
// origin: what it keeps, for how long, and what it never keeps. Skipped where varnishd is not
// installed (the bench needs it; `npm test` does not).
import { existsSync } from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVarnish } from '../../bench/cdn-parts';
import { freePort } from '../support/harness';

const VARNISHD = '/usr/sbin/varnishd';

describe.skipIf(!existsSync(VARNISHD))('bench/cdn.vcl in Varnish (REQ-CDN-9)', () => {
  const hits = new Map<string, number>();
  let version = 1;
  let origin: http.Server;
  let cdn: { url: string; stop(): Promise<void> };

  beforeAll(async () => {
    origin = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      const control: Record<string, string> = {
        '/api/shared': 'public, max-age=0, s-maxage=60, stale-while-revalidate=30',
        '/api/swr': 'public, max-age=0, s-maxage=1, stale-while-revalidate=30',
        '/api/private': 'private, no-store',
      };
      const cc = control[url.pathname];
      res.writeHead(200, cc ? { 'Cache-Control': cc } : {});
      res.end(`v${version}`);
    });
    const port = await freePort();
    await new Promise<void>((resolve) => origin.listen(port, '127.0.0.1', resolve));
    cdn = await startVarnish(`http://127.0.0.1:${port}`);
  }, 60_000);

  afterAll(async () => {
    await cdn?.stop();
    await new Promise<void>((resolve) => origin.close(() => resolve()));
  });

  const get = async (p: string, init: RequestInit = {}) => {
    const res = await fetch(`${cdn.url}${p}`, init);
    return { body: await res.text(), cache: res.headers.get('x-cache') };
  };

  it('keeps an s-maxage answer per whole URL, query string included', async () => {
    expect((await get('/api/shared?a=1')).cache).toBe('MISS');
    expect(await get('/api/shared?a=1')).toEqual({ body: 'v1', cache: 'HIT' });
    expect(hits.get('/api/shared?a=1')).toBe(1);
    await get('/api/shared?a=2');
    expect(hits.get('/api/shared?a=2')).toBe(1);
  });

  it('never answers from the cache a request with Authorization or a Cookie, nor a POST', async () => {
    await get('/api/shared?b=1');
    await get('/api/shared?b=1', { headers: { Authorization: 'Bearer someone' } });
    await get('/api/shared?b=1', { headers: { Cookie: 'session=1' } });
    await get('/api/shared?b=1', { method: 'POST', body: '{}' });
    expect(hits.get('/api/shared?b=1')).toBe(4);
  });

  it('keeps nothing that is private, no-store or names no shared lifetime', async () => {
    for (const p of ['/api/private', '/api/plain']) {
      await get(p);
      await get(p);
      expect(hits.get(p)).toBe(2);
    }
  });

  it('stale-while-revalidate: a stale answer at once, the fresh one fetched behind it', async () => {
    version = 1;
    expect((await get('/api/swr')).body).toBe('v1');
    version = 2;
    await new Promise((r) => setTimeout(r, 1500));
    // Past s-maxage, inside the grace: the old answer, and one fetch in the background.
    expect(await get('/api/swr')).toEqual({ body: 'v1', cache: 'HIT' });
    await new Promise((r) => setTimeout(r, 300));
    expect((await get('/api/swr')).body).toBe('v2');
    expect(hits.get('/api/swr')).toBe(2);
  });
});
