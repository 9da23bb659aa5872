// The local `storage` schema is the subset of hosted's that migrations rely on
// (stack/storage/schema.sql): hosted's column names and types, RLS on both tables, the path
// helpers, the guard against direct deletes, and `postgres` (the migrations' role) able to add
// buckets and policies. Checked as `postgres`, the role a migration runs as.
import { describe, expect, it } from 'vitest';
import { sql } from '../../support/stack.ts';
import { BUCKET, objectName, seedObject } from '../storage-support';

async function columns(table: string): Promise<Record<string, string>> {
  const rows = await sql<{ column_name: string; data_type: string }>(
    `select column_name, data_type from information_schema.columns
      where table_schema = 'storage' and table_name = $1`,
    [table],
  );
  return Object.fromEntries(rows.map((r) => [r.column_name, r.data_type]));
}

describe('the storage schema', () => {
  it('has hosted’s columns and types', async () => {
    expect(await columns('buckets')).toEqual({
      id: 'text',
      name: 'text',
      owner: 'uuid',
      owner_id: 'text',
      public: 'boolean',
      avif_autodetection: 'boolean',
      file_size_limit: 'bigint',
      allowed_mime_types: 'ARRAY',
      type: 'USER-DEFINED',
      created_at: 'timestamp with time zone',
      updated_at: 'timestamp with time zone',
    });
    expect(await columns('objects')).toEqual({
      id: 'uuid',
      bucket_id: 'text',
      name: 'text',
      owner: 'uuid',
      owner_id: 'text',
      metadata: 'jsonb',
      user_metadata: 'jsonb',
      path_tokens: 'ARRAY',
      version: 'text',
      created_at: 'timestamp with time zone',
      updated_at: 'timestamp with time zone',
      last_accessed_at: 'timestamp with time zone',
    });
  });

  it('has row-level security on both tables', async () => {
    const rows = await sql<{ relname: string; relrowsecurity: boolean }>(
      `select relname, relrowsecurity from pg_class
        where relnamespace = 'storage'::regnamespace and relname in ('buckets', 'objects')
        order by relname`,
    );
    expect(rows).toEqual([
      { relname: 'buckets', relrowsecurity: true },
      { relname: 'objects', relrowsecurity: true },
    ]);
  });

  it('has the path helpers policies use', async () => {
    const [row] = await sql(
      `select storage.foldername('a/b/c.png') as folders, storage.filename('a/b/c.png') as file,
              storage.extension('a/b/c.png') as ext`,
    );
    expect(row).toEqual({ folders: ['a', 'b'], file: 'c.png', ext: 'png' });
  });

  it('refuses deleting objects outside the Storage API, as hosted', async () => {
    const name = objectName('direct-delete');
    await seedObject(name);
    await expect(sql('delete from storage.objects where name = $1', [name])).rejects.toThrow(
      'Direct deletion from storage tables is not allowed',
    );
    expect(await sql('select 1 from storage.objects where name = $1', [name])).toHaveLength(1);
  });

  it('lets postgres (the migrations’ role) read objects and manage policies', async () => {
    const name = objectName('postgres-reads');
    await seedObject(name);
    expect(await sql('select bucket_id from storage.objects where name = $1', [name])).toEqual([
      { bucket_id: BUCKET },
    ]);
    const policy = `it probe ${Date.now()}`;
    await sql(
      `create policy "${policy}" on storage.objects for select to authenticated using (false)`,
    );
    await sql(`drop policy "${policy}" on storage.objects`);
  });
});
