import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../../lib/infra/database.types';
import { texts } from '../../../adminTexts';
import { productSchema } from '../products/productSchema';
import type { ProductFields } from '../../../lib/domain/tables';
import { MAX_FILE_BYTES, parseCsv, type CsvRefusal, type CsvRow } from './csvFormat';

const t = texts.catalogueCsv;

/** Refusal codes of public.catalogue_import_apply, worded like the product form words them. */
const CODE_MESSAGES: Record<string, string> = {
  title_required: texts.validation.titleRequired,
  title_too_long: texts.productForm.titleTooLong,
  title_in_use: texts.validation.titleInUse,
  category_required: texts.validation.categoryRequired,
  category_too_long: t.codes.categoryTooLong,
  unknown_category: t.codes.unknownCategory,
  price_required: texts.validation.priceRequired,
  price_too_long: texts.productForm.priceTooLong,
  comment_required: texts.validation.commentRequired,
  comment_too_long: texts.productForm.commentTooLong,
  image_required: texts.validation.imageRequired,
  image_invalid: texts.productForm.imageInvalid,
  link_required: texts.validation.linkRequired,
  link_invalid: texts.productForm.linkInvalid,
  duplicate_in_file: t.codes.duplicateInFile,
};

export type ImportMode = 'add' | 'upsert';

export interface ImportOptions {
  mode: ImportMode;
  createCategories: boolean;
}

/** What the database answers (the preview is the same call with p_dry_run). */
export interface ImportReport {
  added: number;
  updated: number;
  unchanged: number;
  refused: { line: number; codes: string[] }[];
  categoriesCreated: string[];
  /** Dry run only: the first rows that add (before null) or change a product. */
  changes?: ImportChange[];
}

/** The fields an import writes besides the title, as the database answers them. */
export type ChangedFields = Omit<ProductFields, 'title'>;

export interface ImportChange {
  line: number;
  title: string;
  before: ChangedFields | null;
  after: ChangedFields;
}

/** One field an import changes: its label, what is stored, what will be. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

const FIELD_LABELS: Record<keyof ChangedFields, string> = {
  cat: texts.productForm.category,
  price: texts.productForm.price,
  com: texts.productForm.comment,
  image: texts.productForm.image,
  link: texts.productForm.link,
};

/** REQ-PATH-12: the fields that differ between a stored product and a row, in form order. */
export function fieldChanges(before: ChangedFields, after: ChangedFields): FieldChange[] {
  return (Object.keys(FIELD_LABELS) as (keyof ChangedFields)[])
    .filter((k) => before[k] !== after[k])
    .map((k) => ({ field: FIELD_LABELS[k], before: before[k], after: after[k] }));
}

/** A row the admin must fix, with every reason, worded as the form words it. */
export interface RefusedRow {
  line: number;
  title: string;
  messages: string[];
}

export interface ImportSummary {
  added: number;
  updated: number;
  unchanged: number;
  refused: RefusedRow[];
  categoriesCreated: string[];
  changes: ImportChange[];
}

/** A file read and checked in the browser: the rows the form's rules accept, and the others. */
export interface CheckedFile {
  /** The file's name, shown until the import is done (REQ-PATH-12). */
  name?: string;
  rows: CsvRow[];
  accepted: CsvRow[];
  refused: RefusedRow[];
}

export type FileCheck = ({ ok: true } & CheckedFile) | { ok: false; message: string };

export function refusalMessage(reason: CsvRefusal, columns: string[] = []): string {
  return reason === 'missingColumns' || reason === 'unknownColumns'
    ? t.refusals[reason](columns)
    : t.refusals[reason];
}

/** Reads a chosen file and checks every row with the product form's own schema. */
export async function checkFile(file: File): Promise<FileCheck> {
  if (file.size > MAX_FILE_BYTES) return { ok: false, message: t.refusals.tooBig };
  const parsed = parseCsv(await file.text());
  if (!parsed.ok) return { ok: false, message: refusalMessage(parsed.reason, parsed.columns) };
  return { ok: true, name: file.name, ...checkRows(parsed.rows) };
}

export function checkRows(rows: CsvRow[]): CheckedFile {
  const accepted: CsvRow[] = [];
  const refused: RefusedRow[] = [];
  for (const row of rows) {
    const result = productSchema.safeParse(row);
    if (result.success) accepted.push({ ...result.data, line: row.line });
    else {
      const messages = [...new Set(result.error.issues.map((i) => i.message))];
      refused.push({ line: row.line, title: row.title, messages });
    }
  }
  return { rows, accepted, refused };
}

/** Bytes of JSON per request: well under the gateway's 8 MiB body limit (docs/decisions/0091). */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/** Sends the accepted rows to the database's staging area in chunks; nothing is applied yet. */
export async function stageRows(
  db: SupabaseClient<Database>,
  importId: string,
  rows: CsvRow[],
  onProgress?: (sent: number) => void,
): Promise<void> {
  let chunk: CsvRow[] = [];
  let bytes = 2;
  let sent = 0;
  const send = async () => {
    const { error } = await db.rpc('catalogue_import_stage', {
      p_import_id: importId,
      p_rows:
        chunk as unknown as Database['public']['Functions']['catalogue_import_stage']['Args']['p_rows'],
    });
    if (error) throw new Error(error.message);
    sent += chunk.length;
    onProgress?.(sent);
    chunk = [];
    bytes = 2;
  };
  for (const row of rows) {
    // UTF-8 bytes of the row's JSON (a non-ASCII character counts up to 3).
    const size = new TextEncoder().encode(JSON.stringify(row)).length + 1;
    if (chunk.length > 0 && bytes + size > CHUNK_BYTES) await send();
    chunk.push(row);
    bytes += size;
  }
  if (chunk.length > 0) await send();
}

/** Checks the staged rows against the catalogue (dry run) or applies them, in one transaction. */
export async function runImport(
  db: SupabaseClient<Database>,
  importId: string,
  options: ImportOptions,
  dryRun: boolean,
): Promise<ImportReport> {
  const { data, error } = await db.rpc('catalogue_import_apply', {
    p_import_id: importId,
    p_mode: options.mode,
    p_create_categories: options.createCategories,
    p_dry_run: dryRun,
  });
  if (error) throw new Error(error.message);
  return data as unknown as ImportReport;
}

/** The browser's refusals and the database's, one entry a row, in file order. */
export function summarise(file: CheckedFile, report: ImportReport): ImportSummary {
  const titles = new Map(file.rows.map((r) => [r.line, r.title]));
  const db: RefusedRow[] = report.refused.map(({ line, codes }) => ({
    line,
    title: titles.get(line) ?? '',
    messages: codes.map((c) => CODE_MESSAGES[c] ?? c),
  }));
  return {
    added: report.added,
    updated: report.updated,
    unchanged: report.unchanged,
    refused: [...file.refused, ...db].sort((a, b) => a.line - b.line),
    categoriesCreated: report.categoriesCreated,
    changes: report.changes ?? [],
  };
}
