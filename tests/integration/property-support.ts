// Generators shared by the property-based tests (property-*.test.ts): the kinds of input people
// and bots type into forms, and an exact model of the database's own text rules so each generated
// write has a predicted outcome.
/* eslint-disable no-control-regex -- modelling the database's control-character rules is the point */
import fc from 'fast-check';
import pg from 'pg';

/** Inputs known to break naive code: markup, SQL, template syntax, URL schemes, odd unicode. */
export const NASTY = [
  '',
  ' ',
  '   ',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u3000',
  '\u200b',
  '\ufeff',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'; drop table products; --",
  "' OR '1'='1",
  'Robert"); DELETE FROM catagories; --',
  '%00',
  '\\x00',
  '${7*7}',
  '{{7*7}}',
  '../../etc/passwd',
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '//evil.example/',
  'https://shop.example.com/p?q=<b>',
  'é',
  'Ünïcödé',
  '日本語の商品',
  '🏈⚽🎾',
  'A\u0301',
  '\u202eevil',
  'null',
  'undefined',
  '0',
  '-1',
  '£1,299.99',
] as const;

/** Printable code points of all planes except the UTF-16 surrogate range and control characters. */
const printableCodePoint = fc
  .integer({ min: 0x20, max: 0x10ffff })
  .filter((c) => c !== 0x7f && !(c >= 0x80 && c <= 0x9f) && !(c >= 0xd800 && c <= 0xdfff))
  .filter((c) => c !== 0x2028 && c !== 0x2029)
  .map((c) => String.fromCodePoint(c));

/** C0 controls and DEL, without NUL (Postgres text cannot hold NUL at all; tested apart). */
const controlChar = fc
  .oneof(fc.integer({ min: 1, max: 0x1f }), fc.constant(0x7f))
  .map((c) => String.fromCharCode(c));

const whitespace = fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', '\u3000', '');

export const unicodeText = fc
  .array(
    fc.oneof({ weight: 8, arbitrary: printableCodePoint }, { weight: 1, arbitrary: controlChar }),
    {
      maxLength: 40,
    },
  )
  .map((cs) => cs.join(''));

/** Long text around the limits that matter (80, 100, 120, 2000, 2048, 5000). */
export const hugeText = fc
  .tuple(
    fc.constantFrom(
      79,
      80,
      81,
      99,
      100,
      101,
      119,
      120,
      121,
      1999,
      2000,
      2001,
      2048,
      2049,
      5000,
      5001,
      20_000,
    ),
    fc.constantFrom('x', 'é', '日', '🏈', ' ', '<'),
  )
  .map(([n, ch]) => ch.repeat(n));

/** Any hostile-ish text: curated nasties, ASCII, unicode, huge, and combinations with spaces. */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 3, arbitrary: unicodeText },
  { weight: 1, arbitrary: hugeText },
  {
    weight: 2,
    arbitrary: fc
      .tuple(whitespace, fc.constantFrom(...NASTY), fc.string({ maxLength: 10 }), whitespace)
      .map((p) => p.join('')),
  },
);

/** URL-ish inputs: valid http(s) URLs, site paths, and hostile schemes and shapes. */
export const urlText: fc.Arbitrary<string> = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webUrl().map((u) => u.toUpperCase()),
  fc
    .tuple(
      fc.constantFrom(
        'javascript:',
        'JavaScript:',
        ' javascript:',
        'java\tscript:',
        'data:',
        'vbscript:',
        'file:',
        '//',
        '/\\',
        'http:',
        'https:/',
        'ftp://',
        '',
      ),
      fc.string({ maxLength: 30 }),
    )
    .map(([a, b]) => a + b),
  fc.stringMatching(/^\/[a-z0-9/_.-]{0,40}$/),
  nastyText,
);

/** Postgres btrim() with no second argument removes spaces only (not tabs or newlines). */
export function pgTrim(s: string): string {
  return s.replace(/^ +| +$/g, '');
}

