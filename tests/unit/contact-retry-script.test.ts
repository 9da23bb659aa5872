// scripts/contact-retry.ts without a stack: where it sends the request, how it batches, and how
// it reports (the real retry is covered by tests/integration/contact-outage.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveTarget, runRetry, SetupError } from '../../scripts/contact-retry.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('resolveTarget', () => {
  it('uses SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY', () => {
    expect(
      resolveTarget({ SUPABASE_URL: 'https://ref.supabase.co/', SUPABASE_SERVICE_ROLE_KEY: 'k' }),
    ).toEqual({
      url: 'https://ref.supabase.co',
      key: 'k',
    });
  });

  it('refuses half a configuration', () => {
    expect(() => resolveTarget({ SUPABASE_URL: 'https://ref.supabase.co' })).toThrow(SetupError);
  });

  it('falls back to the running local stack', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'contact-retry-'));
    try {
      writeFileSync(
        path.join(dir, 'stack.json'),
        JSON.stringify({ env: { API_URL: 'http://127.0.0.1:54321', SERVICE_ROLE_KEY: 'svc' } }),
      );
      expect(resolveTarget({ STACK_DATA_DIR: dir })).toEqual({
        url: 'http://127.0.0.1:54321',
        key: 'svc',
      });
      expect(() => resolveTarget({ STACK_DATA_DIR: path.join(dir, 'missing') })).toThrow(
        /No local stack/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('runRetry', () => {
  type Batch = {
    claimed: number;
    sent: number;
    failed: number;
    results: { id: string; status: 'sent' | 'failed'; error?: string }[];
  };
  const batch = (results: Batch['results']): Batch => ({
    claimed: results.length,
    sent: results.filter((r) => r.status === 'sent').length,
    failed: results.filter((r) => r.status === 'failed').length,
    results,
  });

  function stubFetch(batches: Batch[]) {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify(batches.shift() ?? batch([])), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  it('calls the retry route with the service key and repeats while full batches make progress', async () => {
    const fetchMock = stubFetch([
      batch([
        { id: '1', status: 'sent' },
        { id: '2', status: 'failed', error: 'boom' },
      ]),
      batch([{ id: '3', status: 'sent' }]),
    ]);
    const summary = await runRetry({ url: 'http://api.test', key: 'service-jwt' }, 2);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://api.test/functions/v1/contact/retry');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({
      apikey: 'service-jwt',
      authorization: 'Bearer service-jwt',
    });
    expect(JSON.parse(init.body as string)).toEqual({ limit: 2 });
    expect(summary).toEqual({
      batches: 2,
      claimed: 3,
      sent: 2,
      failed: [{ id: '2', error: 'boom' }],
      digestSent: 0,
    });
  });

  it('stops when a full batch delivers nothing (provider still down)', async () => {
    const fetchMock = stubFetch([
      batch([
        { id: '1', status: 'failed', error: 'down' },
        { id: '2', status: 'failed', error: 'down' },
      ]),
    ]);
    const summary = await runRetry({ url: 'http://api.test', key: 'k' }, 2);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(summary.failed).toHaveLength(2);
  });

  it('sends an opaque secret key only as apikey', async () => {
    const fetchMock = stubFetch([]);
    await runRetry({ url: 'http://api.test', key: 'sb_secret_abc' });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.headers).toMatchObject({ apikey: 'sb_secret_abc' });
    expect((init.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('turns an HTTP error into a readable set-up error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: 'The retry needs the service role key.' }), {
            status: 401,
          }),
      ),
    );
    await expect(runRetry({ url: 'http://api.test', key: 'anon' })).rejects.toThrow(
      'HTTP 401: The retry needs the service role key.',
    );
  });
});
