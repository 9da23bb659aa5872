// Link health (REQ-INS-4):
// 1. A check of 1,000 seller links against a local server where 5% never answer, run the way the
//    schedule runs it (the real `link-health` function through the gateway, "due" batches of 200
//    with the service role key, one after another): total time, and peak memory (VmHWM) of the
//    edge-functions runtime against its resident size before.
// 2. The storefront's first page at 100,000 products with "hide products with broken seller
//    links" on and 1,000 broken links recorded, against the same query with it off: EXPLAIN
//    ANALYZE as the anon role (the read policy's init plan is the only difference).
//
//   npm run bench -- --only link-health          (from bench/run.ts)
//   npx tsx bench/link-health.ts [--no-write] [--links 1000] [--products 100000]
// Own throwaway stack; prints a table and appends it to bench/RESULTS.md under "Link health".
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { seedBulk } from '../scripts/seed-bulk.ts';
import { findFreePortBase, startStack } from '../stack/stack.ts';
import { startLinkServer } from '../tests/support/link-servers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const LINKS = Number(opt('links') ?? 1000);
const PRODUCTS = Number(opt('products') ?? 100_000);
const HANG_EVERY = 20; // 5%
const BATCH = 200; // as the hosted job (private.link_health_tick)
const write = !argv.includes('--no-write');
const log = (line: string) => process.stderr.write(`link-health: ${line}\n`);
const rows: [string, string][] = [];
const row = (measure: string, value: string) => {
  rows.push([measure, value]);
  log(`${measure}: ${value}`);
};

/** kB of a /proc/<pid>/status field (VmRSS: now, VmHWM: peak). */
function procKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
    readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  return m ? Number(m[1]) : NaN;
}
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'mar-bench-links-'));
const site = await startLinkServer();
const stack = await startStack({
  portBase: await findFreePortBase(),
  dataDir: path.join(tmp, 'stack'),
  functionEnv: { LINK_HEALTH_ALLOW_LOOPBACK: '1' },
  log: (line) => log(`stack: ${line}`),
});
const db = new pg.Client({ connectionString: stack.env.DB_URL });
await db.connect();
try {
  // Only the bench's products (the seed's links name a host on the internet).
  await db.query('delete from public.products where true');
  await db.query(
    `insert into public.catagories (title) values ('Link Bench') on conflict do nothing`,
  );
  await db.query(
    `insert into public.products (title, cat, price, com, image, link)
     select 'Link bench ' || n, 'Link Bench', '£' || n, 'Link health bench product',
            '/products/match-football.svg',
            $1 || case when n % $2 = 0 then '/hang?n=' else '/ok?n=' end || n
       from generate_series(1, $3) n`,
    [site.origin, HANG_EVERY, LINKS],
  );

  const pid = stack.processes().functions!;
  // Loads the function once (its first request compiles it), so start-up is not in the figure.
  await fetch(`${stack.env.API_URL}/functions/v1/link-health`, { method: 'OPTIONS' });
  const rssBefore = procKb(pid, 'VmRSS');
  const started = Date.now();
  let checked = 0;
  for (let run = 0; checked < LINKS && run < Math.ceil(LINKS / BATCH) + 1; run++) {
    const res = await fetch(`${stack.env.API_URL}/functions/v1/link-health`, {
      method: 'POST',
      headers: {
        apikey: stack.env.SERVICE_ROLE_KEY,
        authorization: `Bearer ${stack.env.SERVICE_ROLE_KEY}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ mode: 'due', limit: BATCH }),
    });
    if (!res.ok) throw new Error(`link-health answered ${res.status}: ${await res.text()}`);
    checked += ((await res.json()) as { checked: number }).checked;
  }
  const totalMs = Date.now() - started;
  const peak = procKb(pid, 'VmHWM');
  const { rows: counts } = await db.query<{ status: string; n: string }>(
    'select status, count(*) n from public.link_checks group by 1 order by 1',
  );
  row(
    `${LINKS} links (${100 / HANG_EVERY}% hang), batches of ${BATCH}: total`,
    `${(totalMs / 1000).toFixed(1)} s`,
  );
  row('results', counts.map((c) => `${c.status} ${c.n}`).join(', '));
  row('functions runtime resident before', mb(rssBefore));
  row('functions runtime peak resident (VmHWM)', mb(peak));

  // 2. The storefront's first page with the hide choice, at PRODUCTS products.
  await db.query('delete from public.link_checks where true');
  await db.query(`delete from public.products where cat = 'Link Bench'`);
  const total = await seedBulk(stack.env.DB_URL, PRODUCTS, log);
  log(`catalogue: ${total} products`);
  await db.query(
    `insert into public.link_checks (product_id, kind, url, status, http_code)
     select id, 'link', link, 'broken', 404 from public.products order by id limit $1`,
    [Math.round(total / 100)],
  );
  await db.query('analyze public.products, public.link_checks');
  const firstPage = async (hide: boolean) => {
    await db.query('update public.link_health_settings set hide_broken_links = $1 where true', [
      hide,
    ]);
    await db.query('begin');
    try {
      await db.query(`set local role anon`);
      const times: number[] = [];
      let plan = '';
      for (let i = 0; i < 5; i++) {
        const { rows: r } = await db.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, costs off)
           select p.* from public.products p where p.price_value is not null
            order by p.price_value, p.title, p.id limit 25`,
        );
        plan = r.map((x) => x['QUERY PLAN']).join('\n');
        times.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]));
      }
      times.sort((a, b) => a - b);
      row(
        `storefront first page at ${total.toLocaleString('en-GB')} products, hide ${hide ? 'on (1% broken)' : 'off'}: median`,
        `${times[2]!.toFixed(2)} ms`,
      );
      log(plan);
      return plan;
    } finally {
      await db.query('rollback');
    }
  };
  await firstPage(false);
  const plan = await firstPage(true);
  row('plan with hide on uses the price index', String(/products_price_order_idx/.test(plan)));
} finally {
  await db.end();
  await stack.stop();
  await site.close();
  rmSync(tmp, { recursive: true, force: true });
}

const report = [
  `## Link health, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
  '',
  `Machine: ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.versions.node}.`,
  '',
  '| measure | value |',
  '|---|---|',
  ...rows.map(([m, v]) => `| ${m} | ${v} |`),
  '',
].join('\n');
console.log(report);
if (write) appendFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), `${report}\n`);
