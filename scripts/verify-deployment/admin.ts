// With admin credentials: the admin RPCs the admin area calls, the Insights queries, a CSV import
// that writes nothing, and the picture bucket's limits. Read only, except a staged import that
// is applied as a no-op (which deletes the staged rows again) and uploads that must be refused
// (and are deleted again at once if the server wrongly keeps one).
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomBytes, randomUUID } from 'node:crypto';
import { fail, guarded, ok, type Line } from './report.ts';
import type { SampleProduct } from './storefront.ts';

const PUSH = '`npx supabase db push` (README: Deploying to hosted Supabase, step 2)';
const BUCKET = 'product-images';
const BUCKET_LIMIT = 5 * 1024 * 1024;
const BUCKET_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

async function call(db: SupabaseClient, fn: string, args: Record<string, unknown> = {}) {
  const { data, error } = await db.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message} (${error.code})`);
  return data as unknown;
}

export async function checkAdminRpcs(db: SupabaseClient): Promise<Line[]> {
  return [
    ...(await guarded('admin: RPCs of the admin area', PUSH, async () => {
      if ((await call(db, 'is_admin')) !== true)
        return fail(
          'admin: RPCs of the admin area',
          'VERIFY_ADMIN_EMAIL signs in but is not an admin',
          'invite the account (SignUP tab) or `npm run admin:create` (README step 6)',
        );
      const query = { search: '', cat: null, sort: 'price', ascending: true, health: null };
      const page = await call(db, 'admin_product_page', { p_query: query, p_limit: 5 });
      await call(db, 'admin_product_count', { p_query: query });
      await call(db, 'catagory_product_counts');
      const team = await call(db, 'admin_team');
      await call(db, 'open_admin_invites');
      const log = await db.from('activity_log').select('id').limit(1);
      if (log.error) throw new Error(`activity_log: ${log.error.message}`);
      return ok(
        'admin: RPCs of the admin area',
        `admin_product_page (${(page as unknown[]).length} rows), admin_product_count, ` +
          `catagory_product_counts, admin_team (${(team as unknown[]).length}), ` +
          'open_admin_invites, activity log',
      );
    })),
    ...(await guarded('admin: Insights queries', PUSH, async () => {
      const perDay = (await call(db, 'insights_clicks_per_day', { p_days: 30 })) as {
        clicks: number;
      }[];
      await call(db, 'insights_top_products', { p_days: 30, p_limit: 10, p_offset: 0 });
      await call(db, 'insights_top_categories', { p_days: 30, p_limit: 10 });
      await call(db, 'insights_products_without_clicks', { p_days: 30, p_limit: 10 });
      const total = perDay.reduce((sum, d) => sum + d.clicks, 0);
      return ok('admin: Insights queries', `4 queries answer; ${total} clicks in 30 days`);
    })),
  ];
}

interface ImportReport {
  added: number;
  updated: number;
  unchanged: number;
  refused: { line: number; codes: string[] }[];
}

/**
 * A CSV import that writes nothing (src/features/admin/csv/importCsv.ts, migration …1520):
 * lines 10 (a new product) and 11 (an existing one as it is) are staged and checked with a dry
 * run; then lines 1 and 2 repeat both titles with an invalid link, so lines 10 and 11 become
 * duplicates, every line is refused, and the real apply writes no product or category but
 * deletes the staged rows. Nothing is left behind, not even an activity-log entry.
 */
export async function checkCsvImport(db: SupabaseClient, product: SampleProduct): Promise<Line> {
  const check = 'admin: CSV import (checked, nothing written)';
  const title = `Deployment check ${randomBytes(6).toString('hex')}`;
  const importId = randomUUID();
  const row = (line: number, title: string, p: Partial<SampleProduct> = {}) => ({
    line,
    title,
    cat: product.cat,
    price: product.price,
    com: product.com,
    image: product.image,
    link: product.link,
    ...p,
  });
  const apply = async (dryRun: boolean) =>
    (await call(db, 'catalogue_import_apply', {
      p_import_id: importId,
      p_mode: 'upsert',
      p_create_categories: false,
      p_dry_run: dryRun,
    })) as ImportReport;

  await call(db, 'catalogue_import_stage', {
    p_import_id: importId,
    p_rows: [row(10, title, { price: '£1.00', com: 'Deployment check' }), row(11, product.title)],
  });
  const preview = await apply(true);
  await call(db, 'catalogue_import_stage', {
    p_import_id: importId,
    p_rows: [row(1, title, { link: 'not a link' }), row(2, product.title, { link: 'not a link' })],
  });
  const applied = await apply(false);
  // The admin table's own search (the products table may be closed to direct reads).
  const query = { search: title, cat: null, sort: 'price', ascending: true, health: null };
  const left = (
    (await call(db, 'admin_product_page', { p_query: query, p_limit: 10 })) as { title: string }[]
  ).filter((p) => p.title === title);
  const previewOk =
    preview.added === 1 &&
    preview.updated + preview.unchanged === 1 &&
    preview.refused.length === 0;
  const appliedOk =
    applied.added + applied.updated + applied.unchanged === 0 && applied.refused.length === 4;
  if (!previewOk || !appliedOk || left.length > 0)
    return fail(
      check,
      `preview ${JSON.stringify(preview)}, apply ${JSON.stringify(applied)}`,
      PUSH,
    );
  return ok(check, `preview: 1 new, 1 existing; apply: all 4 lines refused, nothing written`);
}

/** The public picture buckets: product pictures and the banner's (docs/decisions/0212). */
const BUCKETS = [BUCKET, 'storefront-images'] as const;

export async function checkBucket(anon: SupabaseClient, admin: SupabaseClient | null) {
  const lines: Line[] = [];
  for (const bucket of BUCKETS) {
    const check = `storage: bucket ${bucket}`;
    lines.push(
      ...(await guarded(check, PUSH, async () => {
        const { data, error } = await anon.storage.getBucket(bucket);
        if (error) throw new Error(`getBucket: ${error.message}`);
        const types = [...(data.allowed_mime_types ?? [])].sort();
        const problems = [];
        if (!data.public) problems.push('not public');
        if (data.file_size_limit !== BUCKET_LIMIT)
          problems.push(`file_size_limit ${data.file_size_limit}, not ${BUCKET_LIMIT}`);
        if (types.join() !== BUCKET_TYPES.join()) problems.push(`types ${types.join(', ')}`);
        return problems.length
          ? fail(check, problems.join('; '), PUSH)
          : ok(check, 'public, 5 MiB, WebP/JPEG/PNG');
      })),
    );
  }
  if (!admin) return lines;
  // Two uploads the bucket must refuse; one the server wrongly keeps is deleted at once.
  const refused = async (label: string, body: Uint8Array, contentType: string) => {
    const name = `verify-deployment/${randomUUID()}`;
    const { error } = await admin.storage
      .from(BUCKET)
      .upload(name, body, { contentType, upsert: false });
    if (error) return null;
    await admin.storage.from(BUCKET).remove([name]);
    return label;
  };
  lines.push(
    ...(await guarded('storage: refuses other types and sizes', PUSH, async () => {
      const kept = [
        await refused('a text/plain file', new TextEncoder().encode('not a picture'), 'text/plain'),
        await refused('5 MiB + 1 byte', new Uint8Array(BUCKET_LIMIT + 1), 'image/png'),
      ].filter((k) => k !== null);
      return kept.length
        ? fail(
            'storage: refuses other types and sizes',
            `accepted (and deleted again): ${kept.join(', ')}`,
            PUSH +
              '; Dashboard → Storage → product-images: 5 MiB, image/webp, image/jpeg, image/png',
          )
        : ok('storage: refuses other types and sizes', 'text/plain and 5 MiB + 1 byte refused');
    })),
  );
  return lines;
}
