import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../../lib/infra/database.types';
import { storePageArgs } from '../../../lib/domain/storeOrder';
import {
  selectList,
  STORE_PRODUCT_COLUMNS,
  type ProductFields,
  type StoreProduct,
} from '../../../lib/domain/tables';
import { BOM, toCsv } from './csvFormat';

/** Rows a request: PostgREST's max-rows cap, so no page is silently cut short. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * Reads the next page after the last row of the page before (null: the first page); an empty
 * page ends the export. Any reader works: the whole catalogue (catalogueReader) or the admin
 * table's current filter, so a 100,000-row export never needs one request for everything.
 */
export type PageReader<R extends StoreProduct> = (after: R | null) => Promise<R[]>;

/**
 * The whole catalogue in the store's order, `pageSize` rows a request (EXPORT_PAGE_SIZE in the
 * app), by key: no offsets, so the last page costs what the first does.
 */
export function catalogueReader(
  db: SupabaseClient<Database>,
  pageSize: number,
): PageReader<StoreProduct> {
  return async (after) => {
    const { data, error } = await db
      .rpc('storefront_page', storePageArgs(null, after, pageSize))
      .select(selectList(STORE_PRODUCT_COLUMNS));
    if (error) throw new Error(error.message);
    return data;
  };
}

export interface CsvExport {
  /** UTF-8 with BOM, CRLF, header first. */
  parts: string[];
  rows: number;
}

/** Reads every page and writes it as CSV text, page by page (see csvFormat.ts for the format). */
export async function exportCsv<R extends StoreProduct>(
  read: PageReader<R>,
  onProgress?: (rows: number) => void,
): Promise<CsvExport> {
  // Every part ends its last line: Papa.unparse ends a header without rows with CRLF, and a
  // CRLF before each page on top of it made the file's second row blank (REQ-PATH-12).
  const parts = [BOM + endLine(toCsv([], true))];
  let rows = 0;
  for (let after: R | null = null; ;) {
    const page = await read(after);
    if (page.length === 0) break;
    parts.push(endLine(toCsv(page, false)));
    rows += page.length;
    after = page[page.length - 1]!;
    onProgress?.(rows);
  }
  return { parts, rows };
}

function endLine(text: string): string {
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}

/** The import's template: the header and one example row (REQ-PATH-12). */
export function templateCsv(example: ProductFields): CsvExport {
  return { parts: [BOM + endLine(toCsv([], true)) + endLine(toCsv([example], false))], rows: 1 };
}

/** The file's name: catalogue-2026-11-23.csv. */
export function exportFileName(now = new Date()): string {
  return `catalogue-${now.toISOString().slice(0, 10)}.csv`;
}

/** Hands the file to the browser as a download. */
export function downloadCsv({ parts }: CsvExport, name = exportFileName()): void {
  const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
