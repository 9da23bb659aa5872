// The processes around a feeds bench run (bench/feeds.ts): a sampler of the feed-sync worker
// processes' memory and CPU from /proc, and the stack's two timers (the hosted pg_cron jobs
// 'feed-apply' and 'feed-sync') played by the bench from Run now on.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import type { StackEnv } from '../stack/stack.ts';

export const APPLY_EVERY_S = 10; // the 'feed-apply' job / the stack's timer
export const DUE_EVERY_S = 60; // the 'feed-sync' job / the stack's timer
export const log = (line: string) => process.stderr.write(`feeds: ${line}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The feed-sync worker processes of this stack (Deno processes the functions runtime starts,
 * stack/functions/workers.ts: same process group, `feed-sync` on the command line), sampled:
 * each one's peak resident size (VmHWM) and CPU time, kept after it ends.
 */
export function workerSampler(groupId: number) {
  const seen = new Map<number, { hwmKb: number; rssKb: number; cpuTicks: number }>();
  const tick = () => {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(f[2]) !== groupId) continue; // field 5: process group
        if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('feed-sync')) continue;
        const status = readFileSync(`/proc/${name}/status`, 'utf8');
        const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
        const s = seen.get(Number(name)) ?? { hwmKb: 0, rssKb: 0, cpuTicks: 0 };
        s.hwmKb = Math.max(s.hwmKb, kb('VmHWM') || 0);
        s.rssKb = Math.max(s.rssKb, kb('VmRSS') || 0);
        s.cpuTicks = Math.max(s.cpuTicks, Number(f[11]) + Number(f[12])); // utime + stime
        seen.set(Number(name), s);
      } catch {
        // the process ended between the listing and the read
      }
    }
  };
  const timer = setInterval(tick, 100);
  return {
    tick,
    stop: () => clearInterval(timer),
    snapshot: () => {
      const all = [...seen.values()];
      return {
        pids: all.length,
        peakKb: Math.max(0, ...all.map((s) => s.hwmKb)),
        cpuS: all.reduce((t, s) => t + s.cpuTicks, 0) / 100, // USER_HZ
      };
    },
  };
}

/** The stack's two timers, as `npm start` runs them (bench/feeds.ts header). */
export function timers(env: StackEnv) {
  const applies: { at: number; ms: number; n: number }[] = [];
  const dues: { at: number; status: number }[] = [];
  let t0 = Date.now();
  const db = new pg.Client({ connectionString: env.DB_URL });
  let busy = false;
  const apply = async () => {
    if (busy) return; // a slow apply is not overlapped by the next, as the stack's timer
    busy = true;
    const at = Date.now() - t0;
    try {
      const r = await db.query<{ n: number }>('select private.feed_apply_staged() as n');
      applies.push({ at, ms: Date.now() - t0 - at, n: Number(r.rows[0]!.n) });
    } catch (e) {
      log(`feed_apply_staged failed: ${(e as Error).message}`);
      applies.push({ at, ms: Date.now() - t0 - at, n: -1 });
    } finally {
      busy = false;
    }
  };
  const due = async () => {
    const at = Date.now() - t0;
    const res = await fetch(`${env.API_URL}/functions/v1/feed-sync`, {
      method: 'POST',
      headers: {
        apikey: env.SERVICE_ROLE_KEY,
        authorization: `Bearer ${env.SERVICE_ROLE_KEY}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ mode: 'due' }),
    }).catch(() => null);
    await res?.text();
    dues.push({ at, status: res?.status ?? 0 });
  };
  let a: NodeJS.Timeout | undefined;
  let d: NodeJS.Timeout | undefined;
  return {
    applies,
    dues,
    start: async () => {
      await db.connect();
      t0 = Date.now(); // times are from Run now (started right after)
      a = setInterval(() => void apply(), APPLY_EVERY_S * 1000);
      d = setInterval(() => void due(), DUE_EVERY_S * 1000);
    },
    stop: async () => {
      clearInterval(a);
      clearInterval(d);
      while (busy) await sleep(100);
      await db.end();
    },
  };
}
