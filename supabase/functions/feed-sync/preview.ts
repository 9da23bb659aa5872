// The mapping form's preview (REQ-FEED-1): the first rows of a feed (at most 256 kB decoded,
// 20 rows) read through the same guard as a sync, with a suggested mapping.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { FeedSyncConfig } from './config.ts';
import { TimeoutError } from '../_shared/http1.ts';
import { FetchRefused, openFeed } from './download.ts';
import { suggestMapping, type Format, type Mapping } from './mapping.ts';
import { CsvParser, FeedParseError } from './parse-csv.ts';
import { XmlItemParser } from './parse-xml.ts';

export const PREVIEW_BYTES = 256 * 1024;
export const PREVIEW_ROWS = 20;
const FORMATS: Format[] = ['csv', 'tsv', 'google_xml', 'google_tsv', 'awin_csv'];

export type PreviewAnswer =
  | { columns: string[]; rows: string[][]; suggestedMapping: Mapping; format: Format }
  | { error: string };

export async function preview(
  _db: SupabaseClient,
  cfg: FeedSyncConfig,
  body: Record<string, unknown>,
): Promise<PreviewAnswer> {
  const format = body.format as Format;
  if (!FORMATS.includes(format)) return { error: `format must be one of ${FORMATS.join(', ')}.` };
  const compression = (body.compression ?? 'auto') as 'auto' | 'none' | 'gzip';
  if (!['auto', 'none', 'gzip'].includes(compression))
    return { error: 'compression must be auto, none or gzip.' };
  const url = typeof body.url === 'string' ? body.url : null;
  const uploadPath = typeof body.uploadPath === 'string' ? body.uploadPath : null;
  if (!url === !uploadPath) return { error: 'Give either url or uploadPath.' };
  try {
    const opened = await openFeed(
      { origin: url ? 'url' : 'upload', url, upload_path: uploadPath },
      {
        policy: { allowLoopback: cfg.allowLoopback },
        userAgent: cfg.userAgent,
        maxRedirects: cfg.maxRedirects,
        maxBytes: cfg.maxBytes,
        deadline: Date.now() + Math.min(cfg.timeoutMs, 30_000),
        compression,
        supabaseUrl: cfg.supabaseUrl,
        serviceRoleKey: cfg.serviceRoleKey,
      },
    );
    if (!opened.body) return { error: `The feed answered HTTP ${opened.status}.` };
    const reader = opened.body.getReader();
    const records: Map<string, string>[] = [];
    let header: string[] | null = null;
    const csv =
      format === 'google_xml'
        ? null
        : new CsvParser({
            delimiter: format.endsWith('tsv') ? '\t' : ',',
            maxRowBytes: cfg.maxRowBytes,
          });
    const xml = csv ? null : new XmlItemParser(cfg.maxRowBytes);
    let read = 0;
    let ended = false;
    while (records.length < PREVIEW_ROWS && read < PREVIEW_BYTES) {
      const r = await reader.read();
      let chunk = r.value;
      if (r.done) ended = true;
      else {
        chunk = chunk!.subarray(0, PREVIEW_BYTES - read);
        read += chunk.length;
      }
      if (csv) {
        const recs = ended ? csv.end() : csv.push(chunk!);
        for (const rec of recs) {
          if (!header) header = rec.fields.map((h) => h.trim());
          else records.push(new Map(header.map((h, i) => [h, rec.fields[i] ?? ''])));
        }
      } else {
        const items = ended ? xml!.end() : xml!.push(chunk!);
        for (const it of items) records.push(it.record);
      }
      if (ended) break;
    }
    if (!ended) await reader.cancel();
    const kept = records.slice(0, PREVIEW_ROWS);
    const columns = header ?? [...new Set(kept.flatMap((m) => [...m.keys()]))];
    if (columns.length === 0) return { error: 'No rows were found at the start of the feed.' };
    return {
      columns,
      rows: kept.map((m) => columns.map((c) => m.get(c) ?? '')),
      suggestedMapping: suggestMapping(columns, format),
      format,
    };
  } catch (err) {
    if (err instanceof FeedParseError || err instanceof FetchRefused)
      return { error: `${err.message}.` };
    if (err instanceof TimeoutError) return { error: 'The feed did not answer in time.' };
    return {
      error: `The feed could not be read (${err instanceof Error ? err.message : String(err)}).`,
    };
  }
}
