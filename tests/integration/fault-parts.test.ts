// Faults on a dedicated throwaway stack: PostgREST, the auth service and Postgres are stopped in
// the middle of a burst of admin updates and of visitors' reads, then brought back. Every update
// writes two columns together, so a half-written row would show as a mismatched pair. The same
// supabase-js clients must work again once the part is back (no new client, no new sign-in), and
// stopping and starting the whole stack keeps every row. (The contact outbox surviving a mail
// outage is covered by contact-outage.test.ts.)
import type { SupabaseClient } from '@supabase/supabase-js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findFreePortBase,
  startStack,
  type PartName,
  type RunningStack,
} from '../../stack/stack.ts';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  sql,
  type StackEnv,
} from '../support/stack.ts';

let root: string;
let portBase: number;
let stack: RunningStack;
let env: StackEnv;
let admin: SupabaseClient;
let visitor: SupabaseClient;
const CAT = 'Fault Cat';
const N = 20;
let ids: string[] = [];
const faultLog: string[] = [];

async function start(): Promise<void> {
  stack = await startStack({ portBase, dataDir: path.join(root, 'data'), log: () => {} });
  env = stack.env;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'mar-stack-fault-'));
  portBase = await findFreePortBase();
  await start();
  const service = serviceClient(env);
  const email = 'fault-admin@example.test';
  await service.from('admin_invites').insert({ email });
  const user = await createConfirmedUser({ email, password: 'fault-admin-pw' }, env);
  admin = await signedInClient(user, env);
  visitor = anonClient(env);
  const c = await service.from('catagories').insert({ title: CAT });
  if (c.error) throw new Error(c.error.message);
  const rows = Array.from({ length: N }, (_, i) => ({
    title: `Fault product ${i}`,
    cat: CAT,
    price: 'v0',
    com: 'v0',
    image: '/products/match-football.svg',
    link: 'https://shop.example.com/fault',
  }));
  const p = await service.from('products').insert(rows).select('id');
  if (p.error) throw new Error(p.error.message);
  ids = (p.data as { id: string }[]).map((r) => r.id);
}, 180_000);

