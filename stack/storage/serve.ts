// Serving a stored object: the public URL (/object/public/<bucket>/<name>, no policy involved
// when the bucket is public, as hosted) and the authenticated download (the caller's SELECT
// policy decides). Headers come from the metadata recorded at upload: Content-Type, the
// upload's Cache-Control, ETag, Last-Modified and Content-Length; conditional requests get 304.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type http from 'node:http';
import type { Caller } from './db.ts';
import { ERRORS, fromDbError } from './errors.ts';
import { mustBeValidBucketName, mustBeValidObjectName, versionFile } from './keys.ts';
import { servedMediaType } from './media-type.ts';
import type { ObjectStore } from './objects.ts';

interface StoredObject {
  bucket_id: string;
  name: string;
  version: string | null;
  metadata: {
    eTag?: string;
    size?: number;
    mimetype?: string;
    cacheControl?: string;
    lastModified?: string;
  } | null;
}

const OBJECT_SQL = `select o.bucket_id, o.name, o.version, o.metadata from storage.objects o`;

export async function findPublicObject(store: ObjectStore, bucket: string, name: string) {
  mustBeValidBucketName(bucket);
  mustBeValidObjectName(name);
  const { rows } = await store.db.asService<StoredObject>(
    `${OBJECT_SQL} join storage.buckets b on b.id = o.bucket_id
      where o.bucket_id = $1 and o.name = $2 and b.public`,
    [bucket, name],
  );
  if (!rows[0]) throw ERRORS.noSuchKey();
  return rows[0];
}

export async function findObjectAsCaller(
  store: ObjectStore,
  caller: Caller,
  bucket: string,
  name: string,
) {
  mustBeValidBucketName(bucket);
  mustBeValidObjectName(name);
  let rows: StoredObject[];
  try {
    rows = await store.db.asCaller(caller, async (c) => {
      const r = await c.query<StoredObject>(
        `${OBJECT_SQL} where o.bucket_id = $1 and o.name = $2`,
        [bucket, name],
      );
      return r.rows;
    });
  } catch (err) {
    throw fromDbError(err) ?? err;
  }
  if (!rows[0]) throw ERRORS.noSuchKey();
  return rows[0];
}

/** Whole seconds, as Last-Modified carries them. */
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function notModified(req: http.IncomingMessage, eTag: string, lastModified: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((t) => t.trim().replace(/^W\//, ''))
      .some((t) => t === '*' || t === eTag);
  }
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && seconds(lastModified) <= Math.floor(since / 1000);
}

/** Content-Disposition for `?download` / `?download=<file name>` (storage-js `download` option). */
function disposition(url: URL, name: string): Record<string, string> {
  if (!url.searchParams.has('download')) return {};
  const fileName = url.searchParams.get('download') || name.split('/').pop() || 'download';
  return { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}` };
}

export async function sendObject(
  store: ObjectStore,
  object: StoredObject,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
): Promise<void> {
  if (!object.version) throw ERRORS.noSuchKey();
  const file = versionFile(store.root, object.bucket_id, object.name, object.version);
  const info = await stat(file).catch(() => null);
  if (!info) throw ERRORS.noSuchKey();
  const meta = object.metadata ?? {};
  const lastModified = new Date(meta.lastModified ?? info.mtime);
  const eTag = meta.eTag ?? `"${info.size}-${seconds(lastModified)}"`;
  const common = {
    etag: eTag,
    'last-modified': lastModified.toUTCString(),
    'cache-control': meta.cacheControl ?? 'no-cache',
    // Stored content is shown only as its recorded type, never sniffed into HTML.
    'x-content-type-options': 'nosniff',
  };
  if (notModified(req, eTag, lastModified)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  res.writeHead(200, {
    ...common,
    // Re-checked here too: a row written before the strict check is served as bytes, not a page.
    'content-type': servedMediaType(meta.mimetype),
    'content-length': String(info.size),
    ...disposition(url, object.name),
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
