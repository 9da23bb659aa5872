// The storefront's first page while anonymous attackers send costly requests. On a throwaway
// stack with 10,000 bulk products, one shopper asks for the first page the way the SPA does
// (rpc/storefront_page, 25 rows, with the anon key) one request after another: on a quiet stack;
// while 20 attacker loops send small requests with the anon key (nested embeddings of products
// and categories, also from the storefront RPC's rows); while they send those and 1-7 MB ones
// (price_number and search_key with huge arguments, the storefront's RPCs with a huge cursor or
// category); and quiet again. Prints the shopper's median and 90th percentile in each phase and
// what the attackers got, and appends the tables to bench/RESULTS.md. Bounded: a fixed number of
// shopper requests and a time limit per phase, attackers stopped by a signal and by a deadline,
// loopback only. Figures, never a pass or fail (docs/decisions/0202).
// Run: npm run bench:abuse [-- --label "before the fix" --attackers 20 --requests 80 --no-write]
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedBulk } from '../scripts/seed-bulk.ts';
import { PAGE_SIZE } from '../src/features/storefront/paging.ts';
import { storePageArgs } from '../src/lib/domain/storeOrder.ts';
import { selectList, STORE_PRODUCT_COLUMNS } from '../src/lib/domain/tables.ts';
import { findFreePortBase, startStack } from '../stack/stack.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const PRODUCTS = Number(arg('products', '10000'));
const ATTACKERS = Number(arg('attackers', '20'));
const REQUESTS = Number(arg('requests', '80'));
/** Hard end of an attacker loop, whatever happens to the parent. */
const ATTACK_LIMIT_MS = 180_000;
/** A phase of the shopper ends after this long even if not all its requests were sent. */
const PHASE_LIMIT_MS = 60_000;

/** The hostile requests: name, path under /rest/v1, JSON body (GET without one). Small: the
 * request is at most a few hundred bytes, so only what it asks costs, not its transfer. */
function hostile(): { name: string; small: boolean; path: string; body?: string }[] {
  const huge = '1,000'.repeat(1_400_000); // 7 MB
  const cursor = { p_after_title: 'a', p_after_id: '00000000-0000-4000-8000-000000000000' };
  return [
    {
      name: 'nested embedding',
      small: true,
      path: '/products?select=id,c:catagories(*,products(*,catagories(*)))&limit=1000',
    },
    {
      name: 'catagories embedding',
      small: true,
      path: '/catagories?select=*,products(*,catagories(*,products(id)))',
    },
    {
      name: 'storefront_page embedding',
      small: true,
      path: '/rpc/storefront_page?select=id,catagories(*,products(*,catagories(*)))',
      body: JSON.stringify({ p_limit: 1000 }),
    },
    {
      name: 'price_number 7 MB',
      small: false,
      path: '/rpc/price_number',
      body: JSON.stringify({ p_price: huge }),
    },
    {
      name: 'search_key 1M chars',
      small: false,
      path: '/rpc/search_key',
      body: JSON.stringify({ p_text: 'é'.repeat(1_000_000) }),
    },
    {
      name: 'storefront_page 7 MB cursor',
      small: false,
      path: '/rpc/storefront_page',
      body: JSON.stringify({ p_after_price: huge, ...cursor }),
    },
    {
      name: 'storefront_search 7 MB category',
      small: false,
      path: '/rpc/storefront_search',
      body: JSON.stringify({ p_cat: huge }),
    },
  ];
}

interface Phase {
  times: number[];
  failed: number;
}

interface AttackStats {
  [name: string]: { n: number; ms: number[]; status: Record<string, number> };
}

/** The attacker process: ATTACKERS loops over the hostile requests until told to stop. */
/** The shopper's own request: 20 loops of it are the floor no refusal can go below. */
const FIRST_PAGE = {
  name: 'the first page itself',
  small: true,
  path: `/rpc/storefront_page?select=${selectList(STORE_PRODUCT_COLUMNS)}`,
  body: JSON.stringify(storePageArgs(null, null, PAGE_SIZE + 1)),
};

type Mix = 'legit' | 'small' | 'all';

async function attack(api: string, key: string, mix: Mix): Promise<void> {
  const requests =
    mix === 'legit' ? [FIRST_PAGE] : hostile().filter((r) => r.small || mix === 'all');
  const stats: AttackStats = {};
  let stop = false;
  process.on('SIGTERM', () => (stop = true));
  const end = Date.now() + ATTACK_LIMIT_MS;
  const loop = async (offset: number) => {
    for (let i = offset; !stop && Date.now() < end; i++) {
      const r = requests[i % requests.length]!;
      const s = (stats[r.name] ??= { n: 0, ms: [], status: {} });
      const t0 = performance.now();
      let status = 'network error';
      try {
        const res = await fetch(`${api}/rest/v1${r.path}`, {
          method: r.body ? 'POST' : 'GET',
          headers: {
            apikey: key,
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
          },
          body: r.body,
          signal: AbortSignal.timeout(30_000),
        });
        await res.arrayBuffer();
        status = String(res.status);
      } catch {
        // counted as a network error
      }
      s.n++;
      s.ms.push(performance.now() - t0);
      s.status[status] = (s.status[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: ATTACKERS }, (_, i) => loop(i)));
  process.stdout.write(JSON.stringify(stats));
}

const quantile = (xs: number[], q: number) =>
  xs.length
    ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!
    : NaN;

/** n first-page requests one after another, or fewer if PHASE_LIMIT_MS runs out. A failed
 * request (a timeout, no free connection) counts with its time and as failed. */
async function shopper(api: string, key: string, n: number): Promise<Phase> {
  const end = Date.now() + PHASE_LIMIT_MS;
  const url = `${api}/rest/v1${FIRST_PAGE.path}`;
  const phase: Phase = { times: [], failed: 0 };
  for (let i = 0; i < n && Date.now() < end; i++) {
    const t0 = performance.now();
    let ok = false;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          apikey: key,
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
        },
        body: FIRST_PAGE.body,
        signal: AbortSignal.timeout(30_000),
      });
      const rows = (await res.json()) as unknown[];
      ok = res.ok && rows.length === PAGE_SIZE + 1;
    } catch {
      // counted as failed
    }
    phase.times.push(performance.now() - t0);
    if (!ok) phase.failed++;
    await new Promise((r) => setTimeout(r, 25));
  }
  return phase;
}

