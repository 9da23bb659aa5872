// The upload's type and its caller, checked before anything is kept: a Content-Type that hides a
// second type (`image/png;x=,text/html`, lists, parameters, wildcards, odd case) is refused with
// hosted's 415 answer and nothing is stored or served; an accepted upload is stored and served
// as its one bare type with nosniff; and a caller the policies refuse is answered before the
// body is read (the answer arrives while the client is still sending), as hosted's Storage
// checks the insert permission first.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUCKET,
  makeCallers,
  namesIn,
  objectName,
  PNG_BYTES,
  publicUrl,
  stackEnv,
  storedFiles,
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

/** Types a browser could be talked into reading as something other than a picture. */
const HOSTILE_TYPES = [
  'image/png;x=,text/html',
  'image/png,text/html',
  'image/png, text/html',
  'text/html,image/png',
  'image/png;text/html',
  'image/png; charset=utf-8',
  'image/png;x="a,text/html"',
  'image/png;;x=1',
  'image/png;x=1;text/html',
  'image/png text/html',
  'image/png/html',
  'IMAGE/PNG',
  'image/*',
  'image/webp;x=,text/html;y=',
];

describe('the upload’s type is one allowed type, nothing else', () => {
  it.each(HOSTILE_TYPES)(
    'raw body typed %j is refused (415) and nothing is stored',
    async (type) => {
      const before = storedFiles();
      const name = objectName('hostile-type');
      const { data, error } = await admin().upload(name, new Uint8Array(PNG_BYTES), {
        contentType: type,
      });
      expect(data).toBeNull();
      expect(error).toMatchObject({
        statusCode: '415',
        message: `mime type ${type} is not supported`,
      });
      expect(storedFiles()).toEqual(before);
      expect(await namesIn(name.split('/')[0]!)).toEqual([]);
      expect((await fetch(publicUrl(name))).status).toBe(400);
    },
  );

  // A Blob lowercases its type; storage-js sends it as the file part's Content-Type.
  it.each(HOSTILE_TYPES.filter((t) => t === t.toLowerCase()))(
    'a file part typed %j is refused (415) and nothing is stored',
    async (type) => {
      const before = storedFiles();
      const name = objectName('hostile-part');
      const { data, error } = await admin().upload(
        name,
        new Blob([new Uint8Array(PNG_BYTES)], { type }),
      );
      expect(data).toBeNull();
      expect(error).toMatchObject({ statusCode: '415' });
      expect(error?.message).toMatch(/^mime type .+ is not supported$/);
      expect(storedFiles()).toEqual(before);
      expect((await fetch(publicUrl(name))).status).toBe(400);
    },
  );

  it('the whole hosted refusal body on the wire: HTTP 400, 415 in the body', async () => {
    const env = stackEnv();
    const { data } = await callers.clients.admin.auth.getSession();
    const res = await fetch(
      `${env.API_URL}/storage/v1/object/${BUCKET}/${objectName('wire-type')}`,
      {
        method: 'POST',
        headers: {
          apikey: env.ANON_KEY,
          authorization: `Bearer ${data.session!.access_token}`,
          'content-type': 'image/png;x=,text/html',
        },
        body: new Uint8Array(PNG_BYTES),
      },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: '415',
      code: 'InvalidMimeType',
      error: 'invalid_mime_type',
      message: 'mime type image/png;x=,text/html is not supported',
    });
  });

  it.each(['image/png', 'image/jpeg', 'image/webp'])(
    '%s is stored and served as exactly that type, with nosniff',
    async (type) => {
      const name = objectName('allowed-type');
      const { error } = await admin().upload(name, new Uint8Array(PNG_BYTES), {
        contentType: type,
      });
      expect(error).toBeNull();
      const res = await fetch(publicUrl(name));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await admin().remove([name])).data).toHaveLength(1);
    },
  );
});

/**
 * Starts a 5 MiB upload with the anon key through the gateway, sends only its first 256 KiB and
 * waits (up to `waitMs`) for an answer while the rest is held back.
 */
function anonUploadHoldingBody(waitMs: number) {
  const env = stackEnv();
  const url = new URL(`${env.API_URL}/storage/v1/object/${BUCKET}/${objectName('anon-big')}`);
  const total = 5 * 1024 * 1024;
  const first = 256 * 1024;
  return new Promise<{ status: number | null; body: string; sentBytes: number }>((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        apikey: env.ANON_KEY,
        authorization: `Bearer ${env.ANON_KEY}`,
        'content-type': 'image/png',
        'content-length': String(total),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ status: null, body: '', sentBytes: first });
    }, waitMs);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? null, body, sentBytes: first });
      });
    });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(first));
  });
}

describe('the caller is checked before the body is read', () => {
  it('an anonymous 5 MiB upload is refused while the client still holds back 4.75 MiB', async () => {
    const before = storedFiles();
    const answer = await anonUploadHoldingBody(10_000);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    expect(storedFiles()).toEqual(before);
  });

  it('storage-js sees hosted’s refusal for an anonymous 5 MiB upload, nothing stored', async () => {
    const before = storedFiles();
    const big = new Blob([new Uint8Array(5 * 1024 * 1024)], { type: 'image/png' });
    const { data, error } = await callers.clients.anon.storage
      .from(BUCKET)
      .upload(objectName('anon-big'), big);
    expect(data).toBeNull();
    expect(error).toMatchObject({
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    expect(storedFiles()).toEqual(before);
  });
});
