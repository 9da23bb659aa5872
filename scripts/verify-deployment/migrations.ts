// Migrations on the server = migrations in the repository. The Supabase CLI records every
// applied migration (version, name) in supabase_migrations.schema_migrations; the admin-only RPC
// public.applied_migrations() (migration …2540) reads it. Read only.
import type { SupabaseClient } from '@supabase/supabase-js';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { FUNCTION_MISSING, REPO_ROOT } from './context.ts';
import { fail, ok, skip, type Line } from './report.ts';

const CHECK = 'migrations: server = repository';
const PUSH =
  '`npx supabase db push` from this checkout (README: Deploying to hosted Supabase, step 2)';

export interface Migration {
  version: string;
  name: string;
}

export function repositoryMigrations(dir = path.join(REPO_ROOT, 'supabase/migrations')) {
  return readdirSync(dir)
    .map((file) => /^(\d+)_(.+)\.sql$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: m[1]!, name: m[2]! }))
    .sort((a, b) => a.version.localeCompare(b.version));
}

const label = (m: Migration) => `${m.version}_${m.name}`;

export function compareMigrations(repo: Migration[], server: Migration[]): Line {
  const onServer = new Set(server.map((m) => m.version));
  const inRepo = new Set(repo.map((m) => m.version));
  const missing = repo.filter((m) => !onServer.has(m.version));
  const extra = server.filter((m) => !inRepo.has(m.version));
  if (missing.length === 0 && extra.length === 0)
    return ok(CHECK, `${server.length} applied, the ${repo.length} in supabase/migrations`);
  const parts = [];
  if (missing.length) parts.push(`missing on the server: ${missing.map(label).join(', ')}`);
  if (extra.length) parts.push(`on the server only: ${extra.map(label).join(', ')}`);
  const fix = missing.length
    ? PUSH
    : 'the server ran migrations this checkout lacks: deploy from the branch that has them ' +
      '(git log -- supabase/migrations), never edit the history table by hand';
  return fail(CHECK, parts.join('; '), fix);
}

export async function checkMigrations(admin: SupabaseClient | string): Promise<Line[]> {
  if (typeof admin === 'string') return [skip(CHECK, `needs an admin: ${admin}`)];
  const { data, error } = await admin.rpc('applied_migrations');
  if (error?.code === FUNCTION_MISSING)
    return [
      fail(
        CHECK,
        'the server has no public.applied_migrations(): missing at least ' +
          '20260101002540_deployment_check',
        PUSH,
      ),
    ];
  if (error) return [fail(CHECK, `applied_migrations(): ${error.message}`, PUSH)];
  return [compareMigrations(repositoryMigrations(), data as Migration[])];
}
