// What the bucket accepts and how the public URL serves it: SVG and HTML are refused by the
// bucket's allowed MIME types (so no uploaded file can carry script), an HTML body declared as
// image/png is served as image/png with nosniff (never rendered as a page), files over the limit
// get hosted's 413 body, and the public URL answers with the stored type, the upload's
// Cache-Control, ETag/Last-Modified (304 on a repeat) and Content-Length.
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumExecutable } from '../support/browser.ts';
import {
  BUCKET,
  makeCallers,
  objectName,
  png,
  PNG_BYTES,
  publicUrl,
  storedFiles,
  stackEnv,
  type Callers,
} from './storage-support';

let callers: Callers;

beforeAll(async () => {
  callers = await makeCallers();
});
afterAll(async () => {
  await callers?.cleanup();
});

const admin = () => callers.clients.admin.storage.from(BUCKET);
const SCRIPT = '<script>document.title="pwned";alert(1)</script>';

describe('content the store must never serve as a page', () => {
  it.each([
    ['image/svg+xml', 'svg', `<svg xmlns="http://www.w3.org/2000/svg">${SCRIPT}</svg>`],
    ['text/html', 'html', `<!doctype html>${SCRIPT}`],
    [
      'application/xhtml+xml',
      'xhtml',
      `<html xmlns="http://www.w3.org/1999/xhtml">${SCRIPT}</html>`,
    ],
    ['text/html; charset=utf-8', 'png', `<!doctype html>${SCRIPT}`],
  ])('%s is refused by the bucket (415 in the body)', async (type, ext, text) => {
    const before = storedFiles();
    const name = objectName('script', ext);
    const { data, error } = await admin().upload(name, new Blob([text], { type }));
    expect(data).toBeNull();
    expect(error).toMatchObject({
      statusCode: '415',
      message: `mime type ${type.split(';')[0]} is not supported`,
    });
    expect(storedFiles()).toEqual(before);
    expect((await fetch(publicUrl(name))).status).toBe(400);
  });

  it('an HTML body declared as image/png is served as image/png, never sniffed', async () => {
    const name = objectName('spoof');
    const { error } = await admin().upload(
      name,
      new Blob([`<!doctype html>${SCRIPT}`], {
        type: 'image/png',
      }),
    );
    expect(error).toBeNull();
    const res = await fetch(publicUrl(name));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // And in a real browser: opening the URL shows no page and runs no script.
    const browser = await chromium.launch({
      executablePath: chromiumExecutable(),
      args: chromiumArgs,
    });
    try {
      const page = await browser.newPage();
      let dialogs = 0;
      page.on('dialog', (d) => {
        dialogs += 1;
        void d.dismiss();
      });
      const response = await page.goto(publicUrl(name));
      expect(response?.headers()['content-type']).toBe('image/png');
      expect(await page.evaluate(() => document.contentType)).not.toBe('text/html');
      expect(await page.title()).not.toBe('pwned');
      expect(await page.locator('script').count()).toBe(0);
      expect(dialogs).toBe(0);
    } finally {
      await browser.close();
    }
    const download = await fetch(`${publicUrl(name)}?download=picture.png`);
    expect(download.headers.get('content-disposition')).toBe(
      "attachment; filename*=UTF-8''picture.png",
    );
  });
});

describe('limits', () => {
  it('a file over the bucket limit (5 MiB) gets hosted’s 413 answer and is not stored', async () => {
    const before = storedFiles();
    const name = objectName('big', 'webp');
    const big = new Blob([new Uint8Array(5 * 1024 * 1024 + 1)], { type: 'image/webp' });
    const { error } = await admin().upload(name, big);
    expect(error).toMatchObject({
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    });
    // The wire answer, as hosted's Storage sends it: HTTP 400 with the real status in the body.
    const env = stackEnv();
    const { data } = await callers.clients.admin.auth.getSession();
    const res = await fetch(`${env.API_URL}/storage/v1/object/${BUCKET}/${name}`, {
      method: 'POST',
      headers: {
        apikey: env.ANON_KEY,
        authorization: `Bearer ${data.session!.access_token}`,
        'content-type': 'image/webp',
      },
      body: new Uint8Array(5 * 1024 * 1024 + 1),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: '413',
      code: 'EntityTooLarge',
      error: 'Payload too large',
      message: 'The object exceeded the maximum allowed size',
    });
    expect(storedFiles()).toEqual(before);
  });

  it('a file of exactly the limit is accepted', async () => {
    const name = objectName('limit', 'webp');
    const exact = new Blob([new Uint8Array(5 * 1024 * 1024)], { type: 'image/webp' });
    expect((await admin().upload(name, exact)).error).toBeNull();
    expect((await admin().remove([name])).data).toHaveLength(1);
  });
});

describe('the public URL', () => {
  it('serves the stored type, the upload’s Cache-Control, validators and the length', async () => {
    const name = objectName('headers');
    const { error } = await admin().upload(name, png(), { cacheControl: '86400' });
    expect(error).toBeNull();
    const res = await fetch(publicUrl(name));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('max-age=86400');
    expect(res.headers.get('content-length')).toBe(String(PNG_BYTES.length));
    const etag = res.headers.get('etag');
    const lastModified = res.headers.get('last-modified');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Date.parse(lastModified ?? '')).not.toBeNaN();
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG_BYTES);

    const byTag = await fetch(publicUrl(name), { headers: { 'if-none-match': etag! } });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get('etag')).toBe(etag);
    const byDate = await fetch(publicUrl(name), {
      headers: { 'if-modified-since': lastModified! },
    });
    expect(byDate.status).toBe(304);
    const stale = await fetch(publicUrl(name), { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
  });

  it('a raw body keeps its declared type (storage-js contentType)', async () => {
    const name = objectName('raw', 'webp');
    const { error } = await admin().upload(name, new Uint8Array(PNG_BYTES), {
      contentType: 'image/webp',
    });
    expect(error).toBeNull();
    const res = await fetch(publicUrl(name));
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('max-age=3600');
  });

  it('a missing object answers hosted’s not-found body', async () => {
    const res = await fetch(publicUrl(objectName('missing')));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: '404', error: 'not_found' });
  });
});
