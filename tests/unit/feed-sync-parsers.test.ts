// REQ-FEED-2 / REQ-FEED-6: the feed-sync function's streaming readers (decision 0242): CSV/TSV
// records with exact byte offsets (a resumed run parses from resume_bytes and gets the same rows),
// clear line numbers, the row limit, Google Merchant XML with the g: namespace, chunked bodies
// and gzip detection.
import { describe, expect, it } from 'vitest';
import { ChunkedDecoder } from '../../supabase/functions/_shared/chunked.ts';
import { isGzip, maybeGunzip } from '../../supabase/functions/feed-sync/gzip.ts';
import {
  AWIN_PRESET,
  effectiveMapping,
  mapRecord,
  suggestMapping,
} from '../../supabase/functions/feed-sync/mapping.ts';
import { CsvParser, type CsvRecord } from '../../supabase/functions/feed-sync/parse-csv.ts';
import { XmlItemParser } from '../../supabase/functions/feed-sync/parse-xml.ts';

const enc = (s: string) => new TextEncoder().encode(s);

/** Parses `bytes` pushed in pieces of `step` bytes from `offset` (a resumed run). */
function parse(bytes: Uint8Array, step: number, offset = 0, line = 1, delimiter: ',' | '\t' = ',') {
  const p = new CsvParser({ delimiter, maxRowBytes: 1024, startOffset: offset, startLine: line });
  const out: CsvRecord[] = [];
  for (let i = offset; i < bytes.length; i += step)
    out.push(...p.push(bytes.subarray(i, i + step)));
  out.push(...p.end());
  return out;
}

const FEED =
  '\uFEFFid,title,price\r\n' +
  '1,"Ball, size 5",12.99\r\n' +
  '2,"Bat ""pro""",£40\r\n' +
  '\r\n' +
  '3,"Two\nlines",9\n' +
  '4,Näve,1.50';

describe('CSV reader (REQ-FEED-2)', () => {
  it('reads quotes, doubled quotes, embedded newlines, CRLF, BOM and a last line without end', () => {
    for (const step of [1, 3, 7, 1000]) {
      const recs = parse(enc(FEED), step);
      expect(recs.map((r) => r.fields)).toEqual([
        ['id', 'title', 'price'],
        ['1', 'Ball, size 5', '12.99'],
        ['2', 'Bat "pro"', '£40'],
        ['3', 'Two\nlines', '9'],
        ['4', 'Näve', '1.50'],
      ]);
      expect(recs.map((r) => r.line)).toEqual([1, 2, 3, 5, 7]);
    }
  });

  it('resuming from any record end gives the same rows as a full parse', () => {
    const bytes = enc(FEED);
    const full = parse(bytes, 5);
    for (let k = 0; k < full.length - 1; k++) {
      const at = full[k]!;
      const nextLine = at.line + 1 + at.fields.join('').split('\n').length - 1;
      const resumed = parse(bytes, 4, at.end, nextLine);
      expect(resumed).toEqual(full.slice(k + 1));
    }
  });

  it('decodes only the kept columns; an unmapped one keeps just its newlines for line numbers', () => {
    const p = new CsvParser({ delimiter: ',', maxRowBytes: 1024 });
    p.keep = (i) => i !== 1;
    const enc = new TextEncoder();
    const recs = [...p.push(enc.encode('a,"long\ntext\nhere",c\nd,e,f\n')), ...p.end()];
    expect(recs.map((r) => r.fields)).toEqual([
      ['a', '\n\n', 'c'],
      ['d', '', 'f'],
    ]);
  });

  it('reads TSV', () => {
    expect(parse(enc('a\tb\n1\t"x\ty"\n'), 2, 0, 1, '\t').map((r) => r.fields)).toEqual([
      ['a', 'b'],
      ['1', 'x\ty'],
    ]);
  });

  it('names the line of an unclosed quote', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `${i},t`).join('\n');
    expect(() => parse(enc(`id,t\n${rows}\n"open,1\n2,3\n`), 4096)).toThrow(
      'Line 5,002: a quoted field is not closed',
    );
  });

  it('names text after a closing quote', () => {
    expect(() => parse(enc('a,b\n"x"y,1\n'), 3)).toThrow(
      'Line 2: a closing quote is followed by text',
    );
  });

  it('refuses a row longer than the limit without holding it all', () => {
    const long = `id\n1\n${'x'.repeat(5000)}\n`;
    expect(() => parse(enc(long), 100)).toThrow('Line 3: a row is longer than 1,024 bytes');
  });
});

