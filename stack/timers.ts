// The local stack's stand-ins for the hosted Cron jobs (pg_cron + pg_net): link-health checks
// (docs/link-health.md), offer summaries (decision 0230), feed sync and feed apply (decision
// 0241). Each job runs every `seconds`, never overlapping itself. Off unless started (`npm start`
// / `stack start` turn them on; throwaway test stacks do not: tests call the jobs themselves).
import pg from 'pg';
import type { StackEnv } from './stack.ts';

type Log = (line: string) => void;

/** Runs `job` every `seconds` (a slow run is not overlapped by the next); returns a stopper. */
export function every(seconds: number, job: () => Promise<void>): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void job().finally(() => {
      running = false;
    });
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** POSTs `body` to edge function `name` with the service role key, as the hosted job does. */
export function callFunction(env: StackEnv, name: string, body: unknown, log: Log, what: string) {
  return async () => {
    try {
      const res = await fetch(`${env.API_URL}/functions/v1/${name}`, {
        method: 'POST',
        headers: {
          apikey: env.SERVICE_ROLE_KEY,
          authorization: `Bearer ${env.SERVICE_ROLE_KEY}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      const answer = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      if (!res.ok) log(`${what}: failed (HTTP ${res.status})`);
      else {
        const line = describe[name]?.(answer);
        if (line) log(`${what}: ${line}`);
      }
    } catch (err) {
      log(`${what}: failed (${(err as Error).message})`);
    }
  };
}

const describe: Record<string, (a: Record<string, unknown> | null) => string | null> = {
  'link-health': (a) => `checked ${Number(a?.checked ?? 0)} links`,
  'feed-sync': (a) => {
    const runs = Array.isArray(a?.runs) ? (a.runs as Array<{ status?: string }>) : [];
    return runs.length ? runs.map((r) => r.status).join(', ') : null;
  },
};

/** Runs `select <sql>` over the stack's database connection; logs a non-zero count. */
export function callSql(env: StackEnv, sql: string, log: Log, what: string) {
  return async () => {
    const client = new pg.Client({ connectionString: env.DB_URL });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ n: number }>(`select ${sql} as n`);
      const n = Number(rows[0]?.n ?? 0);
      if (n > 0) log(`${what}: ${n}`);
    } catch (err) {
      log(`${what}: failed (${(err as Error).message})`);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
}

/** A STACK_*_SECONDS setting: seconds between runs; 0 turns the job off. */
export function intervalSetting(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`${name} must be 0 or more seconds (got "${value}")`);
  }
  return n;
}

/** Starts every local job whose interval is above 0. */
export function startTimers(env: StackEnv, vars: Record<string, string | undefined>, log: Log) {
  const jobs: Array<[string, number, () => Promise<void>]> = [
    [
      'STACK_LINK_HEALTH_INTERVAL_SECONDS',
      3600,
      // Hourly locally (hosted: every 15 minutes); products per run as private.link_health_tick.
      callFunction(env, 'link-health', { mode: 'due', limit: 200 }, log, 'link health'),
    ],
    [
      'STACK_OFFER_SUMMARY_INTERVAL_SECONDS',
      60,
      callSql(env, 'private.refresh_offer_summaries()', log, 'offer summaries recomputed'),
    ],
    [
      'STACK_FEED_SYNC_INTERVAL_SECONDS',
      60,
      callFunction(env, 'feed-sync', { mode: 'due' }, log, 'feed sync'),
    ],
    [
      'STACK_FEED_APPLY_INTERVAL_SECONDS',
      10,
      callSql(env, 'private.feed_apply_staged()', log, 'feed runs applied'),
    ],
  ];
  for (const [name, fallback, job] of jobs) {
    const seconds = intervalSetting(name, vars[name], fallback);
    if (seconds > 0) every(seconds, job);
  }
}
