import Papa from 'papaparse';
import { texts } from '../../../adminTexts';
import { BOM, neutraliseCell } from '../csv/csvFormat';

/** One row of the exported table: a product's clicks in the period. */
export interface ClicksCsvRow {
  title: string;
  category: string;
  clicks: number;
}

/**
 * The Insights table as CSV, in the catalogue export's format (docs/csv.md):
 * UTF-8 with a byte-order mark, CRLF, header first, and every text cell neutralised against
 * formula injection (a product titled "=HYPERLINK(…)" arrives in the spreadsheet as text).
 */
export function clicksCsv(rows: readonly ClicksCsvRow[]): string {
  const data = rows.map((r) => [neutraliseCell(r.title), neutraliseCell(r.category), r.clicks]);
  const body = Papa.unparse(
    { fields: [...texts.insights.csvHeader], data },
    { header: true, newline: '\r\n', quotes: false, escapeFormulae: false },
  );
  // Papa ends a header-only file with a line break already, a file with rows without one.
  return `${BOM}${body.endsWith('\r\n') ? body : `${body}\r\n`}`;
}
