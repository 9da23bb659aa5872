// The security lint (npm run db:lint) against the migrated test database: clean, and able to see
// a problem when there is one (a deliberately unsafe probe table and function, dropped at once;
// functions with an UPDATE/DELETE without WHERE, which hosted's safeupdate refuses: decision 0201).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { stackEnv } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const execFileAsync = promisify(execFile);
const tsx = resolve(import.meta.dirname, '../../node_modules/.bin/tsx');
const script = resolve(import.meta.dirname, '../../scripts/db-lint.ts');

async function lint(): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(tsx, [script, '--db-url', stackEnv().DB_URL], {
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('npm run db:lint', () => {
  it('reports no security finding for the migrated schema', async () => {
    const result = await lint();
    expect(result.stdout + result.stderr).toContain('no security findings');
    expect(result.code).toBe(0);
  });

  it('fails and names the object when the schema has a security problem', async () => {
    const name = uniqueId('lint_probe').replace(/-/g, '_');
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    try {
      // An exposed table without RLS, and a SECURITY DEFINER function anyone may call.
      await db.query(`create table public.${name} (id int primary key)`);
      await db.query(`grant select on public.${name} to anon`);
      await db.query(
        `create function public.${name}_fn() returns int language sql security definer
           set search_path = '' as 'select 1'`,
      );
      const result = await lint();
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('rls_disabled_in_public');
      expect(result.stdout).toContain(`public.${name}`);
      expect(result.stdout).toContain('anon_security_definer_function_executable');
    } finally {
      await db.query(`drop function if exists public.${name}_fn()`);
      await db.query(`drop table if exists public.${name}`);
      await db.end();
    }
  });

  it('fails and names every function with an UPDATE or DELETE without WHERE', async () => {
    const name = uniqueId('lint_writes').replace(/-/g, '_');
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    try {
      await db.query(`create table private.${name} (id int primary key, n int)`);
      // PL/pgSQL, deep inside a block and a data-modifying CTE; and plain SQL. Both are callable
      // by nobody: the rule counts every function of the app's schemas.
      await db.query(
        `create function private.${name}_plpgsql() returns void language plpgsql
           set search_path = '' as $$
         begin
           if random() >= 0 then
             with gone as (delete from private.${name} returning id) select count(*) from gone;
           end if;
           update private.${name} set n = 1 where true;
         end $$`,
      );
      await db.query(
        `create function private.${name}_sql() returns void language sql
           set search_path = '' as 'update private.${name} set n = 2'`,
      );
      await db.query(`revoke execute on function private.${name}_plpgsql() from public`);
      await db.query(`revoke execute on function private.${name}_sql() from public`);
      const result = await lint();
      expect(result.code).toBe(1);
      const lines = result.stdout.split('\n').filter((l) => l.includes(name));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain('unfiltered_write_in_function');
      expect(lines[0]).toContain(`private.${name}_plpgsql()`);
      expect(lines[0]).toContain(`DELETE FROM private.${name}\` at body line 4`);
      expect(lines[1]).toContain(`private.${name}_sql()`);
      expect(lines[1]).toContain(`UPDATE private.${name}\``);
    } finally {
      await db.query(`drop function if exists private.${name}_plpgsql()`);
      await db.query(`drop function if exists private.${name}_sql()`);
      await db.query(`drop table if exists private.${name}`);
      await db.end();
    }
  });
});
