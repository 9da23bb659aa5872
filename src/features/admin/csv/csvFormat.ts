import Papa from 'papaparse';
import type { ProductFields } from '../../../lib/domain/tables';

/**
 * The catalogue's CSV format (docs/csv.md): UTF-8 with a byte-order mark (so
 * Excel reads it as UTF-8), comma-separated, CRLF line ends, a header row with these columns in
 * any order (names case-insensitive), one product a row.
 */
export const CSV_COLUMNS = ['title', 'category', 'price', 'comment', 'image', 'link'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Which product field each column holds. */
export const FIELD_OF: Record<CsvColumn, keyof ProductFields> = {
  title: 'title',
  category: 'cat',
  price: 'price',
  comment: 'com',
  image: 'image',
  link: 'link',
};

export const BOM = '\uFEFF';

/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with = + - @ (or a tab or CR
 * before one) as a formula. Such a cell is written with a leading apostrophe, which spreadsheets
 * show as text. So that import can undo it exactly, a cell that already starts with an apostrophe
 * gets one more: on reading, ONE leading apostrophe is dropped when the next character is one of
 * these or another apostrophe. A cell written by a person as "'hello" stays "'hello".
 */
const DANGEROUS_FIRST = new Set(['=', '+', '-', '@', '\t', '\r', "'"]);

export function neutraliseCell(value: string): string {
  return value.length > 0 && DANGEROUS_FIRST.has(value[0]!) ? `'${value}` : value;
}

export function restoreCell(value: string): string {
  return value.length > 1 && value[0] === "'" && DANGEROUS_FIRST.has(value[1]!)
    ? value.slice(1)
    : value;
}

/** Rows as CSV text (no BOM), every cell neutralised; the header only when asked. */
export function toCsv(products: readonly ProductFields[], withHeader: boolean): string {
  const data = products.map((p) => CSV_COLUMNS.map((c) => neutraliseCell(p[FIELD_OF[c]])));
  return Papa.unparse(
    { fields: [...CSV_COLUMNS], data },
    { header: withHeader, newline: '\r\n', quotes: false, escapeFormulae: false },
  );
}

/** A parsed file: the products in file order with their line numbers, or why it was refused. */
export type ParsedCsv =
  { ok: true; rows: CsvRow[] } | { ok: false; reason: CsvRefusal; columns?: string[] };

export interface CsvRow extends ProductFields {
  /** Row in the file as a spreadsheet numbers it (the header is row 1; blank rows skipped). */
  line: number;
}

export type CsvRefusal = 'notCsv' | 'tooBig' | 'tooManyRows' | 'missingColumns' | 'unknownColumns';

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_ROWS = 50_000;

/** Parses the text of a file; refuses anything that is not this format. */
export function parseCsv(text: string): ParsedCsv {
  const body = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  // eslint-disable-next-line no-control-regex -- NUL bytes mean a binary file (xlsx, image, …)
  if (body.trim() === '' || /\u0000/.test(body)) return { ok: false, reason: 'notCsv' };
  const result = Papa.parse<string[]>(body, { skipEmptyLines: 'greedy', delimiter: ',' });
  const [header, ...records] = result.data;
  const badQuotes = result.errors.some((e) => e.type === 'Quotes');
  if (!header || badQuotes) return { ok: false, reason: 'notCsv' };
  const names = header.map((h) => h.trim().toLowerCase());
  const missing = CSV_COLUMNS.filter((c) => !names.includes(c));
  const unknown = names.filter((n) => !(CSV_COLUMNS as readonly string[]).includes(n));
  if (missing.length === CSV_COLUMNS.length) return { ok: false, reason: 'notCsv' };
  if (missing.length) return { ok: false, reason: 'missingColumns', columns: missing };
  if (unknown.length || new Set(names).size !== names.length) {
    return { ok: false, reason: 'unknownColumns', columns: unknown.length ? unknown : names };
  }
  if (records.length > MAX_ROWS) return { ok: false, reason: 'tooManyRows' };
  const index = Object.fromEntries(CSV_COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<
    CsvColumn,
    number
  >;
  const rows = records.map((cells, i) => {
    const row = { line: i + 2 } as CsvRow;
    for (const c of CSV_COLUMNS) row[FIELD_OF[c]] = restoreCell(cells[index[c]] ?? '');
    return row;
  });
  return { ok: true, rows };
}
