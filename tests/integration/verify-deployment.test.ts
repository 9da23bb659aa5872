// `npm run verify:deployment` (scripts/verify-deployment, docs/decisions/0205) against a store
// deployed the way production is: a stack of its own whose Auth Site URL is the site's address,
// and the SPA built against it and served by `vite preview` with the product-pages function
// (tests/support/harness.ts). Every line must hold; with one migration's record gone from the
// server's history (and one the repository lacks), the check fails naming both.
// The stack is this file's own, so editing its migration history disturbs no other test.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';
import { REPO_ROOT } from '../../scripts/verify-deployment/context.ts';
import { createAdmin, sql, type StackEnv } from '../support/stack.ts';

const run = promisify(execFile);
let harness: Harness;
let env: StackEnv;
let admin: { email: string; password: string };

interface Row {
  status: string;
  check: string;
  detail: string;
}

interface Result {
  code: number;
  stdout: string;
  rows: Row[];
}

async function verify({
  withAdmin = true,
  args: argv = ['--api', env.API_URL, '--site', harness.baseUrl, '--expect-address', '127.0.0.1'],
} = {}): Promise<Result> {
  const args = [path.join(REPO_ROOT, 'scripts/verify-deployment/main.ts'), ...argv];
  const childEnv: NodeJS.ProcessEnv = { ...process.env, SUPABASE_ANON_KEY: env.ANON_KEY };
  delete childEnv.VERIFY_ADMIN_EMAIL;
  delete childEnv.VERIFY_ADMIN_PASSWORD;
  if (withAdmin) {
    childEnv.VERIFY_ADMIN_EMAIL = admin.email;
    childEnv.VERIFY_ADMIN_PASSWORD = admin.password;
  }
  let code = 0;
  let stdout: string;
  try {
    ({ stdout } = await run(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), args, {
      env: childEnv,
      cwd: REPO_ROOT,
      timeout: 120_000,
    }));
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw error;
    code = e.code;
    stdout = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
  const rows = [...stdout.matchAll(/^ {2}(ok|FAIL|skip) +(.+?) {2,}(.*)$/gm)].map((m) => ({
    status: m[1]!,
    check: m[2]!.trim(),
    detail: m[3]!,
  }));
  return { code, stdout, rows };
}

beforeAll(async () => {
  harness = await startHarness({ log: () => undefined });
  env = harness.stackEnv;
  admin = await createAdmin({}, env);
}, 420_000);

afterAll(async () => {
  await harness?.stop();
});

describe('verify:deployment against a deployed local store', () => {
  it('holds on every line, admin checks included, and exits 0', async () => {
    const result = await verify();
    const notHeld = result.rows.filter((r) => r.status !== 'ok');
    expect(notHeld, result.stdout).toEqual([]);
    expect(result.code, result.stdout).toBe(0);
    const checks = result.rows.map((r) => r.check);
    // Every area the check promises is in the table (a refactor cannot drop one silently).
    for (const area of [
      'migrations: server = repository',
      'storefront: search (storefront_search)',
      'site: product page /p/<slug>',
      'site: sitemaps',
      'site: robots.txt',
      'site: cacheable catalogue reads',
      'headers: /p/<slug>',
      'headers: /robots.txt',
      'headers: /assets/*.js',
      'Buy Now: a click is counted',
      'Buy Now: address the database sees',
      'contact: function validates (nothing sent)',
      'auth: Site URL',
      'auth: redirect to /reset-password allowed',
      'admin: CSV import (checked, nothing written)',
      'admin: Insights queries',
      'storage: refuses other types and sizes',
      'storage: bucket storefront-images',
      'storefront: store_settings',
      'storefront: storefront_content',
      'storefront: offers',
      'site: price-drop feed',
    ])
      expect(checks, result.stdout).toContain(area);
    expect(result.stdout).toContain('127.0.0.1 = --expect-address');
  }, 180_000);

  it('without admin credentials says what it could not check, and checks the rest', async () => {
    const result = await verify({ withAdmin: false });
    const status = (check: string) => result.rows.find((r) => r.check === check)?.status;
    expect(status('migrations: server = repository'), result.stdout).toBe('skip');
    expect(status('admin: RPCs, Insights, CSV import, uploads'), result.stdout).toBe('skip');
    expect(status('storage: bucket product-images'), result.stdout).toBe('ok');
    expect(status('storage: bucket storefront-images'), result.stdout).toBe('ok');
    expect(status('site: product page /p/<slug>'), result.stdout).toBe('ok');
    expect(result.stdout).toMatch(/\d+ hold, \d+ fail, 2 not checked/);
  }, 180_000);

  it('a usage error exits 2 and says what is needed', async () => {
    const result = await verify({ args: ['--api', env.API_URL] });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('--api and --site are required');
  });

  it('leaves the catalogue as it found it (the CSV import wrote nothing)', async () => {
    const before = await sql(
      `select count(*)::int as n, max(updated_at) as t from public.products`,
      [],
      env,
    );
    const result = await verify();
    expect(result.rows.find((r) => r.check.startsWith('admin: CSV'))?.status, result.stdout).toBe(
      'ok',
    );
    const after = await sql(
      `select count(*)::int as n, max(updated_at) as t from public.products`,
      [],
      env,
    );
    expect(after).toEqual(before);
    const staged = await sql(
      `select count(*)::int as n from private.catalogue_import_rows`,
      [],
      env,
    );
    expect(staged).toEqual([{ n: 0 }]);
  }, 180_000);

  it('fails, naming the migration, when the server lacks one and has one the repository lacks', async () => {
    const missing = { version: '20260101002000', name: 'catagory_old_titles' };
    const saved = await sql(
      `delete from supabase_migrations.schema_migrations where version = $1 returning *`,
      [missing.version],
      env,
    );
    expect(saved).toHaveLength(1);
    await sql(
      `insert into supabase_migrations.schema_migrations (version, name, statements)
       values ('20991231000000', 'from_another_branch', '{}')`,
      [],
      env,
    );
    try {
      const result = await verify();
      expect(result.code, result.stdout).toBe(1);
      const line = result.rows.find((r) => r.check === 'migrations: server = repository');
      expect(line, result.stdout).toMatchObject({ status: 'FAIL' });
      expect(line!.detail).toContain(
        'missing on the server: 20260101002000_catagory_old_titles; ' +
          'on the server only: 20991231000000_from_another_branch',
      );
      expect(result.stdout).toMatch(/→ fix: `npx supabase db push`/);
    } finally {
      await sql(
        `delete from supabase_migrations.schema_migrations where version = '20991231000000'`,
        [],
        env,
      );
      const row = saved[0]!;
      const columns = Object.keys(row);
      await sql(
        `insert into supabase_migrations.schema_migrations (${columns.join(', ')})
         select * from jsonb_populate_record(null::supabase_migrations.schema_migrations, $1)`,
        [JSON.stringify(row)],
        env,
      );
    }
    const restored = await verify();
    expect(restored.rows.find((r) => r.check.startsWith('migrations'))?.status).toBe('ok');
  }, 300_000);
});
