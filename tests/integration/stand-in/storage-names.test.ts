// Hostile object names, sent as an admin (who may write, so a refusal can only come from the name
// checks): path traversal, absolute paths, NUL, backslash tricks, non-ASCII and names over
// hosted's 1024 bytes. Through storage-js as the SPA would send them, and raw over HTTP where
// storage-js or the URL parser would tidy the name up first. Nothing may be stored, in the bucket
// or anywhere else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUCKET,
  makeCallers,
  namesIn,
  png,
  PNG_BYTES,
  storedFiles,
  stackEnv,
  type Callers,
} from '../storage-support';

let callers: Callers;
let adminToken: string;

beforeAll(async () => {
  callers = await makeCallers();
  const { data } = await callers.clients.admin.auth.getSession();
  adminToken = data.session!.access_token;
});
afterAll(async () => {
  await callers?.cleanup();
});

const admin = () => callers.clients.admin.storage.from(BUCKET);

/** An upload with the object path written into the URL exactly as given. */
async function rawUpload(encodedPath: string): Promise<{ status: number; body: unknown }> {
  const env = stackEnv();
  const res = await fetch(`${env.API_URL}/storage/v1/object/${encodedPath}`, {
    method: 'POST',
    headers: {
      apikey: env.ANON_KEY,
      authorization: `Bearer ${adminToken}`,
      'content-type': 'image/png',
    },
    body: new Uint8Array(PNG_BYTES),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('hostile object names', () => {
  it.each([
    ['parent folder', '../escape.png'],
    ['parent folder inside a folder', 'a/../../escape.png'],
    ['encoded parent folder', '..%2F..%2Fescape.png'],
    ['backslash parent folder', 'a\\..\\..\\escape.png'],
    ['NUL byte', 'escape.png\u0000.txt'],
    ['non-ASCII', 'escapé.png'],
    ['over 1024 bytes', `${'x'.repeat(1021)}.png`],
  ])('storage-js: %s is refused and nothing is stored', async (_label, name) => {
    const before = storedFiles();
    const { data, error } = await admin().upload(name, png());
    expect(data).toBeNull();
    expect(error).not.toBeNull();
    expect(storedFiles()).toEqual(before);
    expect((await namesIn('')).filter((n) => n.includes('escape'))).toEqual([]);
  });

  it.each([
    ['encoded parent folder', `${BUCKET}/..%2Fescape.png`],
    ['encoded absolute path', `${BUCKET}/%2Fetc%2Fescape.png`],
    ['empty segment', `${BUCKET}/a%2F%2Fescape.png`],
    ['encoded backslash', `${BUCKET}/a%5C..%5Cescape.png`],
    ['encoded NUL', `${BUCKET}/escape%00.png`],
    ['bad percent-encoding', `${BUCKET}/escape%E0%A4%A.png`],
    ['another bucket by traversal', `${BUCKET}/..%2F..%2Fother-bucket%2Fescape.png`],
  ])('raw HTTP: %s is refused as an invalid key', async (_label, encodedPath) => {
    const before = storedFiles();
    const { status, body } = await rawUpload(encodedPath);
    expect(status).toBe(400);
    expect(body).toMatchObject({ statusCode: '400', error: 'InvalidKey' });
    expect(storedFiles()).toEqual(before);
  });

  it('a leading slash is dropped by storage-js: the file stays inside the bucket', async () => {
    const folder = `abs-${Date.now().toString(36)}`;
    const { data, error } = await admin().upload(`/${folder}/escape.png`, png());
    expect(error).toBeNull();
    expect(data?.fullPath).toBe(`${BUCKET}/${folder}/escape.png`);
    expect(await namesIn(folder)).toEqual(['escape.png']);
    await admin().remove([`${folder}/escape.png`]);
  });

  it('a name of exactly 1024 bytes is accepted (hosted limit), 1025 is not', async () => {
    const ok = `${'n'.repeat(1020)}.png`;
    expect(Buffer.byteLength(ok)).toBe(1024);
    const accepted = await admin().upload(ok, png());
    expect(accepted.error).toBeNull();
    expect((await admin().remove([ok])).data).toHaveLength(1);
    const refused = await admin().upload(`n${ok}`, png());
    expect(refused.error).toMatchObject({ statusCode: '400' });
  });
});
