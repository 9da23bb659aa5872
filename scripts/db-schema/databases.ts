// Two throwaway databases on one embedded Postgres 17 (no Docker): one built from
// supabase/migrations in time order, one from the declarative schema files (decision 0220).
// Both start from the same Supabase-like platform the local stack installs (stack/db/postgres.ts
// installPlatform: roles, auth and storage schemas, supautils' policy grants), made once in a
// template database and copied, so the two differ only by what the repository's SQL does.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parse as parseToml } from 'smol-toml';
import {
  initCluster,
  installPlatform,
  osIdsForPostgres,
  runSql,
  startPostgres,
  DB_PASSWORD,
  SUPERUSER,
} from '../../stack/db/postgres.ts';

export interface SqlFile {
  /** Path relative to the repository root, for messages. */
  name: string;
  sql: string;
}

export interface Sources {
  migrations: SqlFile[];
  schemas: SqlFile[];
}

export interface Databases {
  /** Database URL (as `postgres`) built from the migrations. */
  migrations: string;
  /** Database URL (as `postgres`) built from the schema files. */
  schemas: string;
  stop(): Promise<void>;
}

function read(repoRoot: string, rel: string): SqlFile {
  return { name: rel, sql: readFileSync(path.join(repoRoot, rel), 'utf8') };
}

/** supabase/migrations/<version>_<name>.sql in version order. */
export function migrationFiles(repoRoot: string): SqlFile[] {
  return readdirSync(path.join(repoRoot, 'supabase/migrations'))
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort()
    .map((f) => read(repoRoot, `supabase/migrations/${f}`));
}

/** The schema files in config.toml's `[db.migrations] schema_paths` order (plain paths only). */
export function schemaFiles(repoRoot: string): SqlFile[] {
  const config = parseToml(readFileSync(path.join(repoRoot, 'supabase/config.toml'), 'utf8')) as {
    db?: { migrations?: { schema_paths?: string[] } };
  };
  const paths = config.db?.migrations?.schema_paths ?? [];
  if (paths.length === 0)
    throw new Error('supabase/config.toml lists no [db.migrations] schema_paths');
  return paths.map((p) => read(repoRoot, path.join('supabase', p)));
}

export function repositorySources(repoRoot: string): Sources {
  return { migrations: migrationFiles(repoRoot), schemas: schemaFiles(repoRoot) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

function url(port: number, user: string, db: string): string {
  return `postgresql://${user}:${DB_PASSWORD}@127.0.0.1:${port}/${db}`;
}

/** Runs each file as the `postgres` role (as `supabase db push` does), naming the failing one. */
async function apply(dbUrl: string, files: SqlFile[]): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for (const file of files) {
      try {
        await client.query(`begin;\n${file.sql}\n;commit;`);
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        const e = error as { message: string; position?: string };
        const at = e.position ? ` (at character ${Number(e.position) - 7})` : '';
        throw new Error(`${file.name} failed to apply: ${e.message}${at}`);
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function untilAlone(admin: string, timeoutMs = 5000): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  client.on('error', () => undefined);
  try {
    await client.connect();
    for (const until = Date.now() + timeoutMs; Date.now() < until;) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      if (rows[0].n === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch {
    // the server is gone already
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Starts a throwaway cluster and builds both databases. `autoExposeNewTables` follows
 * config.toml's `[api] auto_expose_new_tables` as the stack does (unset: true).
 */
export async function buildDatabases(
  repoRoot: string,
  sources: Sources,
  log: (line: string) => void = () => undefined,
): Promise<Databases> {
  const root = mkdtempSync(path.join(tmpdir(), 'mar-db-schema-'));
  const pgdata = path.join(root, 'pgdata');
  const logFile = path.join(root, 'postgres.log');
  const ids = await osIdsForPostgres();
  let server: Awaited<ReturnType<typeof startPostgres>> | undefined;
  let admin = '';
  const stop = async () => {
    // Pools (migra's) may still be closing their sockets: a shutdown would hit them with an
    // error event nobody listens to. Then an immediate shutdown: the data is thrown away.
    if (admin) await untilAlone(admin);
    await server?.stop('SIGQUIT').catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await initCluster(pgdata, logFile, ids);
    const port = await freePort();
    server = await startPostgres(pgdata, port, logFile, ids);
    log(`throwaway Postgres on port ${port}`);
    admin = url(port, SUPERUSER, 'postgres');
    const config = parseToml(readFileSync(path.join(repoRoot, 'supabase/config.toml'), 'utf8')) as {
      api?: { auto_expose_new_tables?: boolean };
    };
    await installPlatform(admin, {
      repoRoot,
      isNew: true,
      autoExposeNewTables: config.api?.auto_expose_new_tables ?? true,
      log,
    });
    for (const db of ['from_migrations', 'from_schemas']) {
      await runSql(admin, `create database ${db} template postgres owner postgres`);
    }
    const dbs = {
      migrations: url(port, 'postgres', 'from_migrations'),
      schemas: url(port, 'postgres', 'from_schemas'),
    };
    await Promise.all([
      apply(dbs.migrations, sources.migrations),
      apply(dbs.schemas, sources.schemas),
    ]);
    return { ...dbs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
