// The object operations storage-js uses: upload and upsert, remove, list and the bucket's info.
// Each runs as the caller (db.ts), so storage.objects' policies decide who may do what. Files are
// written to a temporary file first and only moved into place inside the database transaction
// that records them: a failed request leaves neither a half file nor a row without its file.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import type { PoolClient } from 'pg';
import path from 'node:path';
import type { Caller, StorageDb } from './db.ts';
import { ERRORS, fromDbError } from './errors.ts';
import { mustBeValidBucketName, mustBeValidObjectName, versionFile } from './keys.ts';
import { readUpload } from './upload-body.ts';

export interface ObjectStore {
  db: StorageDb;
  /** Where files live: <root>/<bucket>/<hash prefix>/<hash of the name>/<version> (keys.ts). */
  root: string;
  /** [storage] file_size_limit: no bucket accepts more. */
  globalFileSizeLimit: number;
}

/** Postgres errors of the caller's own work become hosted's answers (RLS → 403 in the body). */
async function asCaller<T>(
  store: ObjectStore,
  caller: Caller,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  try {
    return await store.db.asCaller(caller, work);
  } catch (err) {
    throw fromDbError(err) ?? err;
  }
}

interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
  type: string;
  created_at: Date;
  updated_at: Date;
}

const BUCKET_COLUMNS =
  'id, name, owner, owner_id, public, type, file_size_limit, allowed_mime_types, created_at, updated_at';

function bucketJson(row: BucketRow) {
  return {
    ...row,
    file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
  };
}

export async function getBucket(store: ObjectStore, caller: Caller, id: string) {
  const rows = await asCaller(store, caller, async (c) => {
    const r = await c.query<BucketRow>(
      `select ${BUCKET_COLUMNS} from storage.buckets where id = $1`,
      [id],
    );
    return r.rows;
  });
  if (!rows[0]) throw ERRORS.noSuchBucket();
  return bucketJson(rows[0]);
}

export async function listBuckets(store: ObjectStore, caller: Caller) {
  const rows = await asCaller(store, caller, async (c) => {
    const r = await c.query<BucketRow>(
      `select ${BUCKET_COLUMNS} from storage.buckets order by name`,
    );
    return r.rows;
  });
  return rows.map(bucketJson);
}

/** The bucket's limits, read with the service's rights as hosted does before an upload. */
async function bucketLimits(store: ObjectStore, bucket: string) {
  mustBeValidBucketName(bucket);
  const { rows } = await store.db.asService<BucketRow>(
    `select ${BUCKET_COLUMNS} from storage.buckets where id = $1`,
    [bucket],
  );
  if (!rows[0]) throw ERRORS.noSuchBucket();
  const own = rows[0].file_size_limit === null ? Infinity : Number(rows[0].file_size_limit);
  return {
    fileSizeLimit: Math.min(own, store.globalFileSizeLimit),
    allowedMimeTypes: rows[0].allowed_mime_types,
  };
}

/** Thrown to roll the permission probe back. */
const PROBED = Symbol('probed');

/** The row an upload writes; the sub-select names the version it replaces (upsert). */
function insertSql(upsert: boolean): string {
  return `insert into storage.objects as o
           (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6, $7)
         ${
           upsert
             ? `on conflict (bucket_id, name) do update set
                  owner = excluded.owner, owner_id = excluded.owner_id,
                  metadata = excluded.metadata, user_metadata = excluded.user_metadata,
                  version = excluded.version, last_accessed_at = now()`
             : ''
         }
         returning o.id,
           (select prev.version from storage.objects prev where prev.id = o.id) as old_version`;
}

