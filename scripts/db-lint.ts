/**
 * Security lint for the database: `npm run db:lint [-- --db-url <postgres url>]`.
 *
 * Runs the Supabase CLI's security advisors (`supabase db advisors --type security`, the
 * splinter lints the dashboard shows) against the given database, then adds the lints that CLI
 * release does not ship (0028/0029: SECURITY DEFINER functions in exposed schemas executable by
 * anon/authenticated), and the parser check of scripts/db-lint-writes.ts: no UPDATE or DELETE
 * without WHERE in the app's functions, which hosted Supabase's `safeupdate` refuses (decision
 * 0201). Prints every finding and exits 1 when there is any, 0 when clean, 2 when the lint itself
 * could not run.
 *
 * The database URL comes from --db-url, else DB_URL, else the default local stack
 * (config.toml [db] port).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { describeWriteFinding, findUnfilteredWrites } from './db-lint-writes.ts';

const execFileAsync = promisify(execFile);

export interface LintFinding {
  name: string;
  level: string;
  detail: string;
  source: 'supabase-cli' | 'extra-sql' | 'parser';
}

/** Schemas PostgREST exposes (config.toml [api] schemas); the "exposed" lints look only here. */
const EXPOSED_SCHEMAS = ['public', 'graphql_public'];

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function supabaseBin(): string {
  const bin = join(repoRoot, 'node_modules', '.bin', 'supabase');
  if (!existsSync(bin)) throw new Error(`Supabase CLI not found at ${bin}; run npm install`);
  return bin;
}

interface CliResult {
  name: string;
  level: string;
  detail: string;
  categories?: string[];
}

async function runCliAdvisors(dbUrl: string): Promise<LintFinding[]> {
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync(
      supabaseBin(),
      [
        'db',
        'advisors',
        `--remote=${dbUrl}`,
        '--type',
        'security',
        '--level',
        'info',
        '--fail-on',
        'none',
        '--output-format',
        'json',
        '--workdir',
        repoRoot,
      ],
      { cwd: repoRoot, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
    ));
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`supabase db advisors failed: ${(e.stderr ?? '').trim() || e.message}`);
  }
  const parsed = JSON.parse(stdout) as { results?: CliResult[] };
  if (!Array.isArray(parsed.results)) {
    throw new Error(`Unexpected output from supabase db advisors: ${stdout.slice(0, 500)}`);
  }
  return parsed.results
    .filter((r) => !r.categories || r.categories.includes('SECURITY'))
    .map((r) => ({ name: r.name, level: r.level, detail: r.detail, source: 'supabase-cli' }));
}

// Splinter's lints 0028/0029, which this CLI release lacks. Same rule: a SECURITY DEFINER
// function in an exposed schema, not owned by an extension, that the role may EXECUTE
// (PUBLIC's default grant counts).
const DEFINER_EXECUTABLE_SQL = `
  select r.rolname as role, n.nspname as schema, p.proname as name,
         pg_get_function_identity_arguments(p.oid) as args
    from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    cross join (values ('anon'), ('authenticated')) as r (rolname)
   where n.nspname = any ($1::text[])
     and p.prosecdef
     and has_function_privilege(r.rolname, p.oid, 'EXECUTE')
     and not exists (select 1 from pg_depend d
                      where d.objid = p.oid and d.classid = 'pg_proc'::regclass and d.deptype = 'e')
   order by 1, 2, 3`;

async function runExtraChecks(dbUrl: string): Promise<LintFinding[]> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      role: string;
      schema: string;
      name: string;
      args: string;
    }>(DEFINER_EXECUTABLE_SQL, [EXPOSED_SCHEMAS]);
    const definers = rows.map((r) => ({
      name: `${r.role}_security_definer_function_executable`,
      level: 'WARN',
      detail: `Function \`${r.schema}.${r.name}(${r.args})\` is SECURITY DEFINER and executable by ${r.role}`,
      source: 'extra-sql' as const,
    }));
    const writes = (await findUnfilteredWrites(client)).map((f) => ({
      name: f.write ? 'unfiltered_write_in_function' : 'function_body_not_parsed',
      level: 'ERROR',
      detail: describeWriteFinding(f),
      source: 'parser' as const,
    }));
    return [...definers, ...writes];
  } finally {
    await client.end();
  }
}

export async function lintDatabase(dbUrl: string): Promise<LintFinding[]> {
  const [cli, extra] = await Promise.all([runCliAdvisors(dbUrl), runExtraChecks(dbUrl)]);
  return [...cli, ...extra];
}

function parseDbUrl(argv: string[]): string {
  const i = argv.findIndex((a) => a === '--db-url' || a.startsWith('--db-url='));
  if (i >= 0) {
    const arg = argv[i] ?? '';
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
    if (!value)
      throw new Error(
        '--db-url needs a value, e.g. --db-url postgresql://postgres:postgres@127.0.0.1:54322/postgres',
      );
    return value;
  }
  return process.env.DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
}

async function main(): Promise<void> {
  let dbUrl: string;
  try {
    dbUrl = parseDbUrl(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const safeUrl = dbUrl.replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@');
  let findings: LintFinding[];
  try {
    findings = await lintDatabase(dbUrl);
  } catch (error) {
    console.error(`db:lint could not run against ${safeUrl}: ${(error as Error).message}`);
    process.exit(2);
  }
  if (findings.length === 0) {
    console.log(`db:lint: no security findings (${safeUrl})`);
    return;
  }
  console.log(`db:lint: ${findings.length} security finding(s) (${safeUrl}):`);
  for (const f of findings) console.log(`  ${f.level.padEnd(5)} ${f.name}: ${f.detail}`);
  process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