afterAll(async () => {
  console.info(`faults injected and survived:\n  ${faultLog.join('\n  ')}`);
  await stack?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Admin updates that each set price and com to the same version tag, until `stopAt`. */
async function updateBurst(stopAt: () => boolean) {
  let version = 0;
  let ok = 0;
  const failures = new Map<string, number>();
  while (!stopAt()) {
    version++;
    const tag = `v${version}`;
    const results = await Promise.all(
      ids.map((id) =>
        admin.from('products').update({ price: tag, com: tag }).eq('id', id).select('id'),
      ),
    );
    for (const r of results) {
      if (r.error) {
        const key = `${r.status} ${r.error.code || '-'} ${r.error.message.slice(0, 80) || '(no message)'}`;
        failures.set(key, (failures.get(key) ?? 0) + 1);
      } else ok++;
    }
  }
  return { ok, failures };
}

async function readBurst(stopAt: () => boolean) {
  let ok = 0;
  let failed = 0;
  while (!stopAt()) {
    // The storefront's read, as the SPA makes it (anon reads products only through RPCs).
    const r = await visitor
      .rpc('storefront_page', { p_cat: CAT, p_limit: 50 })
      .select('id, title, price');
    if (r.error) failed++;
    else ok++;
  }
  return { ok, failed };
}

async function expectNoHalfWrittenRows(): Promise<void> {
  const rows = await sql<{ id: string; price: string; com: string }>(
    'select id, price, com from public.products where cat = $1',
    [CAT],
    env,
  );
  expect(rows).toHaveLength(N);
  for (const r of rows) expect(r.price, `row ${r.id}`).toBe(r.com);
}

async function outage(part: PartName, downMs: number) {
  let stop = false;
  const updates = updateBurst(() => stop);
  const reads = readBurst(() => stop);
  await new Promise((r) => setTimeout(r, 300));
  await stack.stopPart(part);
  await new Promise((r) => setTimeout(r, downMs));
  await stack.restartPart(part);
  await new Promise((r) => setTimeout(r, 300));
  stop = true;
  return { updates: await updates, reads: await reads };
}

function statusCounts(failures: Map<string, number>): string {
  const byStatus = new Map<string, number>();
  for (const [key, n] of failures) {
    const status = key.split(' ')[0]!;
    byStatus.set(status, (byStatus.get(status) ?? 0) + n);
  }
  return [...byStatus].map(([status, n]) => `${status}×${n}`).join(', ') || 'none';
}

/** The same clients work again once the part is back (retrying for a few seconds). */
async function expectClientsRecover(): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [u, r] = await Promise.all([
      admin
        .from('products')
        .update({ price: 'after', com: 'after' })
        .eq('id', ids[0]!)
        .select('price'),
      visitor.rpc('storefront_page', { p_cat: CAT, p_limit: 1000 }).select('id'),
    ]);
    const read = r.data as unknown[] | null;
    if (!u.error && !r.error && u.data?.length === 1 && read?.length === N) return;
    if (Date.now() > deadline)
      throw new Error(`clients did not recover: ${u.error?.message ?? r.error?.message}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

describe('a part stops in the middle of admin updates and browsing', () => {
  for (const part of ['postgrest', 'postgres', 'auth'] as const) {
    it(`${part}: requests fail cleanly, no half-written row, the same clients work again`, async () => {
      const { updates, reads } = await outage(part, 2000);
      // Something was refused while the data path was down (auth alone is not on it).
      if (part !== 'auth') expect(updates.failures.size + reads.failed).toBeGreaterThan(0);
      // Refusals come back as supabase-js errors (never thrown) that blame the server or the
      // network (status 0), never the input. One exception is PostgREST 12.0.2's own: a query cut
      // off by Postgres shutting down answers 400 with an empty code and message (seen in about
      // one run in three, as on hosted Supabase); any 400 that names a cause still fails here.
      for (const key of updates.failures.keys()) {
        const status = Number(key.split(' ')[0]);
        const cutOff = key === '400 - (no message)';
        expect(status === 0 || status >= 500 || (part === 'postgres' && cutOff), key).toBe(true);
      }
      await expectNoHalfWrittenRows();
      await expectClientsRecover();
      await expectNoHalfWrittenRows();
      faultLog.push(
        `${part} stopped 2 s during ${updates.ok + [...updates.failures.values()].reduce((a, b) => a + b, 0)} updates / ${reads.ok + reads.failed} reads: ` +
          `${[...updates.failures.values()].reduce((a, b) => a + b, 0)} updates and ${reads.failed} reads refused, 0 half-written rows, recovered without new clients` +
          ` (answers: ${statusCounts(updates.failures)})`,
      );
    }, 120_000);
  }

  it('auth down: signing in fails with an error, signed-in admins keep working, sign-in works again', async () => {
    await stack.stopPart('auth');
    try {
      const fresh = anonClient(env);
      const { error } = await fresh.auth.signInWithPassword({
        email: 'fault-admin@example.test',
        password: 'fault-admin-pw',
      });
      expect(error).not.toBeNull();
      // The JWT is checked by PostgREST itself: an existing session keeps working.
      const u = await admin
        .from('products')
        .update({ price: 'auth-down', com: 'auth-down' })
        .eq('id', ids[1]!)
        .select('id');
      expect(u.error).toBeNull();
      expect(u.data).toHaveLength(1);
    } finally {
      await stack.restartPart('auth');
    }
    const again = await signedInClient(
      { email: 'fault-admin@example.test', password: 'fault-admin-pw' },
      env,
    );
    expect((await again.from('products').select('id').eq('cat', CAT)).data).toHaveLength(N);
    faultLog.push(
      'auth stopped: sign-in refused with an error, existing admin sessions kept writing, sign-in back after restart',
    );
  }, 60_000);
});

describe('persistence', () => {
  it('stopping and starting the whole stack keeps every row', async () => {
    const dump = async () =>
      JSON.stringify(
        await Promise.all(
          ['products', 'catagories', 'admins', 'admin_invites', 'contact_messages'].map((t) =>
            sql(`select * from public.${t} order by 1`, [], env),
          ),
        ),
      ) +
      JSON.stringify(
        await sql('select id, email, encrypted_password from auth.users order by id', [], env),
      );
    const before = await dump();
    await stack.stop();
    await start();
    expect(stack.createdDatabase).toBe(false);
    expect(await dump()).toBe(before);
    // And the admin's password still works against the restarted stack.
    admin = await signedInClient(
      { email: 'fault-admin@example.test', password: 'fault-admin-pw' },
      env,
    );
    const u = await admin
      .from('products')
      .update({ price: 'restarted', com: 'restarted' })
      .eq('id', ids[2]!)
      .select('id');
    expect(u.data).toHaveLength(1);
    const rows = await sql<{ n: number }>(
      'select count(*)::int as n from public.products',
      [],
      env,
    );
    faultLog.push(
      `whole stack stopped and started: ${rows[0]!.n} products and every other row identical`,
    );
  }, 180_000);
});
