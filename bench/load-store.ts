// Load runs against a dedicated throwaway stack (not part of npm test; figures go to
// RELIABILITY.md):
//   1. visitors: N concurrent visitors browse the catalogue for D seconds through the gateway the
//      way the storefront does (first page, categories, a category's page, the next page), each
//      with its own think-free loop. Reports requests, errors, p50/p95/p99.
//   2. admins: 20 admins, each updating a different product in rounds at the same time, with the
//      admin form's optimistic-concurrency update; afterwards every product holds its admin's
//      last write (lost updates are counted).
//   3. same product: two admins load the same version and update at once, many times; exactly
//      one may win each time and the other must be told (0 rows), never a silent overwrite.
// Usage: npm run bench:load -- [--visitors 200] [--seconds 60] [--admins 20] [--rounds 10]
import type { SupabaseClient } from '@supabase/supabase-js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PAGE_SIZE } from '../src/features/storefront/paging.ts';
import { STORE_ORDER_PARAM } from '../src/lib/domain/storeOrder.ts';
import {
  selectList,
  STORE_CATEGORY_COLUMNS,
  STORE_PRODUCT_COLUMNS,
} from '../src/lib/domain/tables.ts';
import { nodeClient } from '../stack/client.ts';
import { findFreePortBase, startStack, type StackEnv } from '../stack/stack.ts';

const { values: args } = parseArgs({
  options: {
    visitors: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    admins: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '10' },
    races: { type: 'string', default: '50' },
  },
});
const VISITORS = Number(args.visitors);
const SECONDS = Number(args.seconds);
const ADMINS = Number(args.admins);
const ROUNDS = Number(args.rounds);
const RACES = Number(args.races);

