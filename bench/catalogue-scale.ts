// The catalogue at scale (REQ-SCALE-3 to REQ-SCALE-5): at 1,000, 100,000 and 1,000,000 products,
// the storefront's first and deepest page in the database (EXPLAIN ANALYZE as anon, median of 5,
// the old offset query beside the keyset one), a CSV import of 10,000 rows through the real
// functions as a signed-in admin (stage in chunks + one apply), and a CSV export of 100,000 rows
// (time, bytes).
//   npx tsx bench/catalogue-scale.ts [--data-dir DIR] [--sizes 1000,100000]   (a running stack)
// bench/run.ts calls catalogueScale() with its throwaway stack (`npm run bench -- --only scale`).
// Standalone, it appends its own table to bench/RESULTS.md under "Catalogue at scale".
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { seedBulk } from '../scripts/seed-bulk.ts';
import { parseCsv, toCsv } from '../src/features/admin/csv/csvFormat.ts';
import { exportCsv, type PageReader } from '../src/features/admin/csv/exportCsv.ts';
import { checkRows, runImport, stageRows } from '../src/features/admin/csv/importCsv.ts';
import type { Database } from '../src/lib/infra/database.types.ts';
import { STORE_ORDER_SQL, storePageArgs } from '../src/lib/domain/storeOrder.ts';
import { selectList, STORE_PRODUCT_COLUMNS, type StoreProduct } from '../src/lib/domain/tables.ts';
import { nodeClient } from '../stack/client.ts';
import { DEFAULT_DATA_DIR, readState, type StackEnv } from '../stack/stack.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEEDED = 32; // supabase/seed.sql's products
const PAGE = 25; // the storefront asks for 24 + 1
const IMPORT_ROWS = 10_000;
const EXPORT_ROWS = 100_000;

type Row = (section: string, measure: string, value: string) => void;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (n: number) => n.toLocaleString('en-GB');

/** Execution time of a query as anon (EXPLAIN ANALYZE), median of 5 after one warm-up. */
async function explainMs(db: pg.Client, sql: string, params: unknown[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    await db.query('begin');
    await db.query('set local role anon');
    const plan = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze) ${sql}`, params);
    await db.query('rollback');
    const line = plan.rows.map((r) => r['QUERY PLAN']).find((l) => l.startsWith('Execution Time'));
    if (i > 0) times.push(Number(/([\d.]+) ms/.exec(line ?? '')?.[1]));
  }
  return median(times);
}

async function storefrontPages(db: pg.Client, size: string, row: Row) {
  const total = Number((await db.query('select count(*) as n from public.products')).rows[0].n);
  const last = await db.query<{ price: string; title: string; id: string }>(
    `select price, title, id from public.products order by ${STORE_ORDER_SQL} offset $1 limit 1`,
    [total - PAGE],
  );
  const c = last.rows[0]!;
  const keyset = 'select * from public.storefront_page($1, $2, $3, $4::uuid, $5)';
  const offset = `select * from public.products order by ${STORE_ORDER_SQL} offset $1 limit $2`;
  const first = await explainMs(db, keyset, [null, null, null, null, PAGE]);
  const deep = await explainMs(db, keyset, [null, c.price, c.title, c.id, PAGE]);
  const oldDeep = await explainMs(db, offset, [total - PAGE, PAGE]);
  row('scale', `${size}: storefront first page (keyset)`, `${first.toFixed(2)} ms`);
  row('scale', `${size}: storefront deepest page (keyset)`, `${deep.toFixed(2)} ms`);
  row('scale', `${size}: deepest page the old way (offset)`, `${oldDeep.toFixed(2)} ms`);
}

/** A signed-in admin (invite + confirmed account, as scripts/admin-create.ts does). */
async function adminClient(env: StackEnv): Promise<SupabaseClient<Database>> {
  const service = nodeClient(env.API_URL, env.SERVICE_ROLE_KEY);
  const email = `bench-admin-${Date.now().toString(36)}@example.test`;
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  await service.from('admin_invites').insert({ email });
  const { error } = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (error) throw new Error(error.message);
  const client = nodeClient(env.API_URL, env.ANON_KEY) as SupabaseClient<Database>;
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(signIn.error.message);
  return client;
}

async function csvImport(db: pg.Client, admin: SupabaseClient<Database>, size: string, row: Row) {
  const products = Array.from({ length: IMPORT_ROWS }, (_, i) => ({
    title: `Bench Import ${i}`,
    cat: 'Golf',
    price: `£${(i % 500) + 1}.99`,
    com: 'Imported by bench/catalogue-scale.ts',
    image: '/products/golf-balls.svg',
    link: `https://bench-import.example.com/${i}`,
  }));
  const text = toCsv(products, true);
  const t0 = performance.now();
  const parsed = parseCsv(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  const checked = checkRows(parsed.rows);
  const importId = crypto.randomUUID();
  await stageRows(admin, importId, checked.accepted);
  const t1 = performance.now();
  const report = await runImport(admin, importId, { mode: 'add', createCategories: false }, false);
  const t2 = performance.now();
  if (report.added !== IMPORT_ROWS) throw new Error(`import added ${report.added}`);
  row(
    'scale',
    `${size}: CSV import of ${fmt(IMPORT_ROWS)} rows (parse+check+stage / apply / total)`,
    `${((t1 - t0) / 1000).toFixed(1)} s / ${((t2 - t1) / 1000).toFixed(1)} s / ${((t2 - t0) / 1000).toFixed(1)} s`,
  );
  await db.query(
    "delete from public.products where link like 'https://bench-import.example.com/%'",
  );
}