describe('Google Merchant XML (REQ-FEED-2)', () => {
  const xml = `<?xml version="1.0"?>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Shop</title>
<item>
  <g:id>A1</g:id><title><![CDATA[Ball & net]]></title>
  <link>https://shop.example/a1</link><g:price>12.99 GBP</g:price>
  <g:shipping><g:country>GB</g:country><g:price>3.50 GBP</g:price></g:shipping>
  <g:gtin>5012345678900</g:gtin><g:image_link>https://shop.example/a1.jpg</g:image_link>
</item>
<item><g:id>A2</g:id><link>https://shop.example/a2</link><g:price>5 GBP</g:price>
<g:availability>out of stock</g:availability></item>
</channel></rss>`;

  it('reads items with the g: namespace in any chunking, shipping price as delivery', () => {
    for (const step of [1, 13, 10_000]) {
      const p = new XmlItemParser(10_000);
      const bytes = enc(xml);
      const items = [];
      for (let i = 0; i < bytes.length; i += step)
        items.push(...p.push(bytes.subarray(i, i + step)));
      items.push(...p.end());
      const rows = items.map((it) =>
        mapRecord(it.line, it.record, effectiveMapping('google_xml', {})),
      );
      expect(rows).toEqual([
        {
          line: 3,
          id: 'A1',
          gtin: '5012345678900',
          title: 'Ball & net',
          link: 'https://shop.example/a1',
          price: '12.99 GBP',
          delivery: '3.50 GBP',
          image: 'https://shop.example/a1.jpg',
        },
        {
          line: 9,
          id: 'A2',
          link: 'https://shop.example/a2',
          price: '5 GBP',
          availability: 'out of stock',
        },
      ]);
      expect(items.map((i) => i.index)).toEqual([1, 2]);
    }
  });

  it('names the line of broken XML', () => {
    const p = new XmlItemParser(10_000);
    expect(() => {
      p.push(enc('<rss><channel>\n<item><g:id>1</g:id>\n<title>x</item>'));
      p.end();
    }).toThrow(/^Line 3: the XML is not well-formed/);
  });
});

describe('mappings and presets (REQ-FEED-1)', () => {
  it('maps an Awin row with the preset', () => {
    const rec = new Map(
      Object.entries({
        merchant_product_id: 'M1',
        aw_deep_link: 'https://a',
        search_price: ' 9.99 ',
        ean: '',
      }),
    );
    expect(mapRecord(4, rec, effectiveMapping('awin_csv', {}))).toEqual({
      line: 4,
      id: 'M1',
      link: 'https://a',
      price: '9.99',
    });
    expect(effectiveMapping('awin_csv', { price: 'display_price' }).price).toBe('display_price');
    expect(AWIN_PRESET.availability).toBe('in_stock');
  });

  it('suggests a mapping from header names', () => {
    expect(
      suggestMapping(['SKU', 'Product Name', 'URL', 'Price', 'EAN', 'Image URL'], 'csv'),
    ).toEqual({
      id: 'SKU',
      gtin: 'EAN',
      title: 'Product Name',
      link: 'URL',
      price: 'Price',
      image: 'Image URL',
    });
  });
});

describe('download decoding (REQ-FEED-6)', () => {
  it('decodes a chunked body split anywhere', () => {
    const raw = enc('5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n');
    for (const step of [1, 2, 5, 100]) {
      const d = new ChunkedDecoder();
      let out = '';
      for (let i = 0; i < raw.length; i += step)
        for (const p of d.push(raw.subarray(i, i + step))) out += new TextDecoder().decode(p);
      expect(out).toBe('hello, world');
      expect(d.done).toBe(true);
    }
    expect(() => new ChunkedDecoder().push(enc('zz\r\n'))).toThrow('bad chunk size');
  });

  it('gunzips by magic bytes and passes plain bytes through', async () => {
    const text = 'id,price\n1,2\n';
    const gz = new Uint8Array(
      await new Response(
        new Blob([text]).stream().pipeThrough(new CompressionStream('gzip')),
      ).arrayBuffer(),
    );
    expect(isGzip(gz)).toBe(true);
    expect(isGzip(enc(text))).toBe(false);
    const read = (b: Uint8Array<ArrayBuffer>) =>
      new Response(maybeGunzip(new Blob([b]).stream(), 'auto')).text();
    expect(await read(gz)).toBe(text);
    expect(await read(enc(text))).toBe(text);
  });
});
