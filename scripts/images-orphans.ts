/**
 * Lists uploaded product pictures that no product uses any more (REQ-IMG-3), and with --delete
 * removes them:
 *
 *   npm run images:orphans                      # the local stack started with `npm start`
 *   npm run images:orphans -- --delete
 *   SUPABASE_URL=https://<ref>.supabase.co SUPABASE_SERVICE_ROLE_KEY=… npm run images:orphans
 *
 * The product form removes a replaced or deleted picture itself; this finds what was left
 * behind anyway (an upload never saved, a tab closed mid-way, a failed clean-up). Everything goes
 * through the Storage API with the service key: hosted Supabase forbids deleting rows from
 * storage.objects directly, and the API removes the files too. An upload younger than --min-age
 * minutes (default 60) is left alone: it may belong to a form that is about to be saved.
 * Exit code: 0 no orphans (or all deleted), 1 orphans listed, 2 set-up error.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import { nodeClient } from '../stack/client.ts';
import { PRODUCT_IMAGE_BUCKET, uploadedImage } from '../src/lib/domain/productImages.ts';
import { resolveTarget, SetupError } from './contact-retry.ts';

const PAGE = 1000;

export interface StoredObject {
  name: string;
  /** ISO time of the upload, when Storage says. */
  createdAt: string | null;
}

/** Every object in the bucket (one folder level per upload: `<uuid>/<width>.<ext>`). */
export async function listBucket(client: SupabaseClient, prefix = ''): Promise<StoredObject[]> {
  const all: StoredObject[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { data, error } = await client.storage
      .from(PRODUCT_IMAGE_BUCKET)
      .list(prefix, { limit: PAGE, offset, sortBy: { column: 'name', order: 'asc' } });
    if (error) throw new Error(`Listing ${prefix || 'the bucket'} failed: ${error.message}`);
    for (const entry of data) {
      const name = prefix ? `${prefix}/${entry.name}` : entry.name;
      // A folder has no id; its files are listed under it.
      if (entry.id === null) all.push(...(await listBucket(client, name)));
      else all.push({ name, createdAt: entry.created_at ?? null });
    }
    if (data.length < PAGE) return all;
  }
}

/** Object names that some product's image points at (both widths of each upload). */
export async function referencedObjects(
  client: SupabaseClient,
  supabaseUrl: string,
): Promise<Set<string>> {
  const names = new Set<string>();
  for (let offset = 0; ; offset += PAGE) {
    const { data, error } = await client
      .from('products')
      .select('image')
      .order('id')
      .range(offset, offset + PAGE - 1);
    if (error) throw new Error(`Reading products failed: ${error.message}`);
    for (const row of data as { image: string }[]) {
      const upload = uploadedImage(row.image, supabaseUrl);
      if (upload) names.add(upload.paths.large).add(upload.paths.small);
    }
    if (data.length < PAGE) return names;
  }
}

/** Objects in the bucket that no product references, older than `minAgeMs`. */
export async function findOrphans(
  client: SupabaseClient,
  supabaseUrl: string,
  { minAgeMs = 0, now = Date.now() } = {},
): Promise<string[]> {
  // Products first: an upload saved between the two reads is then listed but young, not lost.
  const used = await referencedObjects(client, supabaseUrl);
  const stored = await listBucket(client);
  return stored
    .filter((o) => !used.has(o.name))
    .filter((o) => !o.createdAt || now - Date.parse(o.createdAt) >= minAgeMs)
    .map((o) => o.name);
}

export async function removeObjects(client: SupabaseClient, names: string[]): Promise<void> {
  for (let i = 0; i < names.length; i += PAGE) {
    const { error } = await client.storage
      .from(PRODUCT_IMAGE_BUCKET)
      .remove(names.slice(i, i + PAGE));
    if (error) throw new Error(`Removing orphans failed: ${error.message}`);
  }
}

function parseArgs(argv: string[]): { remove: boolean; minAgeMinutes: number } {
  const i = argv.indexOf('--min-age');
  const minAgeMinutes = i >= 0 ? Number(argv[i + 1]) : 60;
  if (!Number.isFinite(minAgeMinutes) || minAgeMinutes < 0) {
    throw new SetupError('--min-age must be a number of minutes (0 or more).');
  }
  const unknown = argv.filter(
    (a, j) => a.startsWith('--') && !['--delete', '--min-age'].includes(a) && j !== i + 1,
  );
  if (unknown.length) throw new SetupError(`Unknown option(s): ${unknown.join(', ')}`);
  return { remove: argv.includes('--delete'), minAgeMinutes };
}

async function main(): Promise<void> {
  try {
    const { remove, minAgeMinutes } = parseArgs(process.argv.slice(2));
    const target = resolveTarget();
    const client = nodeClient(target.url, target.key);
    const orphans = await findOrphans(client, target.url, { minAgeMs: minAgeMinutes * 60_000 });
    if (orphans.length === 0) {
      console.log('images:orphans: every stored picture is used by a product.');
      return;
    }
    for (const name of orphans) console.log(name);
    if (remove) {
      await removeObjects(client, orphans);
      console.log(`images:orphans: removed ${orphans.length} file(s).`);
    } else {
      console.log(`images:orphans: ${orphans.length} file(s) unused; --delete removes them.`);
      process.exitCode = 1;
    }
  } catch (err) {
    console.error(`images:orphans: ${(err as Error).message}`);
    process.exitCode = err instanceof SetupError ? 2 : 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
