// The local stack's stand-in for the hosted pg_cron job 'offer-summaries' (docs/decisions/0230):
// every `intervalSeconds` it runs private.refresh_offer_summaries() over the stack's database
// connection, so a product whose cheapest offer turned stale leaves "from £X" and price order
// locally as it does on hosted. Off unless started (`npm start` / `stack start`; throwaway test
// stacks do not: tests call the function themselves).
import pg from 'pg';
import type { StackEnv } from './stack.ts';

export function startOfferSummaryTimer(
  env: StackEnv,
  intervalSeconds: number,
  log: (line: string) => void,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return; // a slow run is not overlapped by the next
    running = true;
    const client = new pg.Client({ connectionString: env.DB_URL });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ changed: number }>(
        'select private.refresh_offer_summaries() as changed',
      );
      const changed = rows[0]?.changed ?? 0;
      if (changed > 0) log(`offer summaries: ${changed} product(s) recomputed`);
    } catch (err) {
      log(`offer summaries: the refresh failed (${(err as Error).message})`);
    } finally {
      await client.end().catch(() => undefined);
      running = false;
    }
  };
  const timer = setInterval(() => void run(), intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** STACK_OFFER_SUMMARY_INTERVAL_SECONDS: seconds between refreshes; 0 turns them off. */
export function offerSummaryInterval(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(
      `STACK_OFFER_SUMMARY_INTERVAL_SECONDS must be 0 or more seconds (got "${value}")`,
    );
  }
  return n;
}
