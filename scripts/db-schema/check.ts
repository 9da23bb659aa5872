/**
 * `npm run db:schema-check`: the declarative schema files (supabase/schemas/, in config.toml's
 * `[db.migrations] schema_paths` order) must define exactly the database the migrations build
 * (decision 0220). Builds both in a throwaway embedded Postgres (no Docker), then prints every
 * object that differs and how, and the SQL migra would need. Exits 1 on any difference, 0 when
 * they match, 2 when a side does not even apply.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDifference } from './catalog.ts';
import { compare, type Comparison } from './compare.ts';
import { repositorySources, type SqlFile } from './databases.ts';

/** The name a migration would spell for a catalogue object ("function private.f(…)" → f). */
export function searchName(object: string): string {
  const [kind, ...rest] = object.split(' ');
  const name = rest.join(' ');
  const quoted = /^"([^"]+)"/.exec(name)?.[1];
  if (kind === 'policy' && quoted) return quoted;
  if (kind === 'constraint' || kind === 'column') {
    const table = kind === 'column' ? name.split('.').slice(-2, -1)[0] : name.split(' on ').pop();
    return (table ?? name).split('.').pop()!.replace(/"/g, '');
  }
  const bare = name.split(' on ')[0].split('(')[0];
  return bare.split('.').pop()!.replace(/"/g, '');
}

/** The newest migration that names the object: where to look when folding it. */
export function newestMigrationNaming(object: string, migrations: SqlFile[]): string | undefined {
  const needle = searchName(object).toLowerCase();
  return [...migrations].reverse().find((m) => m.sql.toLowerCase().includes(needle))?.name;
}

export function report(c: Comparison, migrations: SqlFile[] = []): { ok: boolean; text: string } {
  const lines: string[] = [];
  for (const d of c.differences) {
    const origin = newestMigrationNaming(d.object, migrations);
    const [first, ...more] = describeDifference(d).split('\n');
    lines.push(`✗ ${first}${origin ? `  [newest migration naming it: ${origin}]` : ''}`, ...more);
  }
  if (c.toMigrations) {
    lines.push(
      '',
      'migra: SQL that would bring the schema files up to the migrations (fold it into supabase/schemas/):',
      c.toMigrations.replace(/^/gm, '    '),
    );
  }
  const ok = c.differences.length === 0 && c.toMigrations === '' && c.toSchemas === '';
  if (ok)
    lines.push(
      `db:schema-check: supabase/schemas/ matches supabase/migrations/ (${c.seconds.toFixed(1)} s)`,
    );
  else
    lines.unshift(
      `db:schema-check: supabase/schemas/ and supabase/migrations/ define different databases ` +
        `(${c.differences.length} object attribute(s) differ; ${c.seconds.toFixed(1)} s).`,
      'Fold the newest migration into the schema files (decision 0220), or run `npm run db:diff -- <name>`',
      'when the schema files are the intended change.',
      '',
    );
  return { ok, text: lines.join('\n') };
}

async function main(): Promise<void> {
  // --root <dir>: another checkout (the tests plant differences in a copy).
  const at = process.argv.indexOf('--root');
  const repoRoot =
    at >= 0
      ? resolve(process.argv[at + 1])
      : resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  let result: Comparison;
  const sources = repositorySources(repoRoot);
  try {
    result = await compare(repoRoot, sources);
  } catch (error) {
    process.stderr.write(
      `db:schema-check could not build the databases: ${(error as Error).message}\n`,
    );
    process.exit(2);
  }
  const { ok, text } = report(result, sources.migrations);
  process.stdout.write(`${text}\n`);
  process.exit(ok ? 0 : 1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
