// Parts `api` and `explain` of bench/run.ts: the storefront's catalogue query (first page by
// price, and one category) under autocannon through the gateway and straight at PostgREST, and
// its plan as the anon role.
import autocannon from 'autocannon';
import pg from 'pg';
import { STORE_ORDER_PARAM, STORE_ORDER_SQL } from '../src/lib/domain/storeOrder.ts';
import { selectList, STORE_PRODUCT_COLUMNS } from '../src/lib/domain/tables.ts';
import { notes, row } from './results.ts';
import type { Stack } from './run-setup.ts';

// The storefront's own query (src/features/storefront/catalogue.ts).
const PRODUCT_COLUMNS = selectList(STORE_PRODUCT_COLUMNS);
const ORDER = STORE_ORDER_PARAM;
export const PAGE = 24; // src/features/storefront/paging.ts; the app asks for one more row
const CATEGORY = 'Tennis';

/** autocannon's load: `connections` at once for `duration` seconds. */
export interface Load {
  connections: number;
  duration: number;
}

function catalogueQueries(stack: Stack) {
  const qs = (cat?: string) =>
    `products?select=${PRODUCT_COLUMNS}${cat ? `&cat=eq.${cat}` : ''}&order=${ORDER}&offset=0&limit=${PAGE + 1}`;
  const anon = { apikey: stack.env.ANON_KEY, authorization: `Bearer ${stack.env.ANON_KEY}` };
  return [
    {
      name: 'first page by price',
      gateway: `${stack.env.REST_URL}/${qs()}`,
      direct: `${stack.restUrl}/${qs()}`,
    },
    {
      name: `category ${CATEGORY}`,
      gateway: `${stack.env.REST_URL}/${qs(CATEGORY)}`,
      direct: `${stack.restUrl}/${qs(CATEGORY)}`,
    },
  ].map((q) => ({ ...q, headers: anon }));
}

async function load(url: string, headers: Record<string, string>, { connections, duration }: Load) {
  // A request the database refuses would be fast and wrong: check one answer first.
  const probe = await fetch(url, { headers });
  const body = (await probe.json()) as unknown[];
  if (!probe.ok || !Array.isArray(body) || body.length === 0) {
    throw new Error(`${url} answered ${probe.status}: ${JSON.stringify(body).slice(0, 200)}`);
  }
  const r = await autocannon({
    url,
    headers,
    connections,
    duration,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

export async function apiPart(stack: Stack, products: string, options: Load) {
  for (const q of catalogueQueries(stack)) {
    const gw = await load(q.gateway, q.headers, options);
    const direct = await load(q.direct, q.headers, options);
    const fmt = (r: typeof gw) =>
      `${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`;
    row('api', `${products}, ${q.name}: gateway`, fmt(gw));
    row('api', `${products}, ${q.name}: PostgREST`, fmt(direct));
    row(
      'api',
      `${products}, ${q.name}: gateway overhead`,
      `${(direct.rps / gw.rps).toFixed(2)}× throughput, ${(gw.p50 / Math.max(direct.p50, 1)).toFixed(2)}× p50`,
    );
  }
}

export async function explainPart(stack: Stack, products: string) {
  const client = new pg.Client({ connectionString: stack.env.DB_URL });
  await client.connect();
  try {
    const sql = (cat: boolean) =>
      `select ${PRODUCT_COLUMNS} from public.products ${cat ? `where cat = '${CATEGORY}' ` : ''}` +
      `order by ${STORE_ORDER_SQL} limit ${PAGE + 1} offset 0`;
    for (const [name, text] of [
      ['first page by price', sql(false)],
      [`category ${CATEGORY}`, sql(true)],
    ] as const) {
      // As the anon role PostgREST uses, so row-level security is part of the plan.
      await client.query('begin');
      await client.query('set local role anon');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, costs off, timing on) ${text}`,
      );
      await client.query('rollback');
      const lines = plan.rows.map((r) => r['QUERY PLAN']);
      const scan =
        lines
          .find((l) => /Scan/.test(l))
          ?.replace(/^[\s>-]+/, '')
          .replace(/\s+\(actual.*$/, '') ?? '?';
      const exec =
        lines.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
      row('explain', `${products}, ${name}`, `${scan}; ${exec}`);
      notes.push(`plan (${products}, ${name}):\n    ${lines.join('\n    ')}`);
    }
  } finally {
    await client.end();
  }
}
