// REQ-PATH-8: unknown paths answer 404, the app's own routes 200. The hosts (public/_redirects)
// and `vite preview` (scripts/vite-plugins/prerender.ts, which reads the same file) serve the
// shell only for the app's routes that have no file of their own; everything else is 404.html.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spaRewrites } from '../../scripts/vite-plugins/prerender';
import { paths } from '../../src/routing/paths';
import { PRERENDERED_ROUTES } from '../../src/routing/prerender';

const redirects = readFileSync(new URL('../../public/_redirects', import.meta.url), 'utf8');

describe('public/_redirects (REQ-PATH-8)', () => {
  it("rewrites exactly the app's routes that are neither pre-rendered nor the host's function", () => {
    const prerendered: readonly string[] = PRERENDERED_ROUTES;
    const spaOnly = Object.values(paths).filter(
      (route) => !prerendered.includes(route) && route !== paths.product,
    );
    const rewrites = spaRewrites(redirects);
    expect([...rewrites.keys()].sort()).toEqual([...spaOnly].sort());
    for (const target of rewrites.values()) expect(target).toBe('/spa.html');
  });

  it('has no catch-all rule: a URL without a file or a rule gets the 404 page', () => {
    const rules = redirects
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
    expect(rules.some((rule) => rule.startsWith('/*'))).toBe(false);
  });

  it('reads a rule per line, with its status, and skips comments', () => {
    const rules = spaRewrites(
      '# a comment\n/a  /spa.html  200\n/b /c 301\n\n/d /spa.html 200 # why',
    );
    expect([...rules]).toEqual([
      ['/a', '/spa.html'],
      ['/d', '/spa.html'],
    ]);
  });
});
