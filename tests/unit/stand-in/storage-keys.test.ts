// Object-name checks and the file layout of the local Storage service (stack/storage/keys.ts):
// hosted's character allow-list and 1024-byte limit, no `.`/`..`/empty segments, and file paths
// that stay inside the bucket's folder whatever the name.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isValidBucketName,
  isValidObjectName,
  objectDir,
  versionFile,
} from '../../../stack/storage/keys.ts';

describe('object names', () => {
  it.each([
    'a.png',
    'folder/sub/picture-1200.webp',
    "odd but allowed !*'()&$=@;:+,? name.png",
    `${'n'.repeat(1020)}.png`,
  ])('accepts %j', (name) => {
    expect(isValidObjectName(name)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['parent folder', '../a.png'],
    ['parent folder inside', 'a/../../b.png'],
    ['current folder', './a.png'],
    ['absolute', '/etc/passwd'],
    ['empty segment', 'a//b.png'],
    ['trailing slash', 'a/'],
    ['backslash', 'a\\..\\b.png'],
    ['NUL', 'a\u0000.png'],
    ['percent', 'a%2e.png'],
    ['non-ASCII', 'café.png'],
    ['newline', 'a\n.png'],
    ['over 1024 bytes', `${'n'.repeat(1021)}.png`],
  ])('refuses %s', (_label, name) => {
    expect(isValidObjectName(name)).toBe(false);
  });

  it('refuses bucket names that are folders or carry a slash', () => {
    expect(isValidBucketName('product-images')).toBe(true);
    for (const bad of ['', '.', '..', 'a/b', 'a\\b', 'x'.repeat(101)]) {
      expect(isValidBucketName(bad), bad).toBe(false);
    }
  });
});

describe('file layout', () => {
  const root = path.resolve('/data/storage');

  it('keeps every object inside its bucket folder, named by a hash of its name', () => {
    const dir = objectDir(root, 'product-images', 'a/b.png');
    expect(dir).toMatch(/^\/data\/storage\/product-images\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
    expect(objectDir(root, 'product-images', 'a/b.png')).toBe(dir);
    expect(objectDir(root, 'product-images', 'a/c.png')).not.toBe(dir);
  });

  it('refuses names and versions that are not its own', () => {
    expect(() => objectDir(root, 'product-images', '../x')).toThrow('Invalid key');
    expect(() => objectDir(root, '..', 'x.png')).toThrow();
    expect(() => versionFile(root, 'product-images', 'x.png', '../../etc/passwd')).toThrow();
    expect(
      versionFile(root, 'product-images', 'x.png', '6f1c3d6e-0d3a-4c53-9d7e-0c3c2b1a0f9e'),
    ).toMatch(/\/6f1c3d6e-0d3a-4c53-9d7e-0c3c2b1a0f9e$/);
  });
});
