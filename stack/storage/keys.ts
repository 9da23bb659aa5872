// Object names and where their files live. Names are checked as hosted checks them (S3-safe
// characters only, at most 1024 bytes); the local service also refuses the segments `.`, `..` and
// empty ones (`a//b`, a leading `/`), which hosted would store as opaque keys.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ERRORS } from './errors.ts';

// Hosted Storage's allow-lists (src/storage/limits.ts there): no backslash, NUL, `%` or non-ASCII.
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;
export const MAX_KEY_BYTES = 1024;

export function isValidObjectName(name: string): boolean {
  if (name.length === 0 || Buffer.byteLength(name, 'utf8') > MAX_KEY_BYTES) return false;
  if (!VALID_OBJECT_KEY.test(name)) return false;
  return name.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

export function isValidBucketName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length < 101 &&
    VALID_BUCKET_NAME.test(name) &&
    name !== '.' &&
    name !== '..'
  );
}

export function mustBeValidObjectName(name: string): void {
  if (!isValidObjectName(name)) throw ERRORS.invalidKey(name);
}

export function mustBeValidBucketName(name: string): void {
  if (!isValidBucketName(name)) throw ERRORS.noSuchBucket();
}

/**
 * The folder holding every stored version of an object: <root>/<bucket>/<2 hex>/<sha256 of name>.
 * No part of the name reaches the file system, so no name can point anywhere else, and names of
 * up to 1024 bytes work whatever the file system's limit on one path segment.
 */
export function objectDir(root: string, bucket: string, name: string): string {
  mustBeValidBucketName(bucket);
  mustBeValidObjectName(name);
  const hash = createHash('sha256').update(name).digest('hex');
  return path.join(root, bucket, hash.slice(0, 2), hash);
}

/** The file of one version of an object. Versions are UUIDs the service makes itself. */
export function versionFile(root: string, bucket: string, name: string, version: string): string {
  if (!/^[0-9a-f-]{36}$/.test(version)) throw ERRORS.noSuchKey();
  return path.join(objectDir(root, bucket, name), version);
}
