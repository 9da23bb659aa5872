// The CSV format of the catalogue's export and import (src/features/admin/csv/csvFormat.ts):
// formula cells neutralised and restored exactly, the refusals, and the form's own messages.
import { describe, expect, it } from 'vitest';
import {
  BOM,
  CSV_COLUMNS,
  MAX_ROWS,
  neutraliseCell,
  parseCsv,
  restoreCell,
  toCsv,
} from '../../src/features/admin/csv/csvFormat';
import { checkRows, checkFile } from '../../src/features/admin/csv/importCsv';
import { texts } from '../../src/adminTexts';

const product = (title: string, over: Partial<Record<string, string>> = {}) => ({
  title,
  cat: 'Football',
  price: '£5.00',
  com: 'A comment',
  image: '/products/match-football.svg',
  link: 'https://seller.example.com/x',
  ...over,
});

describe('neutraliseCell / restoreCell', () => {
  const cells = [
    '=SUM(A1:A3)',
    '+44 20 7946 0000',
    '-5',
    '@cmd',
    '\tleading tab',
    '\rleading CR',
    "'already quoted",
    "''two",
    "'=both",
    'plain',
    '',
    "it's fine",
    '£-5',
  ];

  it('prefixes an apostrophe to every cell a spreadsheet would run, and only those', () => {
    for (const cell of cells) {
      const out = neutraliseCell(cell);
      expect(out[0] ?? '', cell).not.toMatch(/^[=+\-@\t\r]$/);
    }
    expect(neutraliseCell('=1+1')).toBe("'=1+1");
    expect(neutraliseCell('plain')).toBe('plain');
    expect(neutraliseCell("it's fine")).toBe("it's fine");
  });

  it('restores exactly what was neutralised', () => {
    for (const cell of cells) expect(restoreCell(neutraliseCell(cell))).toBe(cell);
  });
});

describe('toCsv and parseCsv', () => {
  it('reads back what it writes, BOM, commas, quotes and line breaks included', () => {
    const rows = [
      product('=HYPERLINK("http://evil.example","x")', { com: 'Line 1\r\nLine 2, "quoted"' }),
      product('Ball', { price: '-5', com: '@home' }),
      product('Ｂａｌｌ ünïcödé 🏏', { com: "'apostrophe" }),
    ];
    const text = BOM + toCsv(rows, true);
    expect(text.startsWith('\uFEFFtitle,category,price,comment,image,link\r\n')).toBe(true);
    // The dangerous cells reach the file with their apostrophe (inside quotes where needed).
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).toContain(",'-5,'@home,");
    const parsed = parseCsv(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rows.map(({ line: _, ...r }) => r)).toEqual(rows);
    expect(parsed.rows.map((r) => r.line)).toEqual([2, 3, 4]);
  });

  it('accepts the columns in any order and any case', () => {
    const parsed = parseCsv(
      'LINK,Image,comment,price,Category,title\nhttps://a.example,/a.svg,c,1,Golf,T',
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [
        {
          line: 2,
          title: 'T',
          cat: 'Golf',
          price: '1',
          com: 'c',
          image: '/a.svg',
          link: 'https://a.example',
        },
      ],
    });
  });

  it('refuses files that are not this CSV', () => {
    expect(parseCsv('')).toEqual({ ok: false, reason: 'notCsv' });
    expect(parseCsv('\u0089PNG\r\n\u001a\n\u0000\u0000')).toEqual({ ok: false, reason: 'notCsv' });
    expect(parseCsv('name;email\nA;b')).toEqual({ ok: false, reason: 'notCsv' });
    expect(parseCsv('title,category,price\nA,B,1')).toEqual({
      ok: false,
      reason: 'missingColumns',
      columns: ['comment', 'image', 'link'],
    });
    expect(parseCsv(`${CSV_COLUMNS.join(',')},sku\n1,2,3,4,5,6,7`)).toEqual({
      ok: false,
      reason: 'unknownColumns',
      columns: ['sku'],
    });
    const many = `${CSV_COLUMNS.join(',')}\n${'a,b,c,d,e,f\n'.repeat(MAX_ROWS + 1)}`;
    expect(parseCsv(many)).toEqual({ ok: false, reason: 'tooManyRows' });
    const enough = `${CSV_COLUMNS.join(',')}\n${'a,b,c,d,e,f\n'.repeat(MAX_ROWS)}`;
    expect(parseCsv(enough).ok).toBe(true);
  });

  it('refuses a file over 20 MB before reading it, and says why for each refusal', async () => {
    const big = new File([new Uint8Array(20 * 1024 * 1024 + 1)], 'big.csv', { type: 'text/csv' });
    expect(await checkFile(big)).toEqual({
      ok: false,
      message: texts.catalogueCsv.refusals.tooBig,
    });
    const missing = new File(['title,category\nA,B'], 'm.csv');
    expect(await checkFile(missing)).toEqual({
      ok: false,
      message: 'Missing columns: price, comment, image, link',
    });
  });
});

describe('checkRows', () => {
  it("gives each row the product form's own messages", () => {
    const { accepted, refused } = checkRows([
      { line: 2, ...product('Good') },
      { line: 3, ...product('  ', { link: 'javascript:alert(1)' }) },
      { line: 4, ...product('No link', { link: '' }) },
    ]);
    expect(accepted.map((r) => r.title)).toEqual(['Good']);
    expect(refused).toEqual([
      {
        line: 3,
        title: '  ',
        messages: [texts.validation.titleRequired, texts.productForm.linkInvalid],
      },
      { line: 4, title: 'No link', messages: [texts.validation.linkRequired] },
    ]);
  });
});
