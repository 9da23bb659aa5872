// The storage half of the RLS matrix: the bucket `product-images` × {anon, signed-in non-admin,
// admin, service_role} through the real storage-js client (supabase-js `.storage`) over the
// gateway. Each operation is either allowed and visible to the service role afterwards, or refused
// (as hosted refuses it: RLS in the body, or silently empty for reads and deletes) and changes
// nothing — no row, no file, the public URL still serving the old bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../stack/auth/jwt.ts';
import { clientWithToken, signedInClient } from '../support/stack.ts';
import {
  BUCKET,
  CALLERS,
  fetchPublic,
  makeCallers,
  namesIn,
  objectName,
  png,
  PNG_BYTES,
  seedObject,
  stackEnv,
  storedFiles,
  type Caller,
  type Callers,
} from './storage-support';

let callers: Callers;
const writers = (c: Caller) => c === 'admin' || c === 'service_role';
const RLS_REFUSAL = {
  statusCode: '403',
  message: 'new row violates row-level security policy',
};

beforeAll(async () => {
  callers = await makeCallers();
});
afterAll(async () => {
  await callers?.cleanup();
});

const storage = (c: Caller) => callers.clients[c].storage.from(BUCKET);

describe.each(CALLERS)('product-images as %s', (caller) => {
  it('reads the bucket and its limits', async () => {
    const { data, error } = await callers.clients[caller].storage.getBucket(BUCKET);
    expect(error).toBeNull();
    expect(data).toMatchObject({
      id: BUCKET,
      public: true,
      file_size_limit: 5 * 1024 * 1024,
      allowed_mime_types: ['image/webp', 'image/jpeg', 'image/png'],
    });
  });

  it(writers(caller) ? 'uploads a new picture' : 'cannot upload', async () => {
    const name = objectName('upload');
    const filesBefore = storedFiles();
    const { data, error } = await storage(caller).upload(name, png());
    if (writers(caller)) {
      expect(error).toBeNull();
      expect(data?.fullPath).toBe(`${BUCKET}/${name}`);
      expect(await fetchPublic(name)).toEqual({ status: 200, body: PNG_BYTES });
    } else {
      expect(data).toBeNull();
      expect(error).toMatchObject(RLS_REFUSAL);
      expect(await namesIn(name.split('/')[0]!)).toEqual([]);
      expect((await fetchPublic(name)).status).toBe(400);
      // Neither a half file nor a temporary one is left behind.
      expect(storedFiles()).toEqual(filesBefore);
    }
  });

  it.each([
    ['upsert', (c: Caller, n: string, b: Blob) => storage(c).upload(n, b, { upsert: true })],
    ['update', (c: Caller, n: string, b: Blob) => storage(c).update(n, b)],
  ] as const)(
    `${writers(caller) ? 'replaces' : 'cannot replace'} a picture (%s)`,
    async (_how, replace) => {
      const name = objectName('replace');
      await seedObject(name);
      const newBytes = Buffer.concat([PNG_BYTES, Buffer.from('second version')]);
      const { error } = await replace(caller, name, png(newBytes));
      if (writers(caller)) {
        expect(error).toBeNull();
        expect(await fetchPublic(name)).toEqual({ status: 200, body: newBytes });
      } else {
        expect(error).toMatchObject(RLS_REFUSAL);
        expect(await fetchPublic(name)).toEqual({ status: 200, body: PNG_BYTES });
      }
    },
  );

  it(writers(caller) ? 'lists the folder' : 'cannot list the folder', async () => {
    const name = objectName('list');
    await seedObject(name);
    const [folder, file] = name.split('/') as [string, string];
    const { data, error } = await storage(caller).list(folder);
    expect(error).toBeNull();
    expect(data?.map((f) => f.name)).toEqual(writers(caller) ? [file] : []);
    // Nor the bucket's top level, which would name every folder.
    const top = await storage(caller).list('', { limit: 1000, search: folder });
    expect(top.data?.map((f) => f.name)).toEqual(writers(caller) ? [folder] : []);
  });

  it(
    writers(caller) ? 'downloads through the API' : 'cannot download through the API',
    async () => {
      const name = objectName('download');
      await seedObject(name);
      const { data, error } = await storage(caller).download(name);
      if (writers(caller)) {
        expect(error).toBeNull();
        expect(Buffer.from(await data!.arrayBuffer())).toEqual(PNG_BYTES);
      } else {
        expect(data).toBeNull();
        expect(error).toMatchObject({ statusCode: '404', message: 'Object not found' });
      }
    },
  );

  it(writers(caller) ? 'deletes a picture' : 'cannot delete', async () => {
    const name = objectName('remove');
    await seedObject(name);
    const filesBefore = storedFiles();
    const { data, error } = await storage(caller).remove([name]);
    expect(error).toBeNull();
    if (writers(caller)) {
      expect(data?.map((o) => o.name)).toEqual([name]);
      expect((await fetchPublic(name)).status).toBe(400);
      expect(await namesIn(name.split('/')[0]!)).toEqual([]);
      expect(storedFiles()).toHaveLength(filesBefore.length - 1);
    } else {
      expect(data).toEqual([]);
      expect(await fetchPublic(name)).toEqual({ status: 200, body: PNG_BYTES });
      expect(storedFiles()).toEqual(filesBefore);
    }
  });

  it('serves a public picture by its URL without any key', async () => {
    const name = objectName('public');
    await seedObject(name);
    expect(await fetchPublic(name)).toEqual({ status: 200, body: PNG_BYTES });
  });
});

