// The Storage part on a dedicated throwaway stack: while it is down an upload fails with an
// error (the gateway's 502, never a hang or a thrown exception) and stores nothing; the same
// signed-in client uploads again once it is back; and stopping and starting the whole stack keeps
// every stored picture (rows in Postgres, files in the data dir).
import type { SupabaseClient } from '@supabase/supabase-js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePortBase, startStack, type RunningStack } from '../../stack/stack.ts';
import {
  createConfirmedUser,
  serviceClient,
  signedInClient,
  type StackEnv,
} from '../support/stack.ts';
import { BUCKET, png, PNG_BYTES } from './storage-support';

let root: string;
let portBase: number;
let stack: RunningStack;
let env: StackEnv;
let admin: SupabaseClient;

const start = async () => {
  stack = await startStack({ portBase, dataDir: path.join(root, 'data'), log: () => {} });
  env = stack.env;
};
const publicBytes = async (name: string) => {
  const url = serviceClient(env).storage.from(BUCKET).getPublicUrl(name).data.publicUrl;
  const res = await fetch(url);
  return res.status === 200 ? Buffer.from(await res.arrayBuffer()) : res.status;
};

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'mar-stack-storage-'));
  portBase = await findFreePortBase();
  await start();
  const email = 'storage-admin@example.test';
  await serviceClient(env).from('admin_invites').insert({ email });
  const user = await createConfirmedUser({ email, password: 'storage-admin-pw' }, env);
  admin = await signedInClient(user, env);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('storage outage and restart', () => {
  it('an upload while storage is down fails cleanly; the same client uploads after', async () => {
    await stack.stopPart('storage');
    try {
      const { data, error } = await admin.storage.from(BUCKET).upload('down/a.png', png());
      expect(data).toBeNull();
      expect(error).toMatchObject({ statusCode: '502' });
    } finally {
      await stack.restartPart('storage');
    }
    expect(await publicBytes('down/a.png')).toBe(400);
    const { error } = await admin.storage.from(BUCKET).upload('down/a.png', png());
    expect(error).toBeNull();
    expect(await publicBytes('down/a.png')).toEqual(PNG_BYTES);
  }, 60_000);

  it('stopping and starting the whole stack keeps every picture', async () => {
    const { error } = await admin.storage.from(BUCKET).upload('kept/b.png', png());
    expect(error).toBeNull();
    await stack.stop();
    await start();
    expect(await publicBytes('kept/b.png')).toEqual(PNG_BYTES);
    expect(await publicBytes('down/a.png')).toEqual(PNG_BYTES);
  }, 120_000);
});
