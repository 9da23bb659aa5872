// Storage service of the Docker-free local stack: the part of Supabase Storage's HTTP API that
// storage-js (supabase-js `.storage`) uses for public buckets — bucket info, upload and upsert,
// remove, list, download and the public object URL — behind the gateway at /storage/v1
// (stack/PLATFORM.md: Storage). Object rows live in storage.objects, files under the stack's
// data dir; every request's database work runs as the caller (db.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { JwtError, verifyJwt, type JwtClaims } from '../auth/jwt.ts';
import { StorageDb, type ApiRole, type Caller } from './db.ts';
import { ERRORS, StorageError } from './errors.ts';
import {
  getBucket,
  listBuckets,
  listObjects,
  removeObject,
  removeObjects,
  uploadObject,
  type ObjectStore,
} from './objects.ts';
import { findObjectAsCaller, findPublicObject, sendObject } from './serve.ts';

export interface StorageServerOptions {
  host: string;
  port: number;
  /** Connects as supabase_storage_admin. */
  dbUrl: string;
  jwtSecret: string;
  /** Files are kept here. */
  root: string;
  /** [storage] file_size_limit in bytes. */
  fileSizeLimit: number;
  log?: (line: string) => void;
}

export interface StorageServerHandle {
  url: string;
  close(): Promise<void>;
}

const API_ROLES = new Set<ApiRole>(['anon', 'authenticated', 'service_role']);
const MAX_JSON_BYTES = 1024 * 1024;

/** The caller from the Authorization header (the gateway fills it in from the apikey). */
function callerOf(req: http.IncomingMessage, secret: string): Caller {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!token) throw ERRORS.accessDenied('jwt must be provided');
  let claims: JwtClaims;
  try {
    claims = verifyJwt(token, secret);
  } catch (err) {
    throw ERRORS.accessDenied(err instanceof JwtError ? err.detail : 'invalid token');
  }
  const role = claims.role as ApiRole;
  if (!API_ROLES.has(role)) throw ERRORS.accessDenied('Access denied: Invalid role', 403);
  return { role, claims, jwt: token, sub: typeof claims.sub === 'string' ? claims.sub : null };
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_JSON_BYTES) throw ERRORS.tooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw ERRORS.invalidRequest('Body is not a JSON object');
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

/** `<bucket>/<name…>` of a path; the name is percent-decoded (as hosted's router does). */
function bucketAndName(rest: string): { bucket: string; name: string } {
  const slash = rest.indexOf('/');
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw ERRORS.invalidKey(s);
    }
  };
  if (slash < 0) return { bucket: decode(rest), name: '' };
  return { bucket: decode(rest.slice(0, slash)), name: decode(rest.slice(slash + 1)) };
}

async function route(
  store: ObjectStore,
  secret: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://storage.invalid');
  // The raw path: `..` and `%2F` must reach the name checks, not be resolved away here.
  const rawPath = (req.url ?? '/').split('?')[0]!;
  const method = req.method ?? 'GET';
  const caller = () => callerOf(req, secret);

  if (rawPath === '/status' || rawPath === '/health') return sendJson(res, 200, { ok: true });
  if (method === 'GET' && rawPath === '/bucket') {
    return sendJson(res, 200, await listBuckets(store, caller()));
  }
  const bucketInfo = /^\/bucket\/([^/]+)$/.exec(rawPath);
  if (method === 'GET' && bucketInfo) {
    const { bucket } = bucketAndName(bucketInfo[1]!);
    return sendJson(res, 200, await getBucket(store, caller(), bucket));
  }
  const publicObject = /^\/object\/public\/(.+)$/.exec(rawPath);
  if ((method === 'GET' || method === 'HEAD') && publicObject) {
    const { bucket, name } = bucketAndName(publicObject[1]!);
    return sendObject(store, await findPublicObject(store, bucket, name), req, res, url);
  }
  const list = /^\/object\/list\/([^/]+)$/.exec(rawPath);
  if (method === 'POST' && list) {
    const { bucket } = bucketAndName(list[1]!);
    const who = caller();
    return sendJson(res, 200, await listObjects(store, who, bucket, await readJson(req)));
  }
  const authenticated = /^\/object\/(?:authenticated\/)?(.+)$/.exec(rawPath);
  if (!authenticated) throw ERRORS.notFoundRoute(method, rawPath);
  const { bucket, name } = bucketAndName(authenticated[1]!);
  if (method === 'DELETE' && name === '') {
    const who = caller();
    const body = await readJson(req);
    return sendJson(res, 200, await removeObjects(store, who, bucket, body.prefixes));
  }
  switch (method) {
    case 'GET':
    case 'HEAD':
      return sendObject(
        store,
        await findObjectAsCaller(store, caller(), bucket, name),
        req,
        res,
        url,
      );
    case 'POST':
    case 'PUT': {
      const upsert = method === 'PUT' || req.headers['x-upsert'] === 'true';
      return sendJson(res, 200, await uploadObject(store, caller(), req, bucket, name, upsert));
    }
    case 'DELETE':
      return sendJson(res, 200, await removeObject(store, caller(), bucket, name));
    default:
      throw ERRORS.notFoundRoute(method, rawPath);
  }
}

export async function startStorageServer(opts: StorageServerOptions): Promise<StorageServerHandle> {
  const db = new StorageDb(opts.dbUrl);
  // Fail fast when the database or the storage schema is not there.
  await db.asService('select 1 from storage.objects limit 1');
  const store: ObjectStore = { db, root: opts.root, globalFileSizeLimit: opts.fileSizeLimit };
  const log = opts.log ?? (() => undefined);

  const server = http.createServer((req, res) => {
    route(store, opts.jwtSecret, req, res).catch((err: unknown) => {
      const error = err instanceof StorageError ? err : ERRORS.internal();
      if (!(err instanceof StorageError)) log(`storage: ${req.method} ${req.url}: ${String(err)}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // The rest of a body still arriving (an upload over the limit) is read and dropped, so
      // the gateway can hand this answer on (it bounds the body's size itself).
      if (!req.complete) req.resume();
      sendJson(res, error.httpStatus, error.body());
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host}:${port}`,
    close: async () => {
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await db.close();
    },
  };
}
