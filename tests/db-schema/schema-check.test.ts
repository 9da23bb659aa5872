// Decision 0220: supabase/schemas/ and supabase/migrations/ must define the same database.
// Real throwaway embedded Postgres databases, no stubs: the current tree passes; a migration
// that changes a function the schema files do not (body, grants) fails `npm run db:schema-check`
// with the object named; `npm run db:diff` writes the migration for a change made in a schema
// file. Plants go into a copy of supabase/ (the stack's SQL is linked), never into the tree.
import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { compare } from '../../scripts/db-schema/compare.ts';
import { repositorySources } from '../../scripts/db-schema/databases.ts';
import { dbDiff } from '../../scripts/db-schema/diff.ts';
import { foldAdvice } from '../../scripts/db-schema/fold.ts';

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const copies: string[] = [];

/** A checkout with a copy of supabase/ and the stack's platform SQL linked. */
function copyOfRepository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mar-db-schema-test-'));
  copies.push(dir);
  cpSync(path.join(root, 'supabase'), path.join(dir, 'supabase'), {
    recursive: true,
    filter: (src) => !src.includes(`${path.sep}functions`),
  });
  symlinkSync(path.join(root, 'stack'), path.join(dir, 'stack'));
  return dir;
}

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** private.is_admin() as the schema files define it, with its body changed. */
function isAdminChanged(schemaSql: string): string {
  const start = schemaSql.indexOf('create or replace function private.is_admin()');
  const end = schemaSql.indexOf('$$;', start) + 3;
  expect(start).toBeGreaterThanOrEqual(0);
  return schemaSql
    .slice(start, end)
    .replace('or v_session is null', `or v_session is null or v_session = ''`);
}

function adminsSchemaFile(dir: string): string {
  const name = readdirSync(path.join(dir, 'supabase/schemas')).find((f) =>
    f.endsWith('_admins.sql'),
  );
  return path.join(dir, 'supabase/schemas', name!);
}

describe('npm run db:schema-check', () => {
  it('passes: the schema files define exactly what the migrations build', async () => {
    const c = await compare(root, repositorySources(root));
    expect(c.differences).toEqual([]);
    expect(c.toMigrations).toBe('');
    expect(c.toSchemas).toBe('');
  }, 180_000);

  it('fails on a migration that changes a function the schema files do not, naming it', async () => {
    const dir = copyOfRepository();
    const changed = isAdminChanged(readFileSync(adminsSchemaFile(dir), 'utf8'));
    writeFileSync(
      path.join(dir, 'supabase/migrations/29990101000000_planted.sql'),
      `${changed}\ngrant execute on function private.is_admin() to anon;\n`,
    );
    const result = await execFileAsync(tsx, ['scripts/db-schema/check.ts', '--root', dir], {
      cwd: root,
      timeout: 180_000,
    }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'function private.is_admin(): definition differs (- migrations, + schema files)  ' +
        '[newest migration naming it: supabase/migrations/29990101000000_planted.sql]',
    );
    expect(result.stdout).toMatch(/- +or v_session is null or v_session = ''/);
    expect(result.stdout).toContain('function private.is_admin(): grants differs');
    expect(result.stdout).toContain('anon=X/postgres');
  }, 180_000);
});

describe('npm run db:diff', () => {
  it('writes the migration for a function changed in a schema file, with which the two agree', async () => {
    const dir = copyOfRepository();
    const file = adminsSchemaFile(dir);
    const sql = readFileSync(file, 'utf8');
    const start = sql.indexOf('create or replace function private.is_admin()');
    const end = sql.indexOf('$$;', start) + 3;
    writeFileSync(file, sql.slice(0, start) + isAdminChanged(sql) + sql.slice(end));

    const r = await dbDiff(dir, 'planted_change', '29990101000000');
    expect(r.file).toBe('supabase/migrations/29990101000000_planted_change.sql');
    const written = readFileSync(path.join(dir, r.file!), 'utf8');
    expect(written).toContain('CREATE OR REPLACE FUNCTION private.is_admin()');
    expect(written).toContain(`or v_session is null or v_session = ''`);
    expect(r.byHand).toEqual([]);
  }, 300_000);
});

describe('npm run db:fold', () => {
  it('says where each statement of a migration goes in the schema files', async () => {
    const dir = copyOfRepository();
    const migration = path.join(dir, 'supabase/migrations/29990101000000_planted.sql');
    writeFileSync(
      migration,
      [
        `create or replace function private.is_admin() returns boolean language sql`,
        `  set search_path = '' as 'select false';`,
        `create table public.planted (id int primary key);`,
        `insert into public.planted values (1);`,
        `update public.products set com = com where true;`,
        `create policy "planted: admins upload" on storage.objects for insert to authenticated`,
        `  with check (false);`,
      ].join('\n'),
    );
    const advice = await foldAdvice(migration);
    expect(advice).toHaveLength(5);
    expect(advice[0]).toMatch(
      /^ {2}replace {2}supabase\/schemas\/010_admins\.sql:\d+ {2}\(function private\.is_admin\)/,
    );
    expect(advice[0]).toContain('line 1: create or replace function private.is_admin()');
    expect(advice[1]).toContain('new      (table public.planted)');
    expect(advice[2]).toContain('(seed row of public.planted');
    expect(advice[3]).toContain('leave out (data fix');
    expect(advice[4]).toContain(
      'next to  supabase/schemas/080_storage.sql:1  (policy on storage.objects)',
    );
  });
});
