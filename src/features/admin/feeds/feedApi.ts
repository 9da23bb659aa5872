import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '../../../lib/infra/supabase';
import { check, DbError } from '../db';
import type { FeedFormat, FeedSourceColumns } from './feedSchema';
import { announceFeedsChanged } from './feedEvents';

// The Feeds tab's reads and writes (REQ-FEED-1, REQ-FEED-5). Tables and RPCs as
// docs/decisions/0240 describes them; RLS lets admins read, the RPCs decide every change.

export type RunStatus =
  'queued' | 'fetching' | 'staged' | 'applying' | 'done' | 'unchanged' | 'failed';
export const FINAL_STATUSES: readonly RunStatus[] = ['done', 'unchanged', 'failed'];

export interface FeedSource extends FeedSourceColumns {
  id: string;
  next_run_at: string | null;
  last_run_id: string | null;
  last_status: RunStatus | null;
  last_run_at: string | null;
  failing_since: string | null;
  updated_at: string;
  sellers: { name: string } | null;
}

const SOURCE_COLUMNS =
  'id,name,seller_id,origin,url,upload_path,format,compression,kind,mapping,match_by_title,max_change_pct,schedule_minutes,enabled,next_run_at,last_run_id,last_status,last_run_at,failing_since,updated_at,sellers(name)';

export interface RunCounts {
  rows_read: number;
  matched: number;
  added: number;
  changed: number;
  unchanged: number;
  unmatched: number;
  refused: number;
  held: number;
  made_unavailable: number;
}

export interface FeedRun extends RunCounts {
  id: string;
  source_id: string;
  trigger: 'schedule' | 'manual' | 'upload';
  status: RunStatus;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  refused_by_code: Record<string, number>;
  refused_sample: { line: number; codes: string[] }[];
}

const RUN_COLUMNS =
  'id,source_id,trigger,status,created_at,started_at,finished_at,error,rows_read,matched,added,changed,unchanged,unmatched,refused,held,made_unavailable,refused_by_code,refused_sample';

export interface UnmatchedRow {
  id: string;
  source_id: string;
  match_key: string;
  seller_product_id: string | null;
  gtin: string | null;
  title: string | null;
  link: string | null;
  price: string | null;
  image: string | null;
  last_seen_at: string;
  status: 'open' | 'ignored' | 'created';
  feed_sources: { name: string } | null;
}

export interface HeldChange {
  id: string;
  source_id: string;
  old_price: number | null;
  new_price: number;
  created_at: string;
  feed_sources: { name: string } | null;
  offers: { products: { title: string } | null } | null;
}

/** The answer of feed-sync's preview mode: the first rows as the parser read them. */
export interface FeedPreview {
  columns: string[];
  rows: string[][];
  suggestedMapping: Record<string, string>;
}

const db = supabase;

function rows<T>(result: { data: unknown; error: PostgrestError | null }): T[] {
  if (result.error) throw new DbError(result.error);
  return (result.data ?? []) as T[];
}

export async function listSources(): Promise<FeedSource[]> {
  return rows<FeedSource>(
    await db.from('feed_sources').select(SOURCE_COLUMNS).order('name', { ascending: true }),
  );
}

export async function addSource(values: FeedSourceColumns): Promise<FeedSource> {
  const [row] = rows<FeedSource>(
    await db.from('feed_sources').insert(values).select(SOURCE_COLUMNS),
  );
  if (!row) throw new Error('The database returned no feed');
  return row;
}

/** Writes only the version the list showed: null when someone changed or deleted it since. */
export async function updateSource(
  id: string,
  loadedUpdatedAt: string,
  values: FeedSourceColumns,
): Promise<FeedSource | null> {
  const [row] = rows<FeedSource>(
    await db
      .from('feed_sources')
      .update(values)
      .eq('id', id)
      .eq('updated_at', loadedUpdatedAt)
      .select(SOURCE_COLUMNS),
  );
  return row ?? null;
}

export async function deleteSource(id: string): Promise<boolean> {
  return rows(await db.from('feed_sources').delete().eq('id', id).select('id')).length > 0;
}

/** Queues a manual run (refused while one is active: "This feed is already being read"). */
export async function requestRun(sourceId: string): Promise<string> {
  return check(await db.rpc('feed_run_request', { p_source_id: sourceId })) as string;
}

