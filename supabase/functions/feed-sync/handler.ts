// The feed-sync function's HTTP side (REQ-FEED-2, contract "Edge function"). POST JSON:
//   {"mode":"due"}                   schedule (service role / secret key): claim due runs, work
//   {"mode":"run","runId":uuid}      one run (admin or service key); self-chains until finished
//   {"mode":"preview",...}           first rows of a feed for the mapping form (admin)
// Admission is shared with link-health (../_shared/admission.ts).
import { createClient, type SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { admit, CORS, json } from '../_shared/admission.ts';
import { Budget } from './budget.ts';
import type { FeedSyncConfig } from './config.ts';
import { preview } from './preview.ts';
import { rpc } from './stage.ts';
import { syncRun, type Outcome, type WorkItem } from './sync.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TEXTS = {
  signIn: 'Sign in as an admin to sync feeds.',
  notAdmin: 'Only admins can manage feeds.',
};

type Later = (p: Promise<unknown>) => void;

/** EdgeRuntime.waitUntil where present (hosted), else the promise just runs on. */
function background(): Later {
  const rt = (globalThis as { EdgeRuntime?: { waitUntil?: Later } }).EdgeRuntime;
  return (p) => {
    const guarded = p.catch(() => undefined);
    if (rt?.waitUntil) rt.waitUntil(guarded);
  };
}

const publicOutcome = ({ unfinished: _u, ...o }: Outcome) => o;

export function createHandler(config: FeedSyncConfig) {
  const db: SupabaseClient = createClient(config.supabaseUrl, config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const later = background();
  /** Calls this function again for `runId` with the service key (not awaited: self-chaining). */
  const chain = (runId: string) =>
    later(
      fetch(`${config.supabaseUrl}/functions/v1/feed-sync`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${config.serviceRoleKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ mode: 'run', runId }),
      }).then((r) => r.body?.cancel()),
    );

  const work = async (item: WorkItem, budget: Budget): Promise<Outcome> => {
    const out = await syncRun(db, config, item, budget);
    if (out.unfinished) chain(out.id);
    return out;
  };

  return async (req: Request): Promise<Response> => {
    if (req.method === 'OPTIONS') return new Response('ok', { headers: CORS });
    if (req.method !== 'POST') return json(405, { error: 'Use POST.' });
    const caller = await admit(req, config, TEXTS);
    if (caller instanceof Response) return caller;
    let body: Record<string, unknown>;
    try {
      const text = await req.text();
      if (text.length > 10_000) return json(413, { error: 'Request too large.' });
      body = JSON.parse(text);
      if (!body || typeof body !== 'object') throw new Error();
    } catch {
      return json(400, { error: 'Send a JSON object.' });
    }
    const budget = new Budget(config.cpuBudgetMs, config.wallBudgetMs);
    try {
      if (body.mode === 'due') {
        if (caller !== 'service') return json(403, { error: 'Only the schedule runs due feeds.' });
        const items = (await rpc<WorkItem[] | null>(db, 'feed_sync_claim', { p_max: 3 })) ?? [];
        const runs: Outcome[] = [];
        for (const item of items) {
          if (budget.spent()) {
            // Claimed but not started: its own chain starts it now.
            chain(item.run.id);
            runs.push({ id: item.run.id, status: 'fetching', rowsRead: item.run.rows_read ?? 0 });
            continue;
          }
          runs.push(await work(item, budget));
        }
        return json(200, {
          runs: runs.map(publicOutcome),
          peakRssMb: budget.peakRssMb(),
          peakHeapMb: budget.peakHeapMb(),
        });
      }
      if (body.mode === 'run') {
        if (typeof body.runId !== 'string' || !UUID.test(body.runId))
          return json(400, { error: 'runId must be a run id.' });
        const item = await rpc<WorkItem | null>(db, 'feed_sync_take', { p_run_id: body.runId });
        if (!item) {
          const { data } = await db
            .from('feed_runs')
            .select('id, status, rows_read, error')
            .eq('id', body.runId)
            .maybeSingle();
          if (!data) return json(404, { error: 'No such feed run.' });
          const run = {
            id: data.id,
            status: data.status,
            rowsRead: data.rows_read ?? 0,
            ...(data.error ? { error: data.error } : {}),
          };
          return json(200, { run, peakRssMb: budget.peakRssMb(), peakHeapMb: budget.peakHeapMb() });
        }
        const out = await work(item, budget);
        return json(200, {
          run: publicOutcome(out),
          peakRssMb: budget.peakRssMb(),
          peakHeapMb: budget.peakHeapMb(),
        });
      }
      if (body.mode === 'preview') {
        const answer = await preview(db, config, body);
        if ('error' in answer) return json(400, answer);
        return json(200, {
          ...answer,
          peakRssMb: budget.peakRssMb(),
          peakHeapMb: budget.peakHeapMb(),
        });
      }
      return json(400, { error: 'mode must be due, run or preview.' });
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      console.error('feed-sync:', msg);
      return json(503, { error: `Feed sync failed: ${msg.slice(0, 300)}` });
    }
  };
}