describe('replacing keeps one file per picture', () => {
  it('removes the replaced version from disk', async () => {
    const name = objectName('versions');
    await seedObject(name);
    const before = storedFiles().length;
    for (let i = 0; i < 3; i++) {
      const { error } = await storage('admin').upload(
        name,
        png(Buffer.concat([PNG_BYTES, Buffer.from(`v${i}`)])),
        { upsert: true },
      );
      expect(error).toBeNull();
    }
    expect(storedFiles()).toHaveLength(before);
    expect(storedFiles().some((f) => f.startsWith('.tmp'))).toBe(false);
  });
});

describe('tokens', () => {
  it('an admin’s access token stops counting once the admin signs out', async () => {
    const admin = await signedInClient(callers.users[1]!);
    const { data } = await admin.auth.getSession();
    const token = data.session!.access_token;
    const name = objectName('after-logout');
    expect(
      (await clientWithToken(token).storage.from(BUCKET).upload(name, png())).error,
    ).toBeNull();
    // Only this session: the shared admin client stays signed in for the other tests.
    await admin.auth.signOut({ scope: 'local' });
    const { error } = await clientWithToken(token)
      .storage.from(BUCKET)
      .upload(name, png(Buffer.from('replaced')), { upsert: true });
    expect(error).toMatchObject(RLS_REFUSAL);
    expect(await fetchPublic(name)).toEqual({ status: 200, body: PNG_BYTES });
  });

  it.each([
    ['signed with another secret', () => signJwt({ role: 'service_role' }, 'x'.repeat(40))],
    [
      'expired',
      () =>
        signJwt(
          { role: 'service_role', exp: Math.floor(Date.now() / 1000) - 60 },
          stackEnv().JWT_SECRET,
        ),
    ],
    ['of a role the API does not know', () => signJwt({ role: 'postgres' }, stackEnv().JWT_SECRET)],
  ])('a service-role token %s is refused', async (_label, token) => {
    const name = objectName('forged');
    const { error } = await clientWithToken(token()).storage.from(BUCKET).upload(name, png());
    expect(error).toMatchObject({ statusCode: '403' });
    expect(await namesIn(name.split('/')[0]!)).toEqual([]);
  });
});

describe('racing uploads of one name', () => {
  it('leave one complete picture and one file on disk', async () => {
    const name = objectName('race');
    await seedObject(name);
    const before = storedFiles().length;
    const payloads = Array.from({ length: 6 }, (_, i) =>
      Buffer.concat([PNG_BYTES, Buffer.from(`racer ${i}`)]),
    );
    const results = await Promise.all(
      payloads.map((p) => storage('admin').upload(name, png(p), { upsert: true })),
    );
    expect(results.map((r) => r.error?.message ?? null)).toEqual(payloads.map(() => null));
    const served = await fetchPublic(name);
    expect(served.status).toBe(200);
    expect(payloads.some((p) => p.equals(served.body!))).toBe(true);
    expect(storedFiles()).toHaveLength(before);
  });
});
