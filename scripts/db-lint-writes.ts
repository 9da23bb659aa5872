/**
 * db:lint's parser check (docs/decisions/0201): no UPDATE or DELETE without WHERE in any function
 * an API request can run.
 *
 * Hosted Supabase loads the `safeupdate` library for the Data API's roles (authenticator, and so
 * anon, authenticated and service_role after PostgREST's SET ROLE). It refuses, with SQLSTATE 21000
 * "UPDATE requires a WHERE clause" / "DELETE requires a WHERE clause", every UPDATE or DELETE
 * whose WHERE is missing, in data-modifying CTEs too, also inside the functions and triggers a
 * request runs. The local Postgres has no such library, so such a statement passes every local
 * test and fails on hosted. This check finds them by parsing with PostgreSQL's own parser
 * (libpg_query): SQL bodies with parse(), PL/pgSQL bodies with parsePlPgSQL() and then every
 * embedded statement with parse(), plus the literal text of dynamic EXECUTE where it is a string
 * constant or a format() pattern.
 *
 * Rule (conservative, no reachability analysis): every SQL and PL/pgSQL function in the app's
 * schemas counts as reachable by an API role. That is every schema except Postgres' own and
 * the platform's (PLATFORM_SCHEMAS: auth, storage, extensions… whose functions Supabase ships), and
 * except functions owned by an extension. A statement meant for every row says so: `where true`.
 */
import { loadModule, parsePlPgSQLSync, parseSync } from 'libpg-query';
import type pg from 'pg';

/** Schemas whose functions the platform (or Postgres) ships; everything else is the app's. */
export const PLATFORM_SCHEMAS = [
  'pg_catalog',
  'information_schema',
  'pg_toast',
  'auth',
  'storage',
  'extensions',
  'graphql',
  'graphql_public',
  'realtime',
  '_realtime',
  'vault',
  'pgsodium',
  'pgsodium_masks',
  'net',
  'supabase_functions',
  'supabase_migrations',
  'cron',
  'pgbouncer',
  '_analytics',
];

/** The roles safeupdate applies to that may be granted EXECUTE (shown in the finding). */
const API_ROLES = ['anon', 'authenticated', 'service_role'];

export interface UnfilteredWrite {
  command: 'UPDATE' | 'DELETE';
  table: string;
  /** Line in the function body (1 = the line the body starts on), when known. */
  line: number | null;
  /** True when found in the text of a dynamic EXECUTE. */
  dynamic: boolean;
}

interface RangeVar {
  schemaname?: string;
  relname?: string;
  location?: number;
}

type Found = Omit<UnfilteredWrite, 'line' | 'dynamic'> & { location: number };

function located(f: Found, line: number | null, dynamic: boolean): UnfilteredWrite {
  return { command: f.command, table: f.table, line, dynamic };
}

function isObject(node: unknown): node is Record<string, unknown> {
  return typeof node === 'object' && node !== null;
}

/** Every UpdateStmt/DeleteStmt without whereClause anywhere in a parse tree. */
function findInTree(node: unknown, out: Found[]): void {
  if (Array.isArray(node)) {
    for (const child of node) findInTree(child, out);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'UpdateStmt' || key === 'DeleteStmt') && isObject(value)) {
      if (value.whereClause === undefined) {
        const rel = (value.relation ?? {}) as RangeVar;
        out.push({
          command: key === 'UpdateStmt' ? 'UPDATE' : 'DELETE',
          table: [rel.schemaname, rel.relname].filter(Boolean).join('.'),
          location: rel.location ?? 0,
        });
      }
    }
    findInTree(value, out);
  }
}

function lineAt(text: string, offset: number): number {
  return text.slice(0, Math.max(0, offset)).split('\n').length;
}

/** String constants of an expression (the possible texts of a dynamic EXECUTE). */
function stringConstants(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const child of node) stringConstants(child, out);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'A_Const' && isObject(value) && isObject(value.sval)) {
      const text = value.sval.sval;
      if (typeof text === 'string') out.push(text);
    }
    stringConstants(value, out);
  }
}

/** Writes in a dynamic statement's text, as far as it is literal (format() holes filled in). */
function findInDynamic(expr: string): Found[] {
  const texts: string[] = [];
  try {
    stringConstants(parseSync(`select ${expr}`), texts);
  } catch {
    return [];
  }
  const found: Found[] = [];
  for (const text of texts) {
    // %s, %I, %L (and %1$s …) of format(): an identifier stands in for whatever fills them.
    const filled = text.replace(/%(\d+\$)?-?\d*[sIL]/g, 'x').replace(/%%/g, '%');
    try {
      findInTree(parseSync(filled), found);
    } catch {
      // A fragment, not a statement: nothing to judge.
    }
  }
  return found;
}

/** UPDATE/DELETE without WHERE in the body of a LANGUAGE sql function (or any SQL text). */
export function unfilteredWritesInSql(body: string): UnfilteredWrite[] {
  const found: Found[] = [];
  findInTree(parseSync(body), found);
  return found.map((f) => located(f, lineAt(body, f.location), false));
}

