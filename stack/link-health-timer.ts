// The local stack's stand-in for Supabase Cron (hosted: pg_cron + pg_net, docs/link-health.md):
// every `intervalSeconds` it asks the same edge function to check the products checked
// longest ago, with the service role key, exactly as the hosted job does. Off unless started
// (`npm start` / `stack start` turn it on; throwaway test stacks do not).
import type { StackEnv } from './stack.ts';

/** Products per run, as the hosted job (private.link_health_tick). */
const PER_RUN = 200;

export function startLinkHealthTimer(
  env: StackEnv,
  intervalSeconds: number,
  log: (line: string) => void,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return; // a slow run is not overlapped by the next
    running = true;
    try {
      const res = await fetch(`${env.API_URL}/functions/v1/link-health`, {
        method: 'POST',
        headers: {
          apikey: env.SERVICE_ROLE_KEY,
          authorization: `Bearer ${env.SERVICE_ROLE_KEY}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ mode: 'due', limit: PER_RUN }),
      });
      const body = (await res.json().catch(() => null)) as { checked?: number } | null;
      if (!res.ok) log(`link health: the check failed (HTTP ${res.status})`);
      else log(`link health: checked ${body?.checked ?? 0} links`);
    } catch (err) {
      log(`link health: the check failed (${(err as Error).message})`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** STACK_LINK_HEALTH_INTERVAL_SECONDS: seconds between scheduled checks; 0 turns them off. */
export function linkHealthInterval(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(
      `STACK_LINK_HEALTH_INTERVAL_SECONDS must be 0 or more seconds (got "${value}")`,
    );
  }
  return n;
}
