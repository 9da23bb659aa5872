// The auth server's route table: every route declares its authentication and rate limit, and
// the table in stack/auth/README.md says the same as the code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../stack/auth/routes.ts';

/** README names the limiters by their `[auth.rate_limit]` keys. */
const CONFIG_KEY = {
  signInSignUps: 'sign_in_sign_ups',
  tokenRefresh: 'token_refresh',
  tokenVerifications: 'token_verifications',
} as const;

/** `/admin/users/{id}` → the path the route's pattern matches with a sample id. */
const samplePath = (readmePath: string) =>
  readmePath
    .replace(/`/g, '')
    .replace(/\s*\(.*\)$/, '')
    .replace(/\?.*$/, '')
    .replace('{id}', '5f2b4a1e-0000-4000-8000-000000000001');

function readmeRows(): Array<{ method: string; path: string; auth: string; limit: string }> {
  const readme = readFileSync(new URL('../../../stack/auth/README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('| Method'));
  const rows: Array<{ method: string; path: string; auth: string; limit: string }> = [];
  for (const line of section.split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .replace(/\\\|/g, '/')
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    for (const method of cells[0]!.split(/,\s*/)) {
      rows.push({ method, path: samplePath(cells[1]!), auth: cells[2]!, limit: cells[3]! });
    }
  }
  return rows;
}

describe('auth route table', () => {
  it('README lists every route with the authentication and rate limit the code enforces', () => {
    const documented = readmeRows()
      .map((r) => {
        const route = ROUTES.find((x) => x.method === r.method && x.path.test(r.path));
        return `${r.method} ${r.path} ${r.auth} ${r.limit} -> ${
          route
            ? `${route.auth} ${route.rateLimit ? `\`${CONFIG_KEY[route.rateLimit]}\`` : 'none'}`
            : 'missing'
        }`;
      })
      .filter((line) => {
        const [, , auth, limit, , codeAuth, codeLimit] = line.split(' ');
        return auth !== codeAuth || limit !== codeLimit;
      });
    expect(documented).toEqual([]);
    expect(readmeRows()).toHaveLength(ROUTES.length);
  });

  it('routes that sign in, sign up or send mail are rate limited', () => {
    const unlimited = ROUTES.filter((r) => r.auth === 'none' && r.method !== 'GET')
      .filter((r) => r.rateLimit === null)
      .map((r) => `${r.method} ${r.path.source}`);
    expect(unlimited).toEqual([]);
  });
});