async function csvExport(admin: SupabaseClient<Database>, size: string, row: Row) {
  let read = 0;
  // The app's catalogue reader, stopped after EXPORT_ROWS.
  const reader: PageReader<StoreProduct> = async (after) => {
    if (read >= EXPORT_ROWS) return [];
    const { data, error } = await admin
      .rpc('storefront_page', storePageArgs(null, after, 1000))
      .select(selectList(STORE_PRODUCT_COLUMNS));
    if (error) throw new Error(error.message);
    read += data.length;
    return data;
  };
  const t0 = performance.now();
  const file = await exportCsv(reader);
  const secs = (performance.now() - t0) / 1000;
  const bytes = file.parts.reduce((n, p) => n + Buffer.byteLength(p), 0);
  row(
    'scale',
    `${size}: CSV export of ${fmt(file.rows)} rows`,
    `${secs.toFixed(1)} s, ${(bytes / 2 ** 20).toFixed(1)} MiB`,
  );
}

export async function catalogueScale(
  env: StackEnv,
  row: Row,
  sizes = [1_000, 100_000, 1_000_000],
): Promise<void> {
  const db = new pg.Client({ connectionString: env.DB_URL });
  await db.connect();
  try {
    const admin = await adminClient(env);
    for (const n of sizes) {
      const size = `${fmt(n)} products`;
      const t0 = performance.now();
      await seedBulk(env.DB_URL, n - SEEDED);
      row('scale', `${size}: seed:bulk`, `${((performance.now() - t0) / 1000).toFixed(0)} s`);
      await storefrontPages(db, size, row);
      await csvImport(db, admin, size, row);
      if (n >= EXPORT_ROWS) await csvExport(admin, size, row);
    }
  } finally {
    await db.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dataDir = path.resolve(opt('data-dir') ?? DEFAULT_DATA_DIR);
  const state = readState(dataDir);
  if (!state)
    throw new Error(`no running stack in ${dataDir}: run \`npm start\` or pass --data-dir`);
  const sizes = opt('sizes')?.split(',').map(Number);
  const rows: string[] = [];
  const started = Date.now();
  await catalogueScale(
    state.env,
    (_s, measure, value) => {
      rows.push(`| ${measure} | ${value} |`);
      process.stderr.write(`scale: ${measure} | ${value}\n`);
    },
    sizes,
  );
  const cpus = os.cpus();
  const report = [
    `## Catalogue at scale (REQ-SCALE-4, REQ-SCALE-5), ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    '',
    `Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length}, shared. Took ${Math.round((Date.now() - started) / 1000)} s. Database times: EXPLAIN ANALYZE as anon, median of 5.`,
    '',
    '| measure | value |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
  console.log(report);
  appendFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), `\n${report}`);
}
