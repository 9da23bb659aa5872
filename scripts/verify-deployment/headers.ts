// The security headers every page must carry, whoever serves it: the static host (public/_headers)
// or the host's function (/p/*, the sitemaps, robots.txt). The expected set is read from
// public/_headers, so the check follows the file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './context.ts';
import { fail, ok, type Line } from './report.ts';

/** Header name (lower case) → value, or null where the value is filled in at build time. */
export type ExpectedHeaders = Map<string, string | null>;

export function expectedHeaders(file = path.join(REPO_ROOT, 'public/_headers')): ExpectedHeaders {
  const expected: ExpectedHeaders = new Map();
  let inAll = false;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      inAll = raw.trim() === '/*';
      continue;
    }
    const m = /^\s+([A-Za-z-]+):\s*(.*)$/.exec(raw);
    if (inAll && m) expected.set(m[1]!.toLowerCase(), m[2]!.includes('__') ? null : m[2]!.trim());
  }
  return expected;
}

const normalise = (v: string) => v.replace(/\s+/g, ' ').trim().toLowerCase();

export function headerProblems(headers: Headers, expected: ExpectedHeaders): string[] {
  const problems: string[] = [];
  const csp = headers.get('content-security-policy');
  for (const [name, value] of expected) {
    const got = headers.get(name);
    // Frame protection: X-Frame-Options or the CSP's frame-ancestors (browsers honour either).
    if (name === 'x-frame-options' && got === null && /frame-ancestors/.test(csp ?? '')) continue;
    if (got === null) problems.push(`no ${name}`);
    else if (value !== null && normalise(got) !== normalise(value))
      problems.push(`${name} is “${got}”`);
  }
  if (csp !== null && !/frame-ancestors/.test(csp) && headers.get('x-frame-options') === null)
    problems.push('no frame protection');
  return problems;
}

export function checkHeaders(
  label: string,
  headers: Headers,
  expected: ExpectedHeaders,
  api: string,
): Line {
  const check = `headers: ${label}`;
  const problems = headerProblems(headers, expected);
  if (problems.length === 0)
    return ok(check, `${expected.size} security headers as public/_headers`);
  const fn = /^\/(p\/|sitemap|robots)/.test(label);
  return fail(
    check,
    problems.join('; '),
    fn
      ? 'the host function must send the headers itself (netlify/functions/product-pages.ts; ' +
          'docs/security-headers.md) — the host applies _headers to static files only'
      : `deploy dist/_headers as built with VITE_SUPABASE_URL=${api} (docs/security-headers.md)`,
  );
}
