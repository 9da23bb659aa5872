/**
 * `npm run db:fold -- supabase/migrations/<version>_<name>.sql`: where each statement of a
 * migration belongs in supabase/schemas/ (decision 0220), to fold a migration written by hand
 * (or merged from another branch) into the schema files. For every statement it prints one of:
 *   replace  <file>:<line>  the object is defined there: put the migration's text in its place
 *   next to  <file>:<line>  a grant, comment, policy, trigger, index or column of an object there
 *   new                     an object the schema files do not have yet: its domain's file
 *   drop     <file>:<line>  the migration drops it: delete it (and its grants) there
 *   leave out               a data fix (update, delete, insert into a table not in the files,
 *                           select, notify): history only
 * It only reads; `npm run db:schema-check` says when the fold is complete.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'libpg-query';

type Node = Record<string, unknown>;
interface Place {
  file: string;
  line: number;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const names = (list: unknown): string =>
  ((list as { String: { sval: string } }[]) ?? []).map((n) => n.String.sval).join('.');
const qualified = (name: string): string => (name.includes('.') ? name : `public.${name}`);
const relation = (r: unknown): string => {
  const v = r as { schemaname?: string; relname: string };
  return `${v.schemaname ?? 'public'}.${v.relname}`;
};
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the schema files define an object, by the statement that creates it. */
function findDefinition(pattern: RegExp): Place | undefined {
  const dir = resolve(repoRoot, 'supabase/schemas');
  for (const f of readdirSync(dir).sort()) {
    const text = readFileSync(resolve(dir, f), 'utf8');
    const m = pattern.exec(text);
    if (m)
      return { file: `supabase/schemas/${f}`, line: text.slice(0, m.index).split('\n').length };
  }
  return undefined;
}

const definitionOf = {
  function: (n: string) =>
    findDefinition(new RegExp(`^create (or replace )?function ${escape(qualified(n))}\\(`, 'im')),
  table: (n: string) =>
    findDefinition(new RegExp(`^create (unlogged )?(table|view) ${escape(qualified(n))}\\b`, 'im')),
  policy: (n: string) => findDefinition(new RegExp(`^create policy "?${escape(n)}"?\\s`, 'im')),
  trigger: (n: string) => findDefinition(new RegExp(`^create trigger ${escape(n)}\\b`, 'im')),
  index: (n: string) => findDefinition(new RegExp(`^create (unique )?index ${escape(n)}\\b`, 'im')),
  schema: (n: string) =>
    findDefinition(new RegExp(`^create schema (if not exists )?${escape(n)}\\b`, 'im')),
};

const at = (p: Place | undefined) => (p ? `${p.file}:${p.line}` : '');