/**
 * The function's own error text ({error}) of a failed call, else null: supabase-js puts the
 * response of a non-2xx answer on `context`.
 */
async function functionError(error: unknown): Promise<string | null> {
  const context = (error as { context?: unknown } | null)?.context;
  if (!(context instanceof Response)) return null;
  try {
    const body = (await context.clone().json()) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : null;
  } catch {
    return null;
  }
}

/** A failed feed-sync call: the function's message when it gave one. */
export class FeedServiceError extends Error {
  readonly said: string | null;
  constructor(said: string | null) {
    super(said ?? 'feed-sync failed');
    this.name = 'FeedServiceError';
    this.said = said;
  }
}

async function invoke<T>(body: object): Promise<T> {
  const { data, error } = await supabase.functions.invoke<T>('feed-sync', { body });
  if (error) throw new FeedServiceError(await functionError(error));
  if (!data) throw new FeedServiceError(null);
  return data;
}

/** Works on the run with the admin's session (the function goes on by itself past its budget). */
export function startRun(runId: string): Promise<unknown> {
  return invoke({ mode: 'run', runId });
}

export async function fetchRun(runId: string): Promise<FeedRun | null> {
  return rows<FeedRun>(await db.from('feed_runs').select(RUN_COLUMNS).eq('id', runId))[0] ?? null;
}

export async function listRuns(sourceId: string, limit = 10): Promise<FeedRun[]> {
  return rows<FeedRun>(
    await db
      .from('feed_runs')
      .select(RUN_COLUMNS)
      .eq('source_id', sourceId)
      .order('created_at', { ascending: false })
      .limit(limit),
  );
}

export async function previewFeed(input: {
  url?: string;
  uploadPath?: string;
  format: FeedFormat;
  compression: string;
}): Promise<FeedPreview> {
  const answer = await invoke<FeedPreview>({ mode: 'preview', ...input });
  if (!Array.isArray(answer.columns) || !Array.isArray(answer.rows)) {
    throw new FeedServiceError(null);
  }
  return answer;
}

/** Uploads a feed file to the private bucket; answers its object name for upload_path. */
export async function uploadFeedFile(folder: string, file: File): Promise<string> {
  const path = `${folder}/${file.name.replace(/[^\w.-]+/g, '_')}`;
  const { error } = await supabase.storage
    .from('feed-uploads')
    .upload(path, file, { upsert: true, contentType: file.type || 'application/octet-stream' });
  if (error) throw error;
  return path;
}

export async function listUnmatched(
  status: 'open' | 'ignored',
  sourceId: string | null,
): Promise<UnmatchedRow[]> {
  let query = db
    .from('feed_unmatched')
    .select(
      'id,source_id,match_key,seller_product_id,gtin,title,link,price,image,last_seen_at,status,feed_sources(name)',
    )
    .eq('status', status);
  if (sourceId) query = query.eq('source_id', sourceId);
  return rows<UnmatchedRow>(await query.order('last_seen_at', { ascending: false }).limit(200));
}

export async function setUnmatched(ids: string[], ignore: boolean): Promise<number> {
  const fn = ignore ? 'feed_unmatched_ignore' : 'feed_unmatched_reopen';
  return check(await db.rpc(fn, { p_ids: ids })) as number;
}

export async function createProductFrom(id: string, cat: string, com: string): Promise<string> {
  return check(
    await db.rpc('feed_unmatched_create_product', { p_id: id, p_cat: cat, p_com: com }),
  ) as string;
}

export async function listHeld(sourceId: string | null): Promise<HeldChange[]> {
  let query = db
    .from('feed_held_changes')
    .select(
      'id,source_id,old_price,new_price,created_at,feed_sources(name),offers(products(title))',
    )
    .eq('status', 'held');
  if (sourceId) query = query.eq('source_id', sourceId);
  return rows<HeldChange>(await query.order('created_at', { ascending: false }).limit(200));
}

export async function decideHeld(ids: string[], apply: boolean): Promise<number> {
  const n = check(await db.rpc('feed_held_decide', { p_ids: ids, p_apply: apply })) as number;
  announceFeedsChanged();
  return n;
}
