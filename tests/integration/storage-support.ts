// Shared set-up of the Storage tests: the four callers (anon, a signed-in non-admin, an admin, the
// service role) as supabase-js clients, small valid pictures, and the service role as the
// independent observer of what is stored — rows through the Storage API, files in the throwaway
// stack's data dir.
import type { SupabaseClient } from '@supabase/supabase-js';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { deleteUsers } from './db-test-helpers.ts';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

export const BUCKET = 'product-images';
export type Caller = 'anon' | 'user' | 'admin' | 'service_role';
export const CALLERS: Caller[] = ['anon', 'user', 'admin', 'service_role'];

export interface Callers {
  clients: Record<Caller, SupabaseClient>;
  users: TestUser[];
  cleanup(): Promise<void>;
}

export async function makeCallers(): Promise<Callers> {
  const service = serviceClient();
  const user = await createConfirmedUser();
  const admin = await createAdmin();
  return {
    clients: {
      anon: anonClient(),
      user: await signedInClient(user),
      admin: await signedInClient(admin),
      service_role: service,
    },
    users: [user, admin],
    cleanup: () => deleteUsers(service, [user, admin]),
  };
}

/** A 1×1 PNG: real image bytes, so nothing here depends on the service not looking. */
export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082',
  'hex',
);

export function png(bytes: Buffer = PNG_BYTES): Blob {
  return new Blob([new Uint8Array(bytes)], { type: 'image/png' });
}

/** A fresh object name under a folder of its own, so tests never see each other's files. */
export function objectName(label: string, ext = 'png'): string {
  return `${uniqueId(`it-${label}`)}/${label}.${ext}`;
}

export function publicUrl(name: string): string {
  return serviceClient().storage.from(BUCKET).getPublicUrl(name).data.publicUrl;
}

/** What the public URL serves now: status and bytes (null unless 200). */
export async function fetchPublic(name: string): Promise<{ status: number; body: Buffer | null }> {
  const res = await fetch(publicUrl(name));
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, body: res.status === 200 ? body : null };
}

/** Uploads as the service role (the fixture), failing loudly. */
export async function seedObject(name: string, bytes: Buffer = PNG_BYTES): Promise<void> {
  const { error } = await serviceClient().storage.from(BUCKET).upload(name, png(bytes));
  if (error) throw new Error(`seeding ${name} failed: ${error.message}`);
}

/** The names the service role sees in a folder of the bucket. */
export async function namesIn(folder: string): Promise<string[]> {
  const { data, error } = await serviceClient().storage.from(BUCKET).list(folder);
  if (error) throw new Error(error.message);
  return data.map((f) => f.name);
}

/** Where the stack keeps stored files (stack/storage/keys.ts), from the data dir of the stack. */
export function storageRoot(): string {
  const logs = process.env.STACK_LOGS_DIR;
  if (!logs) throw new Error('STACK_LOGS_DIR is not set (integration global-setup sets it)');
  return path.join(path.dirname(logs), 'storage');
}

/** Every file under the storage root (temporary files included), relative to it. */
export function storedFiles(): string[] {
  const root = storageRoot();
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(path.relative(root, full));
    }
  };
  walk(root);
  return out.sort();
}

export { stackEnv };
