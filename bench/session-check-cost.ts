// What the live-session check in private.is_admin() costs on a catalogue write. On a throwaway
// stack it times product price updates through the gateway and PostgREST with an admin's token,
// and 1,000 calls of is_admin() inside Postgres, once with the current function (admin row AND
// live session) and once with the earlier one (admin row only), in alternating rounds so drift
// on a shared machine hits both alike. Prints a table and appends it to bench/RESULTS.md.
// Run: npm run bench:session-cost [-- --updates 300]
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findFreePortBase, startStack, type StackEnv } from '../stack/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const argIndex = process.argv.indexOf('--updates');
const UPDATES = argIndex > 0 ? Number(process.argv[argIndex + 1]) : 300;
const ROUNDS = 3;

/** The function before the session check (20260101000100_admin_model.sql). */
const ROW_ONLY = `create or replace function private.is_admin() returns boolean language sql stable
  security definer set search_path = '' as $$
  select exists (select 1 from public.admins a where a.user_id = (select auth.uid())); $$`;

async function call(env: StackEnv, key: string, token: string, route: string, init: RequestInit) {
  const res = await fetch(`${env.API_URL}${route}`, {
    ...init,
    headers: {
      apikey: key,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  if (!res.ok) throw new Error(`${init.method} ${route}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const root = mkdtempSync(path.join(tmpdir(), 'mar-session-bench-'));
const stack = await startStack({ portBase: await findFreePortBase(), dataDir: root });
const db = new pg.Client({ connectionString: stack.env.DB_URL });
try {
  const env = stack.env;
  const svc = (route: string, init: RequestInit) =>
    call(env, env.SERVICE_ROLE_KEY, env.SERVICE_ROLE_KEY, route, init);
  const email = 'bench-admin@example.test';
  const password = 'bench-password-1';
  await svc('/rest/v1/admin_invites', { method: 'POST', body: JSON.stringify({ email }) });
  await svc('/auth/v1/admin/users', {
    method: 'POST',
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  const signIn = await fetch(`${env.API_URL}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: env.ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as object;

  await svc('/rest/v1/catagories', { method: 'POST', body: JSON.stringify({ title: 'Bench' }) });
  const [product] = (await call(
    env,
    env.SERVICE_ROLE_KEY,
    env.SERVICE_ROLE_KEY,
    '/rest/v1/products',
    {
      method: 'POST',
      headers: { prefer: 'return=representation' },
      body: JSON.stringify({
        title: 'Bench Ball',
        cat: 'Bench',
        price: '£1.00',
        com: 'Bench product',
        image: '/products/match-football.svg',
        link: 'https://shop.example.com/bench',
      }),
    },
  )) as { id: string }[];

  await db.connect();
  const { rows: current } = await db.query<{ def: string }>(
    "select pg_get_functiondef('private.is_admin()'::regprocedure) as def",
  );
  const withSession = current[0]!.def;

  async function updates(n: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const res = await fetch(`${env.API_URL}/rest/v1/products?id=eq.${product!.id}`, {
        method: 'PATCH',
        headers: {
          apikey: env.ANON_KEY,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          prefer: 'return=representation',
        },
        body: JSON.stringify({ price: `£${i}.00` }),
      });
      const rows = (await res.json()) as unknown[];
      times.push(performance.now() - t0);
      if (rows.length !== 1) throw new Error('the admin update changed no row');
    }
    return times;
  }

  /** Execution time of 1,000 is_admin() calls as the admin's request, from EXPLAIN ANALYZE. */
  async function thousandCalls(): Promise<number> {
    await db.query('begin');
    await db.query('set local role authenticated');
    await db.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
    const { rows } = await db.query<{ 'QUERY PLAN': { 'Execution Time': number }[] }>(
      // In the target list, so it runs once per row (a WHERE without columns runs it only once).
      'explain (analyze, format json) select sum(case when private.is_admin() then 1 else 0 end) ' +
        'from generate_series(1, 1000) g',
    );
    await db.query('rollback');
    return rows[0]!['QUERY PLAN'][0]!['Execution Time'];
  }

  const figures = {
    session: { w: [] as number[], f: [] as number[] },
    row: { w: [] as number[], f: [] as number[] },
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of ['session', 'row'] as const) {
      await db.query(variant === 'session' ? withSession : ROW_ONLY);
      await updates(20); // warm-up: plan caches and connections
      figures[variant].w.push(...(await updates(Math.ceil(UPDATES / ROUNDS))));
      figures[variant].f.push(await thousandCalls());
    }
  }
  await db.query(withSession);

  const ms = (x: number) => `${x.toFixed(2)} ms`;
  const rows = [
    ['measure', 'admin row only', 'admin row + live session', 'difference'],
    ...[
      ['product update via gateway, median', median(figures.row.w), median(figures.session.w)],
      [
        '1,000 is_admin() calls in Postgres, median',
        median(figures.row.f),
        median(figures.session.f),
      ],
    ].map(([name, a, b]) => [
      name as string,
      ms(a as number),
      ms(b as number),
      ms((b as number) - (a as number)),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  const report = [
    `## ${new Date().toISOString().slice(0, 19)}Z (session check cost: bench/session-check-cost.ts)`,
    '',
    `Machine: ${cpus().length} CPUs, Node ${process.versions.node}. ${ROUNDS} alternating rounds, ` +
      `${UPDATES} updates per variant in all.`,
    '',
    line(rows[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
    '',
  ].join('\n');
  console.log(report);
  appendFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), `${report}\n`);
} finally {
  await db.end().catch(() => undefined);
  await stack.stop();
  rmSync(root, { recursive: true, force: true });
}
