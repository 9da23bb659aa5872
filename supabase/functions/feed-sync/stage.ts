// The database side of a run, through the sync RPCs (service role; contract "Database").
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { StagedRow } from './mapping.ts';

/** Rows sent per feed_stage_rows call (the RPC takes at most 5000). */
export const STAGE_BATCH = 2000;

export class DbError extends Error {}

export async function rpc<T>(
  db: SupabaseClient,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const { data, error } = await db.rpc(name, args);
  if (error) throw new DbError(`${name}: ${error.message}`);
  return data as T;
}

export interface RunPatch {
  http_status?: number;
  etag?: string | null;
  last_modified?: string | null;
  bytes_read?: number;
  resume_bytes?: number;
  resume_state?: unknown;
  rows_read?: number;
  peak_rss_mb?: number;
  peak_heap_mb?: number;
}

export const progress = (db: SupabaseClient, runId: string, patch: RunPatch) =>
  rpc<void>(db, 'feed_sync_progress', { p_run_id: runId, p_patch: patch });

export const stageRows = (db: SupabaseClient, runId: string, rows: StagedRow[]) =>
  rpc<number>(db, 'feed_stage_rows', { p_run_id: runId, p_rows: rows });
