// The catalogue comparison of decision 0220: every object of a database read from pg_catalog as
// "kind name" → { attribute: text }, so two databases compare object by object and a
// difference names the object and the attribute (a function's whole definition with its body,
// its grants and comment; a policy's expressions; a table's columns, constraints, row-level
// security and grants; the rows of small tables such as storage.buckets or the one-row
// settings). It covers what migra leaves out (grants on functions, policies' roles, comments,
// rows). Role settings (ALTER ROLE … SET) are cluster-wide and not compared: both databases
// live in one cluster.
import pg from 'pg';

export type Catalog = Map<string, Record<string, string>>;

/** Schemas of Postgres itself; everything else (public, private, listing, auth, storage, …) counts. */
const SKIP = `('information_schema')`;
const userNs = (col: string) => `${col} not in ${SKIP} and ${col} not like 'pg\\_%'`;

/** Each query returns rows of (kind, name, attr, value); several rows may share an object. */
const QUERIES: string[] = [
  `select 'schema', n.nspname, 'owner/acl/comment',
          concat_ws(' | ', n.nspowner::regrole, n.nspacl::text, obj_description(n.oid, 'pg_namespace'))
     from pg_namespace n where ${userNs('n.nspname')}`,
  `select 'extension', e.extname, 'schema/version', e.extnamespace::regnamespace::text || ' ' || e.extversion
     from pg_extension e`,
  `select case c.relkind when 'r' then 'table' when 'v' then 'view' when 'm' then 'materialized view'
                         when 'S' then 'sequence' when 'p' then 'table' else 'relation ' || c.relkind::text end,
          format('%I.%I', n.nspname, c.relname), a.attr, a.value
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     cross join lateral (values
       ('owner', c.relowner::regrole::text),
       ('grants', (select string_agg(x::text, ', ' order by x::text) from unnest(c.relacl) x)),
       ('row level security', case when c.relrowsecurity then 'enabled' else 'disabled' end
                              || case when c.relforcerowsecurity then ', forced' else '' end),
       ('options', c.reloptions::text),
       ('comment', obj_description(c.oid, 'pg_class')),
       ('definition', case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end)
     ) a(attr, value)
    where c.relkind in ('r', 'v', 'm', 'S', 'p') and ${userNs('n.nspname')}`,
  `select 'column', format('%I.%I.%I', n.nspname, c.relname, a.attname), x.attr, x.value
     from pg_attribute a join pg_class c on c.oid = a.attrelid
     join pg_namespace n on n.oid = c.relnamespace
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     cross join lateral (values
       ('type', format_type(a.atttypid, a.atttypmod)
                || case when a.attnotnull then ' not null' else '' end
                || case when a.attidentity <> '' then ' identity ' || a.attidentity::text else '' end
                || case when a.attgenerated <> '' then ' generated' else '' end
                || coalesce(' collate ' || nullif(a.attcollation, 0)::regcollation::text, '')),
       ('default', pg_get_expr(d.adbin, d.adrelid)),
       ('position', (select count(*) from pg_attribute b where b.attrelid = a.attrelid
                       and b.attnum > 0 and not b.attisdropped and b.attnum <= a.attnum)::text),
       ('grants', (select string_agg(y::text, ', ' order by y::text) from unnest(a.attacl) y)),
       ('comment', col_description(c.oid, a.attnum))
     ) x(attr, value)
    where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'v', 'm', 'p')
      and ${userNs('n.nspname')}`,
  `select 'constraint', format('%I on %s', co.conname, co.conrelid::regclass), 'definition',
          pg_get_constraintdef(co.oid) || coalesce(' -- ' || obj_description(co.oid, 'pg_constraint'), '')
     from pg_constraint co join pg_namespace n on n.oid = co.connamespace
    where co.conrelid <> 0 and ${userNs('n.nspname')}`,
  `select 'index', format('%I.%I', n.nspname, c.relname), 'definition', pg_get_indexdef(c.oid)
     from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
    where ${userNs('n.nspname')}`,
  `select 'policy', format('%I on %I.%I', p.policyname, p.schemaname, p.tablename), 'definition',
          concat_ws(E'\n', 'as ' || p.permissive, 'for ' || p.cmd, 'to ' || p.roles::text,
                    'using (' || p.qual || ')', 'with check (' || p.with_check || ')')
     from pg_policies p`,
  `select 'trigger', format('%I on %s', t.tgname, t.tgrelid::regclass), 'definition',
          pg_get_triggerdef(t.oid) || ' [' || t.tgenabled::text || ']'
          || coalesce(E'\n-- ' || obj_description(t.oid, 'pg_trigger'), '')
     from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where not t.tgisinternal and ${userNs('n.nspname')}`,
  `select case p.prokind when 'p' then 'procedure' when 'a' then 'aggregate' else 'function' end,
          format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)), x.attr, x.value
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     cross join lateral (values
       ('definition', case when p.prokind <> 'a' then pg_get_functiondef(p.oid) end),
       ('owner', p.proowner::regrole::text),
       ('grants', coalesce((select string_agg(y::text, ', ' order by y::text) from unnest(p.proacl) y),
                           'default (PUBLIC may execute)')),
       ('comment', obj_description(p.oid, 'pg_proc'))
     ) x(attr, value)
    where ${userNs('n.nspname')}
      and not exists (select from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  `select 'type', format_type(t.oid, null), 'definition',
          concat_ws(' ', t.typtype, (select string_agg(e.enumlabel, ',' order by e.enumsortorder)
                                       from pg_enum e where e.enumtypid = t.oid),
                    'owner ' || t.typowner::regrole::text, obj_description(t.oid, 'pg_type'))
     from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where t.typtype in ('e', 'd', 'c') and ${userNs('n.nspname')}
      and (t.typtype <> 'c' or exists (select from pg_class c where c.oid = t.typrelid and c.relkind = 'c'))
      and not exists (select from pg_depend d where d.objid = t.oid and d.deptype = 'e')`,
  `select 'default privileges', format('for %s in %s on %s', d.defaclrole::regrole::text,
          coalesce(d.defaclnamespace::regnamespace::text, 'all schemas'), d.defaclobjtype), 'grants',
          (select string_agg(y::text, ', ' order by y::text) from unnest(d.defaclacl) y)
     from pg_default_acl d`,
  `select 'event trigger', e.evtname, 'definition',
          concat_ws(' ', e.evtevent, e.evtfoid::regproc, e.evtenabled, e.evttags::text)
     from pg_event_trigger e`,
];

/** Rows of every table holding at most this many rows (seed-like rows: buckets, settings). */
const MAX_ROWS = 200;

async function rows(client: pg.Client, catalog: Catalog): Promise<void> {
  const { rows: tables } = await client.query<{ name: string; cols: string | null }>(
    `select format('%I.%I', n.nspname, c.relname) as name,
            string_agg(format('%I', a.attname), ', ' order by a.attnum)
              filter (where a.atttypid not in ('timestamptz'::regtype, 'timestamp'::regtype)) as cols
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind = 'r' and ${userNs('n.nspname')}
      group by n.nspname, c.relname`,
  );
  for (const t of tables) {
    // Timestamps are left out: a default of now() differs between any two builds.
    const { rows: found } = await client.query<{ n: string; body: string | null }>(
      `select count(*)::text as n, string_agg(r::text, E'\n' order by r::text) as body
         from (select ${t.cols ?? '1'} from ${t.name} limit ${MAX_ROWS + 1}) r`,
    );
    const entry = catalog.get(`table ${t.name}`) ?? {};
    entry.rows =
      Number(found[0].n) > MAX_ROWS ? `more than ${MAX_ROWS}` : (found[0].body ?? '(none)');
    catalog.set(`table ${t.name}`, entry);
  }
}

export async function readCatalog(dbUrl: string): Promise<Catalog> {
  const client = new pg.Client({ connectionString: dbUrl });
  client.on('error', () => undefined);
  await client.connect();
  const catalog: Catalog = new Map();
  try {
    for (const q of QUERIES) {
      const { rows: found } = await client.query<string[]>({ text: q, rowMode: 'array' });
      for (const [kind, name, attr, value] of found) {
        const key = `${kind} ${name}`;
        const entry = catalog.get(key) ?? {};
        if (value !== null) entry[attr] = value;
        catalog.set(key, entry);
      }
    }
    await rows(client, catalog);
  } finally {
    await client.end().catch(() => undefined);
  }
  return catalog;
}

export interface Difference {
  object: string;
  /** What differs: "only in the migrations", "only in the schema files" or an attribute. */
  what: string;
  migrations?: string;
  schemas?: string;
  /** For an object on one side only: its definition there. */
  definition?: string;
}

export function compareCatalogs(migrations: Catalog, schemas: Catalog): Difference[] {
  const out: Difference[] = [];
  const keys = [...new Set([...migrations.keys(), ...schemas.keys()])].sort();
  // A table on one side only is one line, with its columns named, not a line per column.
  const oneSided = (key: string) => migrations.has(key) !== schemas.has(key);
  const columnsOf = (table: string, side: Catalog) =>
    [...side.keys()]
      .filter((k) => k.startsWith(`column ${table}.`))
      .map((k) => k.slice(`column ${table}.`.length));
  for (const object of keys) {
    const a = migrations.get(object);
    const b = schemas.get(object);
    const column = /^column (.+)\.[^.]+$/.exec(object);
    if (column && oneSided(`table ${column[1]}`) && oneSided(object)) continue;
    const table = /^table (.+)$/.exec(object)?.[1];
    const columns = table ? columnsOf(table, a ? migrations : schemas).join(', ') : '';
    const detail = a?.definition ?? b?.definition ?? (columns ? `columns: ${columns}` : undefined);
    if (!b) out.push({ object, what: 'only in the migrations', definition: detail });
    else if (!a) out.push({ object, what: 'only in the schema files', definition: detail });
    else
      for (const attr of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
        if (a[attr] !== b[attr])
          out.push({
            object,
            what: attr,
            migrations: a[attr] ?? '(none)',
            schemas: b[attr] ?? '(none)',
          });
  }
  return out;
}

/** A line diff (longest common subsequence): "-" the migrations' line, "+" the schema files'. */
export function lineDiff(migrations: string, schemas: string, context = 2): string {
  const a = migrations.split('\n');
  const b = schemas.split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: { op: ' ' | '-' | '+'; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ op: ' ', line: a[(j++, i++)] });
    else if (j < b.length && (i >= a.length || lcs[i][j + 1] >= lcs[i + 1][j]))
      ops.push({ op: '+', line: b[j++] });
    else ops.push({ op: '-', line: a[i++] });
  }
  const near = (k: number) =>
    ops.slice(Math.max(0, k - context), k + context + 1).some((o) => o.op !== ' ');
  const lines: string[] = [];
  let skipped = false;
  ops.forEach((o, k) => {
    if (near(k)) {
      if (skipped) lines.push('    …');
      lines.push(`    ${o.op} ${o.line}`);
      skipped = false;
    } else skipped = true;
  });
  return lines.join('\n');
}

export function describeDifference(d: Difference): string {
  if (d.migrations === undefined)
    return `${d.object}: ${d.what}${d.definition ? `\n${d.definition.replace(/^/gm, '    ')}` : ''}`;
  const multiline = d.migrations.includes('\n') || (d.schemas ?? '').includes('\n');
  if (multiline)
    return `${d.object}: ${d.what} differs (- migrations, + schema files)\n${lineDiff(d.migrations, d.schemas ?? '')}`;
  return `${d.object}: ${d.what} differs\n    - migrations:   ${d.migrations}\n    + schema files: ${d.schemas}`;
}
