// Works on one run within the invocation's budget (REQ-FEED-2, decision 0241): download (or
// resume), parse as a stream, stage in batches, save a resume point at a row boundary when the
// budget is spent; at the end mark the run staged and apply small runs inline.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { Budget } from './budget.ts';
import type { FeedSyncConfig } from './config.ts';
import { TimeoutError } from '../_shared/http1.ts';
import { FetchRefused, openFeed } from './download.ts';
import {
  effectiveMapping,
  mapRecord,
  type Format,
  type Mapping,
  type RecordValues,
  type StagedRow,
} from './mapping.ts';
import { CsvParser, FeedParseError } from './parse-csv.ts';
import { XmlItemParser } from './parse-xml.ts';
import { progress, rpc, STAGE_BATCH, stageRows } from './stage.ts';

export interface RunRow {
  id: string;
  status: string;
  etag: string | null;
  last_modified: string | null;
  bytes_read: number | null;
  resume_bytes: number | null;
  resume_state: ResumeState | null;
  rows_read: number | null;
}
export interface SourceRow {
  id: string;
  origin: 'url' | 'upload';
  url: string | null;
  upload_path: string | null;
  format: Format;
  compression: 'auto' | 'none' | 'gzip';
  mapping: Mapping | null;
  etag: string | null;
  last_modified: string | null;
}
export interface WorkItem {
  run: RunRow;
  source: SourceRow;
}
/** CSV: the header and the next line's number; XML: items already staged. */
export type ResumeState = { header: string[]; line: number } | { items: number };

export interface Outcome {
  id: string;
  status: string;
  rowsRead: number;
  report?: unknown;
  error?: string;
  /** Not finished: the budget ran out; a later invocation resumes it. */
  unfinished?: boolean;
}

const isXml = (f: Format) => f === 'google_xml';
const delimiterOf = (f: Format) => (f === 'tsv' || f === 'google_tsv' ? '\t' : ',');
/** Google TSV headers may carry the g: prefix; the preset names are without it. */
const headerName = (f: Format, h: string) =>
  f === 'google_tsv' ? h.trim().replace(/^g:/i, '').toLowerCase() : h.trim();

async function fail(db: SupabaseClient, id: string, why: string, rows: number): Promise<Outcome> {
  const text = /Nothing was applied\.$/.test(why)
    ? why
    : `${why.replace(/\.$/, '')}. Nothing was applied.`;
  await rpc(db, 'feed_run_fail', { p_run_id: id, p_error: text.slice(0, 1000) });
  return { id, status: 'failed', rowsRead: rows, error: text };
}