function client(env: StackEnv, key = env.ANON_KEY): SupabaseClient {
  return nodeClient(env.API_URL, key);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

// The storefront's own queries (src/features/storefront/catalogue.ts): these columns, one page
// plus one row to learn whether another page exists.
const COLUMNS = selectList(STORE_PRODUCT_COLUMNS);
const CATEGORY_COLUMNS = selectList(STORE_CATEGORY_COLUMNS);
const LIMIT = PAGE_SIZE + 1;

async function visitors(env: StackEnv, categories: string[]) {
  const headers = { apikey: env.ANON_KEY, Authorization: `Bearer ${env.ANON_KEY}` };
  const order = `order=${STORE_ORDER_PARAM}`;
  const urls = (cat: string) => [
    `${env.REST_URL}/catagories?select=${CATEGORY_COLUMNS}&order=title.asc`,
    `${env.REST_URL}/products?select=${COLUMNS}&${order}&offset=0&limit=${LIMIT}`,
    `${env.REST_URL}/products?select=${COLUMNS}&cat=eq.${encodeURIComponent(cat)}&${order}&offset=0&limit=${LIMIT}`,
    `${env.REST_URL}/products?select=${COLUMNS}&${order}&offset=${PAGE_SIZE}&limit=${LIMIT}`,
  ];
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const end = Date.now() + SECONDS * 1000;
  const visitor = async (n: number) => {
    let i = n;
    while (Date.now() < end) {
      for (const url of urls(categories[i++ % categories.length]!)) {
        const t0 = performance.now();
        try {
          const res = await fetch(url, { headers });
          const body = await res.text();
          if (!res.ok || !body.startsWith('[')) {
            const key = `HTTP ${res.status}`;
            errors.set(key, (errors.get(key) ?? 0) + 1);
          }
        } catch (err) {
          const key = (err as Error).message;
          errors.set(key, (errors.get(key) ?? 0) + 1);
        }
        latencies.push(performance.now() - t0);
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: VISITORS }, (_, n) => visitor(n)));
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  return {
    visitors: VISITORS,
    seconds: Number(seconds.toFixed(1)),
    requests: latencies.length,
    requestsPerSecond: Math.round(latencies.length / seconds),
    errors: errorCount,
    errorKinds: Object.fromEntries(errors),
    p50ms: Math.round(percentile(latencies, 50)),
    p95ms: Math.round(percentile(latencies, 95)),
    p99ms: Math.round(percentile(latencies, 99)),
    maxms: Math.round(latencies.at(-1) ?? NaN),
  };
}

/** The admin form's update: only the loaded version; null when someone changed it since. */
async function guardedUpdate(
  admin: SupabaseClient,
  id: string,
  values: Record<string, string>,
  loadedUpdatedAt: string,
): Promise<string | null> {
  const { data, error } = await admin
    .from('products')
    .update(values)
    .eq('id', id)
    .eq('updated_at', loadedUpdatedAt)
    .select('updated_at');
  if (error) throw new Error(error.message);
  return (data as { updated_at: string }[])[0]?.updated_at ?? null;
}

async function main() {
  const root = mkdtempSync(path.join(tmpdir(), 'mar-load-'));
  const stack = await startStack({
    portBase: await findFreePortBase(),
    dataDir: path.join(root, 'data'),
    log: () => {},
    authRateLimits: { signInSignUps: 10_000, tokenRefresh: 10_000, tokenVerifications: 10_000 },
  });
  const env = stack.env;
  const service = client(env, env.SERVICE_ROLE_KEY);
  try {
    const cats = (
      (await service.from('catagories').select('title')).data as { title: string }[]
    ).map((c) => c.title);
    const productCount = (
      await service.from('products').select('id', { count: 'exact', head: true })
    ).count;
    console.log(`load: stack ready (${productCount} products, ${cats.length} categories)`);

    // 1. Visitors.
    const v = await visitors(env, cats);
    console.log('visitors', JSON.stringify(v));

    // 2. Admins on different products.
    await service.from('catagories').insert({ title: 'Load' });
    const admins: SupabaseClient[] = [];
    const ids: string[] = [];
    for (let i = 0; i < ADMINS; i++) {
      const email = `load-admin-${i}@example.test`;
      await service.from('admin_invites').insert({ email });
      await service.auth.admin.createUser({
        email,
        password: 'load-admin-pw',
        email_confirm: true,
      });
      const c = client(env);
      const { error } = await c.auth.signInWithPassword({ email, password: 'load-admin-pw' });
      if (error) throw new Error(error.message);
      admins.push(c);
      const p = await service
        .from('products')
        .insert({
          title: `Load product ${i}`,
          cat: 'Load',
          price: '£1',
          com: 'r0',
          image: '/products/match-football.svg',
          link: 'https://shop.example.com/load',
        })
        .select('id')
        .single();
      ids.push((p.data as { id: string }).id);
    }
    const t0 = performance.now();
    let refused = 0;
    const perUpdate: number[] = [];
    await Promise.all(
      admins.map(async (admin, i) => {
        let version = (
          (await admin.from('products').select('updated_at').eq('id', ids[i]!).single()).data as {
            updated_at: string;
          }
        ).updated_at;
        for (let r = 1; r <= ROUNDS; r++) {
          const s = performance.now();
          const next = await guardedUpdate(
            admin,
            ids[i]!,
            { com: `r${r}`, price: `£${r}` },
            version,
          );
          perUpdate.push(performance.now() - s);
          if (next === null) refused++;
          else version = next;
        }
      }),
    );
    const adminSeconds = (performance.now() - t0) / 1000;
    const rows = (await service.from('products').select('id, com, price').in('id', ids)).data as {
      id: string;
      com: string;
      price: string;
    }[];
    const lost = rows.filter((r) => r.com !== `r${ROUNDS}` || r.price !== `£${ROUNDS}`).length;
    perUpdate.sort((a, b) => a - b);
    const adminFigures = {
      admins: ADMINS,
      updates: ADMINS * ROUNDS,
      seconds: Number(adminSeconds.toFixed(1)),
      refused,
      rowsChecked: rows.length,
      lostUpdates: lost,
      p50ms: Math.round(percentile(perUpdate, 50)),
      p99ms: Math.round(percentile(perUpdate, 99)),
    };
    console.log('admins', JSON.stringify(adminFigures));

    // 3. Two admins, same product, same loaded version, at once.
    const [a, b] = [admins[0]!, admins[1]!];
    let oneWon = 0;
    let silentOverwrites = 0;
    let bothRefused = 0;
    for (let race = 0; race < RACES; race++) {
      const loaded = (
        (await a.from('products').select('updated_at').eq('id', ids[0]!).single()).data as {
          updated_at: string;
        }
      ).updated_at;
      const [ra, rb] = await Promise.all([
        guardedUpdate(a, ids[0]!, { com: `A${race}` }, loaded),
        guardedUpdate(b, ids[0]!, { com: `B${race}` }, loaded),
      ]);
      const winners = [ra, rb].filter((x) => x !== null).length;
      const final = (
        (await service.from('products').select('com').eq('id', ids[0]!).single()).data as {
          com: string;
        }
      ).com;
      if (winners === 1 && final === (ra ? `A${race}` : `B${race}`)) oneWon++;
      else if (winners === 2) silentOverwrites++;
      else bothRefused++;
    }
    const raceFigures = {
      races: RACES,
      exactlyOneWonAndTheOtherWasTold: oneWon,
      silentOverwrites,
      bothRefused,
    };
    console.log('same-product', JSON.stringify(raceFigures));

    const ok =
      v.errors === 0 && lost === 0 && refused === 0 && silentOverwrites === 0 && bothRefused === 0;
    console.log(ok ? 'load: PASS' : 'load: FAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await stack.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
