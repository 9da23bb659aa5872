// The activity log at 100,000 entries: on a throwaway stack it seeds 100,000 entries (SQL as the
// owner; the API cannot write the log), then times the Activity tab's queries as an admin, with
// RLS applied: inside Postgres (EXPLAIN ANALYZE execution time) and over HTTP through the
// gateway and PostgREST (the request the SPA sends). Pages are keyset pages of 26 rows (25 shown,
// one to know whether there is more), newest first: the first page, filtered pages (admin, kind,
// product) and a page 50,000 entries deep. It also reads, from EXPLAIN ANALYZE, the time the
// statement-level log trigger takes in a bulk insert of 10,000 products (as a CSV import does).
// Prints a table and appends it to bench/RESULTS.md. Run: npm run bench:activity-log
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findFreePortBase, startStack } from '../stack/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ENTRIES = 100_000;
const RUNS = 21;
const BULK = 10_000;
const BULK_RUNS = 3;
interface BulkPlan {
  'Execution Time': number;
  Triggers: { 'Trigger Name': string; Time: number; Calls: number }[];
}
const COLUMNS = 'id,created_at,actor,actor_email,kind,product_id,subject,before,after';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(2)} ms`;

const root = mkdtempSync(path.join(tmpdir(), 'mar-activity-bench-'));
const stack = await startStack({ portBase: await findFreePortBase(), dataDir: root });
const db = new pg.Client({ connectionString: stack.env.DB_URL });
try {
  const env = stack.env;
  const service = { apikey: env.SERVICE_ROLE_KEY, authorization: `Bearer ${env.SERVICE_ROLE_KEY}` };
  const email = 'bench-log-admin@example.test';
  const password = 'bench-password-1';
  for (const [route, body] of [
    ['/rest/v1/admin_invites', { email }],
    ['/auth/v1/admin/users', { email, password, email_confirm: true }],
  ] as const) {
    const res = await fetch(`${env.API_URL}${route}`, {
      method: 'POST',
      headers: { ...service, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  }
  const signIn = await fetch(`${env.API_URL}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: env.ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    sub: string;
  };

  await db.connect();
  // 100,000 entries: 8 actors (the bench admin one of them, and "system"), every kind, product
  // entries spread over 2,000 products.
  const t0 = performance.now();
  await db.query(
    `insert into public.activity_log (created_at, actor, actor_email, kind, product_id, subject,
                                      before, after)
     select now() - make_interval(secs => $1 - g),
            case g % 8 when 0 then null when 1 then $2::uuid
                       else ('00000000-0000-4000-8000-00000000000' || (g % 8))::uuid end,
            case g % 8 when 0 then null else 'admin' || (g % 8) || '@example.test' end,
            k.kind,
            case when k.kind like 'product%'
                 then ('00000000-0000-4000-8000-' || lpad((g % 2000)::text, 12, '0'))::uuid end,
            'Bench subject ' || (g % 2000),
            case when k.kind like '%changed' then jsonb_build_object('price', '£' || g) end,
            case when k.kind like '%changed' then jsonb_build_object('price', '£' || (g + 1))
                 when k.kind like '%added' then jsonb_build_object('title', 'Bench ' || g) end
       from generate_series(1, $1) g
       cross join lateral (
         select (array['product_added', 'product_changed', 'product_changed', 'product_changed',
                       'product_deleted', 'category_added', 'category_changed', 'admin_invited',
                       'admin_confirmed', 'invite_withdrawn'])[1 + g % 10] as kind
       ) k`,
    [ENTRIES, claims.sub],
  );
  await db.query('analyze public.activity_log');
  const seedMs = performance.now() - t0;
  const [{ id: deepCursor }] = (
    await db.query<{ id: string }>(
      'select id from public.activity_log order by id desc offset 50000 limit 1',
    )
  ).rows as [{ id: string }];
  const product = '00000000-0000-4000-8000-000000000042';

  const pages: { name: string; where: string; params: string }[] = [
    { name: 'first page, no filter', where: '', params: '' },
    { name: 'filter: admin', where: `actor = '${claims.sub}'`, params: `&actor=eq.${claims.sub}` },
    { name: 'filter: kind', where: `kind = 'product_deleted'`, params: '&kind=eq.product_deleted' },
    {
      name: 'filter: product',
      where: `product_id = '${product}'`,
      params: `&product_id=eq.${product}`,
    },
    {
      name: 'admin + kind',
      where: `actor = '${claims.sub}' and kind = 'product_changed'`,
      params: `&actor=eq.${claims.sub}&kind=eq.product_changed`,
    },
    { name: 'page 50,000 deep', where: `id < ${deepCursor}`, params: `&id=lt.${deepCursor}` },
  ];

  async function inDb(where: string): Promise<{ times: number[]; plan: string }> {
    const times: number[] = [];
    let plan = '';
    await db.query('begin');
    await db.query('set local role authenticated');
    await db.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
    for (let i = 0; i < RUNS; i++) {
      const { rows } = await db.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, format text) select ${COLUMNS} from public.activity_log
          ${where ? `where ${where}` : ''} order by id desc limit 26`,
      );
      plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      times.push(Number(/Execution Time: ([0-9.]+)/.exec(plan)![1]));
    }
    await db.query('rollback');
    return { times, plan };
  }

  async function overHttp(params: string): Promise<number[]> {
    const url = `${env.API_URL}/rest/v1/activity_log?select=${COLUMNS}&order=id.desc&limit=26${params}`;
    const headers = { apikey: env.ANON_KEY, authorization: `Bearer ${token}` };
    const times: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const t = performance.now();
      const res = await fetch(url, { headers });
      const rows = (await res.json()) as unknown[];
      if (i >= 3) times.push(performance.now() - t); // the first 3 warm connections and caches
      if (!res.ok || rows.length === 0)
        throw new Error(`${url}: ${res.status}, ${rows.length} rows`);
    }
    return times;
  }

  const rows: string[][] = [['query (26 rows, newest first)', 'in Postgres', 'over HTTP']];
  const plans: string[] = [];
  for (const page of pages) {
    const { times, plan } = await inDb(page.where);
    const http = await overHttp(page.params);
    rows.push([page.name, ms(median(times)), ms(median(http))]);
    plans.push(`plan (${page.name}):\n${plan.replace(/^/gm, '    ')}`);
  }

  // The trigger's cost on a bulk insert of 10,000 products in one statement (as a CSV import
  // does): EXPLAIN ANALYZE reports the time spent in each trigger, so the log's share is read
  // directly instead of as the difference of two noisy totals.
  await db.query("insert into public.catagories (title) values ('Bench Bulk')");
  const totals: number[] = [];
  const logTimes: number[] = [];
  for (let i = 0; i < BULK_RUNS; i++) {
    const { rows: explained } = await db.query<{ 'QUERY PLAN': BulkPlan[] }>(
      `explain (analyze, format json)
       insert into public.products (title, cat, image, price, com, link)
       select 'Bench bulk ' || g, 'Bench Bulk', '/products/match-football.svg', '£' || g,
              'Bench product', 'https://shop.example.com/bench'
         from generate_series(1, $1) g`,
      [BULK],
    );
    const plan = explained[0]!['QUERY PLAN'][0]!;
    totals.push(plan['Execution Time']);
    logTimes.push(plan.Triggers.find((t) => t['Trigger Name'] === 'products_log_insert')!.Time);
    // Removed without logging 10,000 deletions, so every run starts from the same log.
    await db.query('alter table public.products disable trigger products_log_delete');
    await db.query("delete from public.products where cat = 'Bench Bulk'");
    await db.query('alter table public.products enable trigger products_log_delete');
  }
  const logMs = median(logTimes);

  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  const report = [
    `## ${new Date().toISOString().slice(0, 19)}Z (activity log: bench/activity-log.ts)`,
    '',
    `Machine: ${cpus().length} CPUs (load average ${loadavg()[0]!.toFixed(1)}), Node ${process.versions.node}. ${ENTRIES.toLocaleString('en-GB')} ` +
      `entries (seeded in ${(seedMs / 1000).toFixed(1)} s), as an admin with RLS; medians of ${RUNS} runs.`,
    '',
    line(rows[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
    '',
    `Bulk insert of ${BULK.toLocaleString('en-GB')} products in one statement, median of ${BULK_RUNS}: ` +
      `${ms(median(totals))} in all, of which the log trigger ${ms(logMs)} ` +
      `(${((logMs * 1000) / BULK).toFixed(1)} µs per entry, one trigger call).`,
    '',
    '<details><summary>Plans</summary>',
    '',
    '```',
    ...plans,
    '```',
    '',
    '</details>',
    '',
  ].join('\n');
  console.log(report);
  if (!process.argv.includes('--no-write')) {
    appendFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), `\n${report}\n`);
  }
} finally {
  await db.end().catch(() => undefined);
  await stack.stop();
  rmSync(root, { recursive: true, force: true });
}
