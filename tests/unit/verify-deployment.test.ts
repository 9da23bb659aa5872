// The deployment check's pure parts (scripts/verify-deployment, docs/decisions/0205): options,
// the migration comparison, the header set read from public/_headers, a product page's HTML and
// the table. The live checks run in tests/integration/verify-deployment.test.ts.
import { describe, expect, it } from 'vitest';
import { parseOptions, UsageError } from '../../scripts/verify-deployment/context.ts';
import { expectedHeaders, headerProblems } from '../../scripts/verify-deployment/headers.ts';
import {
  compareMigrations,
  repositoryMigrations,
} from '../../scripts/verify-deployment/migrations.ts';
import { fail, formatTable, ok } from '../../scripts/verify-deployment/report.ts';
import { productHtmlProblems } from '../../scripts/verify-deployment/site.ts';

describe('options', () => {
  it('takes --api, --site and the anon key from the environment', () => {
    const o = parseOptions(
      [
        '--api',
        'https://abc.supabase.co/',
        '--site=https://shop.example/x',
        '--expect-address',
        '203.0.113.7',
      ],
      { VITE_SUPABASE_ANON_KEY: 'anon', VERIFY_ADMIN_EMAIL: 'a@b.c', VERIFY_ADMIN_PASSWORD: 'pw' },
    );
    expect(o).toEqual({
      api: 'https://abc.supabase.co',
      site: 'https://shop.example',
      anonKey: 'anon',
      admin: { email: 'a@b.c', password: 'pw' },
      expectAddress: '203.0.113.7',
    });
  });

  it('refuses a missing address, key or an unknown argument', () => {
    expect(() =>
      parseOptions(['--api', 'https://a.supabase.co'], { SUPABASE_ANON_KEY: 'k' }),
    ).toThrow(UsageError);
    expect(() => parseOptions(['--api', 'https://a', '--site', 'https://b'], {})).toThrow(
      /ANON_KEY/,
    );
    expect(() =>
      parseOptions(['--api', 'https://a', '--site', 'https://b', '--yes'], {
        SUPABASE_ANON_KEY: 'k',
      }),
    ).toThrow(/--yes/);
  });
});

describe('migrations', () => {
  const repo = repositoryMigrations();

  it('reads the repository’s migrations, this check’s own included', () => {
    expect(repo).toContainEqual({ version: '20260101002540', name: 'deployment_check' });
    expect(repo.map((m) => m.version)).toEqual([...repo.map((m) => m.version)].sort());
  });

  it('holds when the server has applied exactly those', () => {
    expect(compareMigrations(repo, [...repo]).status).toBe('ok');
  });

  it('names the missing and the extra ones, with what to run', () => {
    const server = repo.filter((m) => m.version !== '20260101002000');
    server.push({ version: '20991231000000', name: 'elsewhere' });
    const line = compareMigrations(repo, server);
    expect(line.status).toBe('FAIL');
    expect(line.detail).toBe(
      'missing on the server: 20260101002000_catagory_old_titles; ' +
        'on the server only: 20991231000000_elsewhere',
    );
    expect(line.fix).toMatch(/npx supabase db push/);
  });
});

describe('security headers', () => {
  const expected = expectedHeaders();
  const full = new Headers({
    'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'",
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });

  it('are the set in public/_headers (the CSP filled in at build time)', () => {
    expect([...expected.keys()].sort()).toEqual([
      'content-security-policy',
      'cross-origin-opener-policy',
      'permissions-policy',
      'referrer-policy',
      'x-content-type-options',
      'x-frame-options',
    ]);
    expect(expected.get('content-security-policy')).toBeNull();
    expect(headerProblems(full, expected)).toEqual([]);
  });

  it('a page without them (the host function before it sent them) fails, header by header', () => {
    const bare = new Headers({ 'Content-Type': 'text/html' });
    expect(headerProblems(bare, expected)).toEqual([
      'no content-security-policy',
      'no x-frame-options',
      'no x-content-type-options',
      'no referrer-policy',
      'no permissions-policy',
      'no cross-origin-opener-policy',
    ]);
  });

  it('frame-ancestors stands in for X-Frame-Options; a wrong value is named', () => {
    const h = new Headers(full);
    h.delete('X-Frame-Options');
    h.set('X-Content-Type-Options', 'sniff');
    expect(headerProblems(h, expected)).toEqual(['x-content-type-options is “sniff”']);
  });
});

describe('a product page’s HTML', () => {
  const product = {
    id: '1',
    title: 'Crème & Co "Pro"',
    cat: 'Tennis',
    price: '£1',
    com: 'c',
    image: '/i.png',
    link: 'https://x',
    slug: 'creme-and-co-pro',
  };
  const page = (canonical: string, ld: object) =>
    `<title>Crème &amp; Co &quot;Pro&quot; | MAR</title>` +
    `<link rel="canonical" href="${canonical}" />` +
    `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;

  it('holds with the title, the canonical URL on the site and Product JSON-LD', () => {
    const html = page('https://shop.example/p/creme-and-co-pro', {
      '@type': 'Product',
      name: product.title,
    });
    expect(productHtmlProblems(html, product, 'https://shop.example')).toEqual([]);
  });

  it('names a canonical URL on another address (VITE_SITE_URL unset) and missing JSON-LD', () => {
    const html = page('http://localhost/p/creme-and-co-pro', { '@type': 'Thing' });
    expect(productHtmlProblems(html, product, 'https://shop.example')).toEqual([
      'canonical is http://localhost/p/creme-and-co-pro, expected https://shop.example/p/creme-and-co-pro',
      'no schema.org Product JSON-LD naming the product',
    ]);
  });
});

it('the table puts what to change under each failure', () => {
  const table = formatTable([ok('a', 'fine'), fail('b', 'broken', 'do this')]);
  expect(table).toMatch(/^ {2}ok {6}a +fine$/m);
  expect(table).toMatch(/^ {2}FAIL {4}b +broken\n {10}→ fix: do this$/m);
  expect(table).toContain('1 hold, 1 fail, 0 not checked');
});
