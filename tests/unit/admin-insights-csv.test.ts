// The Insights CSV export: the catalogue export's format (BOM, CRLF, header) with every text
// cell neutralised, so a product title cannot become a formula in the owner's spreadsheet.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { BOM, restoreCell } from '../../src/features/admin/csv/csvFormat';
import { clicksCsv } from '../../src/features/admin/insights/insightsCsv';

describe('clicksCsv', () => {
  it('writes a BOM, a header and one CRLF line a product, most clicked first as given', () => {
    const csv = clicksCsv([
      { title: 'Racket', category: 'Tennis', clicks: 12 },
      { title: 'Ball, size 5', category: 'Football', clicks: 3 },
    ]);
    expect(csv.startsWith(BOM)).toBe(true);
    expect(csv.slice(BOM.length)).toBe(
      'product,catagory,clicks\r\nRacket,Tennis,12\r\n"Ball, size 5",Football,3\r\n',
    );
  });

  it('neutralises formula cells, and reading them back gives the titles as they are', () => {
    const rows = [
      { title: '=HYPERLINK("http://evil.example","Click")', category: '+Cat', clicks: 1 },
      { title: '@SUM(A1)', category: '-5', clicks: 2 },
    ];
    const csv = clicksCsv(rows);
    const parsed = Papa.parse<string[]>(csv.slice(BOM.length).trim(), { newline: '\r\n' }).data;
    expect(parsed.slice(1).map((r) => r.slice(0, 2))).toEqual([
      ['\'=HYPERLINK("http://evil.example","Click")', "'+Cat"],
      ["'@SUM(A1)", "'-5"],
    ]);
    expect(parsed.slice(1).map((r) => [restoreCell(r[0]!), restoreCell(r[1]!), r[2]])).toEqual([
      [rows[0]!.title, rows[0]!.category, '1'],
      [rows[1]!.title, rows[1]!.category, '2'],
    ]);
  });

  it('an empty period is the header alone', () => {
    expect(clicksCsv([])).toBe(`${BOM}product,catagory,clicks\r\n`);
  });
});