async function main(): Promise<void> {
  const started = Date.now();
  const root = mkdtempSync(path.join(tmpdir(), 'mar-abuse-bench-'));
  const stack = await startStack({ portBase: await findFreePortBase(), dataDir: root });
  try {
    const { API_URL: api, ANON_KEY: key, DB_URL } = stack.env;
    await seedBulk(DB_URL, PRODUCTS);
    await shopper(api, key, 10); // warm-up: connections, plans
    const load0 = loadavg()[0]!;
    const quiet = await shopper(api, key, REQUESTS);

    /** One attacked phase: the attacker process runs while the shopper loads the first page. */
    const underAttack = async (mix: Mix) => {
      const child = spawn(
        process.execPath,
        [
          ...process.execArgv,
          fileURLToPath(import.meta.url),
          '--attack',
          api,
          key,
          '--attackers',
          String(ATTACKERS),
          '--mix',
          mix,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      let shopped: Phase;
      let load: number;
      try {
        await new Promise((r) => setTimeout(r, 3_000)); // every loop has a request in flight
        shopped = await shopper(api, key, REQUESTS);
        load = loadavg()[0]!;
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
      await new Promise((r) => setTimeout(r, 3_000)); // the last answers drain
      return { ...shopped, load, stats: JSON.parse(out || '{}') as AttackStats };
    };
    const legit = await underAttack('legit');
    const small = await underAttack('small');
    const all = await underAttack('all');
    const after = await shopper(api, key, REQUESTS);

    const ms = (x: number) => `${x.toFixed(1)} ms`;
    const label = arg('label', '');
    const ratio = (xs: number[]) => (quantile(xs, 0.5) / quantile(quiet.times, 0.5)).toFixed(1);
    const phase = (name: string, p: Phase, vsQuiet: boolean) =>
      `| ${name} | ${p.times.length} | ${p.failed} | ${ms(quantile(p.times, 0.5))} | ` +
      `${ms(quantile(p.times, 0.9))} | ${vsQuiet ? `${ratio(p.times)}×` : ''} |`;
    const lines = [
      `## ${new Date().toISOString().slice(0, 19)}Z (abuse: bench/abuse.ts)${label ? `: ${label}` : ''}`,
      '',
      `Machine: ${cpus()[0]?.model.trim()} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ` +
        `Node ${process.versions.node}; load average ${load0.toFixed(1)} before the attacks, ` +
        `${legit.load.toFixed(1)}, ${small.load.toFixed(1)} and ${all.load.toFixed(1)} at the end ` +
        `of the three loaded phases (other work on the ` +
        `machine included). ${PRODUCTS.toLocaleString('en-GB')} bulk products, ${ATTACKERS} ` +
        `attacker loops, up to ${REQUESTS} first-page requests per phase (each phase at most ` +
        `${PHASE_LIMIT_MS / 1000} s). Took ${Math.round((Date.now() - started) / 1000)} s.`,
      '',
      '| shopper: first page (rpc/storefront_page) | requests | failed | median | p90 | median / quiet |',
      '|---|---|---|---|---|---|',
      phase('quiet', quiet, false),
      phase(`${ATTACKERS} loops of the same first page (no attack: the floor)`, legit, true),
      phase('under attack: small requests only', small, true),
      phase('under attack: small and 1-7 MB requests', all, true),
      phase('quiet again', after, false),
      '',
      'Goal: under attack at most 2× the quiet median.',
      '',
      '| attack request | phase | sent | median | p90 | answers |',
      '|---|---|---|---|---|---|',
      ...[
        ['floor', legit.stats],
        ['small only', small.stats],
        ['all', all.stats],
      ].flatMap(([phaseName, stats]) =>
        Object.entries(stats as AttackStats).map(([name, s]) => {
          const answers = Object.entries(s.status)
            .map(([k, v]) => `${k}×${v}`)
            .join(', ');
          return `| ${name} | ${phaseName as string} | ${s.n} | ${ms(quantile(s.ms, 0.5))} | ${ms(quantile(s.ms, 0.9))} | ${answers} |`;
        }),
      ),
      '',
    ];
    const report = lines.join('\n');
    console.log(report);
    if (!process.argv.includes('--no-write')) {
      appendFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), `\n${report}`);
    }
  } finally {
    await stack.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

const attackAt = process.argv.indexOf('--attack');
if (attackAt > 0) {
  await attack(process.argv[attackAt + 1]!, process.argv[attackAt + 2]!, arg('mix', 'all') as Mix);
} else {
  await main();
}