/** POST (upsert only with `x-upsert: true`) and PUT (always upsert), as hosted. */
export async function uploadObject(
  store: ObjectStore,
  caller: Caller,
  req: http.IncomingMessage,
  bucket: string,
  name: string,
  upsert: boolean,
) {
  mustBeValidObjectName(name);
  const limits = await bucketLimits(store, bucket);
  const owner = caller.sub && /^[0-9a-f-]{36}$/i.test(caller.sub) ? caller.sub : null;
  // Who may write here is asked before a byte of the body is read, as hosted's canUpload does:
  // a refused caller costs one rolled-back insert, not a buffered upload.
  await asCaller(store, caller, async (c) => {
    await c.query(insertSql(upsert), [bucket, name, owner, caller.sub, {}, null, 'probe']);
    throw PROBED;
  }).catch((err: unknown) => {
    if (err !== PROBED) throw err;
  });
  const file = await readUpload(req, limits.fileSizeLimit, limits.allowedMimeTypes);

  const version = randomUUID();
  const finalPath = versionFile(store.root, bucket, name, version);
  const tmpDir = path.join(store.root, '.tmp');
  const tmpPath = path.join(tmpDir, version);
  await mkdir(tmpDir, { recursive: true });
  await writeFile(tmpPath, file.data, { flush: true });
  const metadata = {
    eTag: `"${createHash('md5').update(file.data).digest('hex')}"`,
    size: file.data.length,
    mimetype: file.contentType,
    cacheControl: file.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: file.data.length,
    httpStatusCode: 200,
  };
  let moved = false;
  try {
    const row = await asCaller(store, caller, async (c) => {
      // Uploads of one name take turns, so the sub-select below (which sees the row as it was
      // before this statement) names the version this upload replaces, and its file is deleted.
      await c.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`${bucket}/${name}`]);
      const r = await c.query<{ id: string; old_version: string | null }>(insertSql(upsert), [
        bucket,
        name,
        owner,
        caller.sub,
        metadata,
        file.userMetadata,
        version,
      ]);
      await mkdir(path.dirname(finalPath), { recursive: true });
      await rename(tmpPath, finalPath);
      moved = true;
      return r.rows[0]!;
    });
    if (row.old_version && row.old_version !== version) {
      await rm(versionFile(store.root, bucket, name, row.old_version), { force: true });
    }
    return { Id: row.id, Key: `${bucket}/${name}` };
  } catch (err) {
    await rm(moved ? finalPath : tmpPath, { force: true });
    throw err;
  }
}

interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  version: string | null;
}

/** Removes the files of deleted rows and the folders they leave empty. */
async function removeFiles(store: ObjectStore, rows: ObjectRow[]): Promise<void> {
  for (const row of rows) {
    if (!row.version) continue;
    try {
      const file = versionFile(store.root, row.bucket_id, row.name, row.version);
      await rm(file, { force: true });
      await rmdir(path.dirname(file)); // throws (and stops) when a newer version is there
      await rmdir(path.dirname(path.dirname(file)));
    } catch {
      // a folder still in use or a name the service never wrote: nothing more to clean
    }
  }
}

/** DELETE /object/<bucket> {prefixes}: deletes what the caller's policies let it see. */
export async function removeObjects(
  store: ObjectStore,
  caller: Caller,
  bucket: string,
  names: unknown,
) {
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string') || names.length > 1000) {
    throw ERRORS.invalidRequest('prefixes must be an array of at most 1000 object names');
  }
  const rows = await asCaller(store, caller, async (c) => {
    const r = await c.query<ObjectRow>(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
       returning id, bucket_id, name, owner, owner_id, version, metadata, user_metadata,
                 created_at, updated_at, last_accessed_at`,
      [bucket, names],
    );
    return r.rows;
  });
  await removeFiles(store, rows);
  return rows;
}

export async function removeObject(
  store: ObjectStore,
  caller: Caller,
  bucket: string,
  name: string,
) {
  const rows = await removeObjects(store, caller, bucket, [name]);
  if (rows.length === 0) throw ERRORS.noSuchKey();
  return { message: 'Successfully deleted' };
}

const SORT_COLUMNS = new Set(['name', 'created_at', 'updated_at', 'last_accessed_at']);

/** POST /object/list/<bucket>: one folder level, as hosted's storage.search() answers. */
export async function listObjects(
  store: ObjectStore,
  caller: Caller,
  bucket: string,
  body: Record<string, unknown>,
) {
  let prefix = typeof body.prefix === 'string' ? body.prefix : '';
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  const limit = Math.min(Math.max(Number(body.limit ?? 100) || 100, 1), 1000);
  const offset = Math.max(Number(body.offset ?? 0) || 0, 0);
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const column = SORT_COLUMNS.has(String(sortBy.column)) ? String(sortBy.column) : 'name';
  const order = String(sortBy.order).toLowerCase() === 'desc' ? 'desc' : 'asc';
  const search = typeof body.search === 'string' ? body.search : '';
  const like = `${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return asCaller(store, caller, async (c) => {
    const r = await c.query(
      `with level as (
         select split_part(substr(o.name, char_length($2) + 1), '/', 1) as entry,
                strpos(substr(o.name, char_length($2) + 1), '/') > 0 as folder, o.*
           from storage.objects o
          where o.bucket_id = $1 and left(o.name, char_length($2)) = $2
       ), entries as (
         select distinct on (entry, folder) entry as name, folder,
                case when folder then null else id end as id,
                case when folder then null else updated_at end as updated_at,
                case when folder then null else created_at end as created_at,
                case when folder then null else last_accessed_at end as last_accessed_at,
                case when folder then null else metadata end as metadata
           from level where entry <> ''
          order by entry, folder
       )
       select name, id, updated_at, created_at, last_accessed_at, metadata from entries
        where name ilike $3 escape '\\'
        order by ${column} ${order} nulls first, name
        limit $4 offset $5`,
      [bucket, prefix, like, limit, offset],
    );
    return r.rows;
  });
}