export async function syncRun(
  db: SupabaseClient,
  cfg: FeedSyncConfig,
  item: WorkItem,
  budget: Budget,
): Promise<Outcome> {
  const { run, source } = item;
  const format = source.format;
  const mapping = effectiveMapping(format, source.mapping ?? {});
  let resuming = (run.resume_bytes ?? 0) > 0 && run.resume_state !== null;
  let rowsRead = resuming ? (run.rows_read ?? 0) : 0;
  try {
    const opened = await openFeed(source, {
      policy: { allowLoopback: cfg.allowLoopback },
      userAgent: cfg.userAgent,
      maxRedirects: cfg.maxRedirects,
      maxBytes: cfg.maxBytes,
      deadline: Date.now() + cfg.timeoutMs,
      compression: source.compression,
      conditional: resuming ? undefined : { etag: source.etag, lastModified: source.last_modified },
      supabaseUrl: cfg.supabaseUrl,
      serviceRoleKey: cfg.serviceRoleKey,
    });
    const sameAsSource = !resuming && opened.etag !== null && opened.etag === source.etag;
    if (opened.status === 304 || (opened.status === 200 && sameAsSource)) {
      await opened.body?.cancel();
      const report = await rpc(db, 'feed_run_unchanged', {
        p_run_id: run.id,
        p_http_status: opened.status,
      });
      return { id: run.id, status: 'unchanged', rowsRead: 0, report };
    }
    if (!opened.body || opened.status !== 200) {
      await opened.body?.cancel();
      await progress(db, run.id, { http_status: opened.status });
      return await fail(db, run.id, `The feed answered HTTP ${opened.status}`, rowsRead);
    }
    if (
      resuming &&
      ((run.etag ?? null) !== opened.etag || (run.last_modified ?? null) !== opened.lastModified)
    ) {
      // The file changed between chunks: start again from its first byte.
      await rpc(db, 'feed_run_restart', { p_run_id: run.id });
      resuming = false;
      rowsRead = 0;
    }
    const baseBytes = resuming ? (run.bytes_read ?? 0) : 0;
    await progress(db, run.id, {
      http_status: opened.status,
      etag: opened.etag,
      last_modified: opened.lastModified,
    });

    const state = resuming ? run.resume_state : null;
    let skip = resuming && !isXml(format) ? (run.resume_bytes ?? 0) : 0;
    const skipItems = state && 'items' in state ? state.items : 0;
    const csvState = state && 'header' in state ? state : null;
    let header: string[] | null = csvState?.header ?? null;
    const csv = isXml(format)
      ? null
      : new CsvParser({
          delimiter: delimiterOf(format),
          maxRowBytes: cfg.maxRowBytes,
          startOffset: skip,
          startLine: csvState?.line ?? 1,
        });
    const xml = isXml(format) ? new XmlItemParser(cfg.maxRowBytes) : null;
    const keepMapped = (h: string[]) => {
      const wanted = new Set(Object.values(mapping).map((col) => h.indexOf(col as string)));
      if (csv) csv.keep = (i) => wanted.has(i);
    };
    if (header) keepMapped(header);
    let batch: StagedRow[] = [];
    let boundary = resuming ? (run.resume_bytes ?? 0) : 0;
    const startBoundary = boundary;
    let nextState: ResumeState | null = state;

    const flush = async () => {
      if (batch.length) await stageRows(db, run.id, batch);
      batch = [];
      await progress(db, run.id, {
        resume_bytes: boundary,
        resume_state: nextState,
        rows_read: rowsRead,
        bytes_read: baseBytes + opened.encoded(),
        peak_rss_mb: budget.sample(),
        peak_heap_mb: budget.peakHeapMb(),
      });
    };

    const take = (line: number, record: RecordValues) => {
      batch.push(mapRecord(line, record, mapping));
      rowsRead++;
    };
    // A CSV row's values by column name, read in place (no Map per row: garbage per row is
    // what a 100,000-row feed's memory is made of). A repeated header name: the last one.
    const columnOf = new Map<string, number>();
    const csvRow = {
      fields: [] as string[],
      get(column: string) {
        const i = columnOf.get(column);
        return i === undefined ? undefined : (this.fields[i] ?? '');
      },
    };
    if (header) header.forEach((h, i) => columnOf.set(h, i));
    const onCsv = (rec: { line: number; fields: string[]; end: number }) => {
      if (!header) {
        header = rec.fields.map((h) => headerName(format, h));
        const missing = Object.entries(mapping).filter(([, col]) => col && !header!.includes(col));
        if (missing.length) {
          const [field, col] = missing[0]!;
          throw new FeedParseError(rec.line, `the column "${col}" (${field}) is not in the header`);
        }
        keepMapped(header);
        header.forEach((h, i) => columnOf.set(h, i));
      } else {
        csvRow.fields = rec.fields;
        take(rec.line, csvRow);
      }
      boundary = rec.end;
      nextState = { header, line: rec.line + 1 + countNewlines(rec.fields) };
    };

    const reader = opened.body.getReader();
    let done = false;
    while (!done) {
      const r = await reader.read();
      let pieces: Array<Uint8Array | null>;
      if (r.done) {
        done = true;
        pieces = [null];
      } else {
        let chunk = r.value;
        if (skip > 0) {
          if (chunk.length <= skip) {
            skip -= chunk.length;
            continue;
          }
          chunk = chunk.subarray(skip);
          skip = 0;
        }
        pieces = slices(chunk);
      }
      for (const piece of pieces) {
        const records: Array<{
          line: number;
          fields?: string[];
          end?: number;
          index?: number;
          record?: Map<string, string>;
        }> =
          piece === null
            ? csv
              ? csv.end()
              : xml!.end()
            : csv
              ? csv.push(piece)
              : xml!.push(piece);
        for (const rec of records) {
          if (csv) onCsv(rec as { line: number; fields: string[]; end: number });
          else {
            if (rec.index! <= skipItems) continue;
            take(rec.line, rec.record!);
            nextState = { items: rec.index! };
            boundary = rec.index!;
          }
          if (batch.length >= STAGE_BATCH) await flush();
        }
        // The budget is looked at after every piece, not every batch: a feed of wide rows can
        // cost seconds of CPU before 2,000 rows are read. Stop only at a record boundary
        // reached in this invocation (a resume needs progress).
        if (!done && boundary > startBoundary && budget.spent()) {
          await flush();
          await reader.cancel();
          return { id: run.id, status: 'fetching', rowsRead, unfinished: true };
        }
      }
    }
    await flush();
    if (rowsRead === 0) return await fail(db, run.id, 'The feed has no rows', 0);
    await rpc(db, 'feed_run_staged', {
      p_run_id: run.id,
      p_etag: opened.etag,
      p_last_modified: opened.lastModified,
    });
    if (rowsRead > cfg.inlineApplyRows) return { id: run.id, status: 'staged', rowsRead };
    const report = await rpc<Record<string, unknown> | null>(db, 'feed_run_apply', {
      p_run_id: run.id,
    });
    const status = typeof report?.status === 'string' ? report.status : 'done';
    const error = typeof report?.error === 'string' ? report.error : undefined;
    return { id: run.id, status, rowsRead, report, ...(error ? { error } : {}) };
  } catch (err) {
    if (err instanceof FeedParseError || err instanceof FetchRefused) {
      return await fail(db, run.id, err.message, rowsRead);
    }
    const msg = err instanceof Error ? err.message : String(err);
    if (err instanceof TimeoutError)
      return await fail(db, run.id, 'The feed did not answer in time', rowsRead);
    return await fail(db, run.id, `The feed could not be read (${msg.slice(0, 300)})`, rowsRead);
  }
}

/** Physical lines a record spans beyond its first (newlines inside quoted fields). */
function countNewlines(fields: string[]): number {
  let n = 0;
  for (const f of fields) for (let i = f.indexOf('\n'); i >= 0; i = f.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * A decompressed chunk can be a megabyte (about 2,000 rows): parsed in 64 kB pieces, each
 * piece's records are mapped and dropped before the next, so they die young in the garbage
 * collector instead of piling up (the function's resident memory).
 */
export const PIECE_BYTES = 64 * 1024;
function slices(chunk: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
    out.push(chunk.subarray(at, at + PIECE_BYTES));
  }
  return out;
}