/** One line of advice for a parsed statement. */
function advise(kind: string, n: Node): string {
  // Platform tables (storage.buckets, storage.objects) are not defined here: their rows and
  // policies go to the storage domain.
  const platform = (what: string): Place | undefined =>
    / storage\./.test(` ${what}`)
      ? { file: 'supabase/schemas/080_storage.sql', line: 1 }
      : undefined;
  const owner = (what: string, place: Place | undefined) =>
    (place ?? platform(what))
      ? `next to  ${at(place ?? platform(what))}  (${what})`
      : `new      (${what}: not in the schema files yet)`;
  const defined = (what: string, place: Place | undefined) =>
    place ? `replace  ${at(place)}  (${what})` : `new      (${what})`;
  switch (kind) {
    case 'CreateFunctionStmt': {
      const name = qualified(names(n.funcname));
      return defined(`function ${name}`, definitionOf.function(name));
    }
    case 'CreateStmt':
      return defined(`table ${relation(n.relation)}`, definitionOf.table(relation(n.relation)));
    case 'ViewStmt':
      return defined(`view ${relation(n.view)}`, definitionOf.table(relation(n.view)));
    case 'CreateSchemaStmt':
      return defined(`schema ${String(n.schemaname)}`, definitionOf.schema(String(n.schemaname)));
    case 'CreatePolicyStmt': {
      const place = definitionOf.policy(String(n.policy_name));
      return place
        ? defined(`policy "${String(n.policy_name)}"`, place)
        : owner(`policy on ${relation(n.table)}`, definitionOf.table(relation(n.table)));
    }
    case 'CreateTrigStmt': {
      const place = definitionOf.trigger(String(n.trigname));
      return place
        ? defined(`trigger ${String(n.trigname)}`, place)
        : owner(`trigger on ${relation(n.relation)}`, definitionOf.table(relation(n.relation)));
    }
    case 'IndexStmt': {
      const place = definitionOf.index(String(n.idxname));
      return place
        ? defined(`index ${String(n.idxname)}`, place)
        : owner(`index on ${relation(n.relation)}`, definitionOf.table(relation(n.relation)));
    }
    case 'AlterTableStmt':
      return owner(
        `alter table ${relation(n.relation)}: fold into its create table`,
        definitionOf.table(relation(n.relation)),
      );
    case 'CommentStmt': {
      const type = String(n.objtype);
      if (type === 'OBJECT_TABLE' || type === 'OBJECT_COLUMN' || type === 'OBJECT_VIEW') {
        const items = (n.object as { List: { items: unknown } }).List.items;
        const parts = names(items).split('.');
        const table = qualified((type === 'OBJECT_COLUMN' ? parts.slice(0, -1) : parts).join('.'));
        return owner(`comment on ${table}`, definitionOf.table(table));
      }
    }
    // falls through: a comment on a function, schema, policy, …
    case 'GrantStmt':
    case 'AlterFunctionStmt': {
      const json = JSON.stringify(n);
      const fn = /"objname":(\[[^\]]*\])/.exec(json)?.[1];
      if (fn && /FUNCTION|PROCEDURE/.test(json)) {
        const name = qualified(names(JSON.parse(fn)));
        return owner(`of function ${name}`, definitionOf.function(name));
      }
      const rel = /"relname":"([^"]+)"(?:[^}]*)/.exec(json);
      const schema = /"schemaname":"([^"]+)"/.exec(json)?.[1];
      if (rel) {
        const name = `${schema ?? 'public'}.${rel[1]}`;
        return owner(`of table ${name}`, definitionOf.table(name));
      }
      return 'next to  the object it names (grant/comment)';
    }
    case 'DropStmt':
      return `drop     (${String(n.removeType).replace('OBJECT_', '').toLowerCase()}): delete it and its grants where it is defined`;
    case 'InsertStmt':
      // insert … values: a row the database needs (a bucket, a one-row settings table).
      return /"valuesLists"/.test(JSON.stringify(n)) || n.selectStmt === undefined
        ? owner(`seed row of ${relation(n.relation)}`, definitionOf.table(relation(n.relation)))
        : 'leave out (data: insert … select)';
    case 'DoStmt':
      return /cron/.test(JSON.stringify(n))
        ? 'next to  its domain (a pg_cron schedule: keep the do block)'
        : 'leave out (a one-off do block)';
    case 'UpdateStmt':
    case 'DeleteStmt':
    case 'SelectStmt':
    case 'NotifyStmt':
      return 'leave out (data fix / reload)';
    default:
      return `by hand  (${kind})`;
  }
}

/** The advice for every statement of a migration, two lines each. */
export async function foldAdvice(file: string): Promise<string[]> {
  const sql = readFileSync(resolve(file), 'utf8');
  const bytes = Buffer.from(sql, 'utf8');
  const { stmts } = (await parse(sql)) as unknown as {
    stmts: { stmt: Record<string, Node>; stmt_location?: number; stmt_len?: number }[];
  };
  return stmts.map((s) => {
    const start = s.stmt_location ?? 0;
    const lines = bytes
      .subarray(start, s.stmt_len ? start + s.stmt_len : undefined)
      .toString('utf8')
      .split('\n');
    const first = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('--'));
    const lineNo = bytes.subarray(0, start).toString('utf8').split('\n').length + first;
    const kind = Object.keys(s.stmt)[0];
    return `  ${advise(kind, s.stmt[kind])}\n      line ${lineNo}: ${lines[first]?.trim()}`;
  });
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: npm run db:fold -- supabase/migrations/<version>_<name>.sql\n');
    process.exit(2);
  }
  process.stdout.write(`Folding ${relative(repoRoot, resolve(file))} into supabase/schemas/:\n`);
  process.stdout.write(`${(await foldAdvice(file)).join('\n')}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
