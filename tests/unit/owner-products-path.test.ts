// REQ-PATH-12 and REQ-PATH-13, the pure parts: the CSV export's lines, the template, the import
// preview's field changes, and which first bytes are a picture's.
import { describe, expect, it } from 'vitest';
import { texts } from '../../src/adminTexts';
import { texts as csvTexts } from '../../src/adminCsvTexts';
import { BOM, parseCsv } from '../../src/features/admin/csv/csvFormat';
import { exportCsv, templateCsv } from '../../src/features/admin/csv/exportCsv';
import { fieldChanges } from '../../src/features/admin/csv/importCsv';
import { looksLikePicture } from '../../src/features/admin/images/imageRules';
import type { StoreProduct } from '../../src/lib/domain/tables';

const preview = csvTexts.csvPreview;

const product = (title: string) =>
  ({
    title,
    cat: 'Golf',
    price: '£1.00',
    com: 'c',
    image: '/a.svg',
    link: 'https://a.example',
  }) as StoreProduct;

describe('REQ-PATH-12 CSV export and template', () => {
  it('writes no blank row after the header or between pages', async () => {
    const pages = [[product('A'), product('B')], [product('C')], []];
    const file = await exportCsv(async () => pages.shift() ?? []);
    const text = file.parts.join('');
    expect(text.startsWith(BOM)).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      'title,category,price,comment,image,link',
      'A,Golf,£1.00,c,/a.svg,https://a.example',
      'B,Golf,£1.00,c,/a.svg,https://a.example',
      'C,Golf,£1.00,c,/a.svg,https://a.example',
      '',
    ]);
    expect(file.rows).toBe(3);
  });

  it('writes the header alone for an empty catalogue', async () => {
    const file = await exportCsv(async () => []);
    expect(file.parts.join('')).toBe(`${BOM}title,category,price,comment,image,link\r\n`);
  });

  it('offers a template of the header and one example row that imports as it is', () => {
    const text = templateCsv(preview.templateExample).parts.join('');
    expect(text.slice(1).split('\r\n')).toHaveLength(3);
    const parsed = parseCsv(text);
    expect(parsed.ok && parsed.rows.map(({ line: _, ...r }) => r)).toEqual([
      preview.templateExample,
    ]);
  });
});

describe('REQ-PATH-12 import preview changes', () => {
  const stored = { cat: 'Golf', price: '£1.00', com: 'c', image: '/a.svg', link: 'https://a' };

  it('lists each changed field with before and after, in the form’s order', () => {
    expect(fieldChanges(stored, { ...stored, link: 'https://b', price: '£2.00' })).toEqual([
      { field: texts.productForm.price, before: '£1.00', after: '£2.00' },
      { field: texts.productForm.link, before: 'https://a', after: 'https://b' },
    ]);
  });

  it('lists nothing for an unchanged row', () => {
    expect(fieldChanges(stored, { ...stored })).toEqual([]);
  });
});

describe('REQ-PATH-13 a picture’s first bytes', () => {
  const bytes = (...b: number[]) => new Uint8Array([...b, ...new Array(16).fill(0)]);
  it('knows JPEG, PNG, GIF, WebP, BMP and AVIF/HEIC', () => {
    expect(looksLikePicture(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe(true);
    expect(looksLikePicture(bytes(0x89, 0x50, 0x4e, 0x47))).toBe(true);
    expect(looksLikePicture(new TextEncoder().encode('GIF89a'))).toBe(true);
    expect(looksLikePicture(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe(true);
    expect(looksLikePicture(new TextEncoder().encode('BM6\0'))).toBe(true);
    expect(looksLikePicture(new TextEncoder().encode('\0\0\0\x1cftypavif'))).toBe(true);
  });

  it('refuses text, PDF and an empty file', () => {
    expect(looksLikePicture(new TextEncoder().encode('These are my notes'))).toBe(false);
    expect(looksLikePicture(new TextEncoder().encode('%PDF-1.7'))).toBe(false);
    expect(looksLikePicture(new Uint8Array())).toBe(false);
  });
});
