// Builds the two databases (scripts/db-schema/databases.ts) and compares them twice: migra
// (@pgkit/migra, the SQL that turns one into the other) and the catalogue comparison
// (scripts/db-schema/catalog.ts, per object and attribute). Decision 0220.
import { createClient, type Client } from '@pgkit/client';
import { run as migra } from '@pgkit/migra';
import { compareCatalogs, readCatalog, type Difference } from './catalog.ts';
import { buildDatabases, type Sources } from './databases.ts';

export interface Comparison {
  /** Per object: what the catalogue comparison found. */
  differences: Difference[];
  /** migra's SQL turning the migrations' database into the schema files' ('' when none). */
  toSchemas: string;
  /** migra's SQL turning the schema files' database into the migrations' ('' when none). */
  toMigrations: string;
  seconds: number;
}

async function migraSql(from: Client, to: Client): Promise<string> {
  const m = await migra(from, to, { unsafe: true, withPrivileges: true });
  return m.sql.trim();
}

export async function compare(
  repoRoot: string,
  sources: Sources,
  log: (line: string) => void = () => undefined,
): Promise<Comparison> {
  const started = Date.now();
  const dbs = await buildDatabases(repoRoot, sources, log);
  // One client per database for both migra runs (pg-promise warns about duplicates).
  const clients = { migrations: createClient(dbs.migrations), schemas: createClient(dbs.schemas) };
  try {
    const [migrations, schemas, toSchemas, toMigrations] = await Promise.all([
      readCatalog(dbs.migrations),
      readCatalog(dbs.schemas),
      migraSql(clients.migrations, clients.schemas),
      migraSql(clients.schemas, clients.migrations),
    ]);
    return {
      differences: compareCatalogs(migrations, schemas),
      toSchemas,
      toMigrations,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await Promise.all([clients.migrations.end(), clients.schemas.end()]).catch(() => undefined);
    await dbs.stop();
  }
}