/** char_length() counts code points. */
export function cpLen(s: string): number {
  return [...s].length;
}

/** [[:cntrl:]] as the database's UTF-8 locale sees it: C0, DEL, C1 and the line/paragraph separators. */
export function hasCntrl(s: string): boolean {
  return /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(s);
}

/** The database's http(s) URL rule (products_link_check); ASCII-space model of [[:space:]]. */
export function dbHttpUrl(s: string): boolean {
  return (
    cpLen(s) <= 2048 &&
    /^https?:\/\/[^\s\u0000-\u001f\u007f-\u009f/?#\\]+([/?#][^\s\u0000-\u001f\u007f-\u009f]*)?$/i.test(
      s,
    )
  );
}

export function dbImage(s: string): boolean {
  return (
    dbHttpUrl(s) ||
    (cpLen(s) <= 2048 &&
      /^\/[^/\\\s\u0000-\u001f\u007f-\u009f][^\s\u0000-\u001f\u007f-\u009f]*$/.test(s))
  );
}

/** Unicode spaces JS \s knows but a C-library [[:space:]] may not: kept out of URL inputs. */
export function hasAmbiguousSpace(s: string): boolean {
  return /[\u00a0\u1680\u2000-\u200b\u202f\u205f\u3000\ufeff\u0085]/.test(s);
}

/**
 * The code points the database's Unicode tables know, as sorted [first, last] ranges. Postgres
 * ships its own tables (17.x: Unicode 15.1) while Node's ICU may be newer (20.20: Unicode 17), so
 * String.prototype.normalize folds characters the database has never heard of (U+1CCE2, an
 * outlined "M" of Unicode 16, becomes "M" in Node and stays itself in Postgres).
 */
let databaseAssigned: [number, number][] | undefined;

/** Reads which code points the database knows; dbNormaliseTitle needs it first. */
export async function loadDatabaseUnicode(dbUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ lo: number; hi: number }>(
      `select min(n) as lo, max(n) as hi
         from (select n, n - row_number() over (order by n) as run
                 from generate_series(1, 1114111) as n
                where (n < 55296 or n > 57343) and unicode_assigned(chr(n))) as known
        group by run order by lo`,
    );
    databaseAssigned = rows.map((r) => [Number(r.lo), Number(r.hi)]);
  } finally {
    await db.end();
  }
}

export function databaseKnows(cp: number): boolean {
  if (!databaseAssigned) throw new Error('call loadDatabaseUnicode before dbNormaliseTitle');
  let lo = 0;
  let hi = databaseAssigned.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last] = databaseAssigned[mid]!;
    if (cp < first) hi = mid - 1;
    else if (cp > last) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * NFKC as the database computes it. A code point its tables lack has no decomposition, combining
 * class 0 and composes with nothing, so it is kept as it is and splits the text into parts that
 * normalise independently; those parts Node normalises exactly as Postgres does.
 */
function databaseNfkc(s: string): string {
  let out = '';
  let part = '';
  for (const ch of s) {
    if (databaseKnows(ch.codePointAt(0)!)) part += ch;
    else {
      out += part.normalize('NFKC') + ch;
      part = '';
    }
  }
  return out + part.normalize('NFKC');
}

/**
 * private.normalise_title, the way titles (and a product's cat) are stored: NFKC, invisible format
 * characters and non-space controls removed, runs of Unicode white space one space, trimmed.
 */
export function dbNormaliseTitle(s: string): string {
  return databaseNfkc(s)
    .replace(
      // eslint-disable-next-line no-misleading-character-class -- lone invisible code points, on purpose
      /[\u00ad\u034f\u061c\u115f\u1160\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}\u0001-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/gu,
      '',
    )
    .replace(
      /[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u2800]+/gu,
      ' ',
    )
    .replace(/^ +| +$/g, '');
}