// Statement kinds whose `query`/`dynquery` expression is the text of a dynamic statement.
const DYNAMIC: Record<string, string> = {
  PLpgSQL_stmt_dynexecute: 'query',
  PLpgSQL_stmt_dynfors: 'query',
  PLpgSQL_stmt_return_query: 'dynquery',
  PLpgSQL_stmt_open: 'dynquery',
};

/**
 * UPDATE/DELETE without WHERE in a PL/pgSQL function, given as its CREATE FUNCTION statement
 * (pg_get_functiondef). Every embedded SQL statement (PLpgSQL_expr in the default parse mode) is
 * parsed; expressions and assignments cannot hold a data-modifying statement.
 */
export function unfilteredWritesInPlpgsql(createFunction: string): UnfilteredWrite[] {
  const out: UnfilteredWrite[] = [];
  const visit = (node: unknown, line: number | null, dynamicKey: string | null): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, line, dynamicKey);
      return;
    }
    if (!isObject(node)) return;
    const here = typeof node.lineno === 'number' ? node.lineno : line;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'PLpgSQL_expr' && isObject(value) && typeof value.query === 'string') {
        const mode = typeof value.parseMode === 'number' ? value.parseMode : 0;
        if (dynamicKey === 'here') {
          for (const f of findInDynamic(value.query)) out.push(located(f, here, true));
        } else if (mode === 0) {
          const found: Found[] = [];
          findInTree(parseSync(value.query), found);
          for (const f of found) out.push(located(f, here, false));
        }
        continue;
      }
      const stmtDynamicKey = DYNAMIC[key];
      if (stmtDynamicKey && isObject(value)) {
        const stmtLine = typeof value.lineno === 'number' ? value.lineno : here;
        for (const [k, v] of Object.entries(value))
          visit(v, stmtLine, k === stmtDynamicKey ? 'here' : null);
        continue;
      }
      visit(value, here, dynamicKey === 'here' ? null : dynamicKey);
    }
  };
  visit(parsePlPgSQLSync(createFunction), null, null);
  return out;
}

export interface WriteFinding {
  fn: string;
  callers: string[];
  write: UnfilteredWrite | null;
  /** Set when the body could not be parsed (a finding too: nothing is skipped unseen). */
  parseError?: string;
}

const FUNCTIONS_SQL = `
  select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as fn,
         l.lanname as language,
         case when l.lanname = 'plpgsql' or p.prosqlbody is not null
              then pg_get_functiondef(p.oid) else p.prosrc end as source,
         array(select r from unnest($2::text[]) as r
                where has_function_privilege(r, p.oid, 'EXECUTE')) as callers
    from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    join pg_language l on l.oid = p.prolang
   where l.lanname in ('sql', 'plpgsql')
     and p.prokind in ('f', 'p')
     and n.nspname <> all ($1::text[])
     and n.nspname !~ '^pg_(toast_)?temp_'
     and not exists (select 1 from pg_depend d
                      where d.objid = p.oid and d.classid = 'pg_proc'::regclass and d.deptype = 'e')
   order by 1`;

/** Every unfiltered UPDATE/DELETE in the app's functions of the connected database. */
export async function findUnfilteredWrites(client: pg.Client): Promise<WriteFinding[]> {
  await loadModule();
  const { rows } = await client.query<{
    fn: string;
    language: string;
    source: string;
    callers: string[];
  }>(FUNCTIONS_SQL, [PLATFORM_SCHEMAS, API_ROLES]);
  const findings: WriteFinding[] = [];
  for (const row of rows) {
    try {
      const writes =
        row.language === 'plpgsql'
          ? unfilteredWritesInPlpgsql(row.source)
          : unfilteredWritesInSql(row.source);
      for (const write of writes) findings.push({ fn: row.fn, callers: row.callers, write });
    } catch (error) {
      findings.push({
        fn: row.fn,
        callers: row.callers,
        write: null,
        parseError: (error as Error).message,
      });
    }
  }
  return findings;
}

export function describeWriteFinding(f: WriteFinding): string {
  const who =
    f.callers.length > 0
      ? `executable by ${f.callers.join(', ')}`
      : 'no API role may execute it directly; counted all the same, decision 0201';
  if (!f.write)
    return `Function \`${f.fn}\` (${who}) could not be parsed, so its writes are unchecked: ${f.parseError}`;
  const where = f.write.line === null ? '' : ` at body line ${f.write.line}`;
  const dyn = f.write.dynamic ? ' (in dynamic SQL)' : '';
  return (
    `Function \`${f.fn}\` (${who}) runs \`${f.write.command === 'DELETE' ? 'DELETE FROM' : 'UPDATE'} ${f.write.table}\`${dyn}${where} ` +
    `without a WHERE clause; hosted Supabase's safeupdate refuses it with 21000 for every API ` +
    `request (write \`where true\` when every row is meant)`
  );
}
