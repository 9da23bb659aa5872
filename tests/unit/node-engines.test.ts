// The Node version package.json declares is true (decision 0221): every locked package that a
// Node of the declared floor installs accepts that Node, so `npm install` prints no EBADENGINE
// warning on it. Checks the floor, not only the Node running the test, so a developer on a newer
// Node also sees it fail when a package that needs a newer Node is added.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface Manifest {
  engines?: { node?: string };
}
interface LockedPackage extends Manifest {
  version?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
}

const read = <T>(file: string): T =>
  JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as T;
const manifest = read<Manifest>('package.json');
const lock = read<{ packages: Record<string, LockedPackage> }>('package-lock.json');
const declared = manifest.engines?.node ?? '';

/** Optional packages for another platform are never installed here, so their engines never warn. */
const installedHere = (pkg: LockedPackage) =>
  !pkg.optional ||
  ((pkg.os ?? [process.platform]).includes(process.platform) &&
    (pkg.cpu ?? [process.arch]).includes(process.arch));

describe('Node version (decision 0221)', () => {
  it('package.json declares a Node range, and the Node running the tests is in it', () => {
    expect(semver.validRange(declared)).toBeTruthy();
    expect(semver.satisfies(process.versions.node, declared)).toBe(true);
  });

  it('every locked package accepts the oldest Node that package.json declares', () => {
    const floor = semver.minVersion(declared)!.version;
    const refusing = Object.entries(lock.packages)
      .filter(([name, pkg]) => name !== '' && installedHere(pkg) && pkg.engines?.node)
      .filter(([, pkg]) => !semver.satisfies(floor, pkg.engines!.node!, { loose: true }))
      .map(
        ([name, pkg]) =>
          `${name.replace(/^.*node_modules\//, '')}@${pkg.version}: node ${pkg.engines!.node}`,
      );
    expect(refusing, `packages that refuse Node ${floor}`).toEqual([]);
  });
});
