// Streaming CSV/TSV reader over bytes (RFC 4180: quoted fields, doubled quotes, embedded
// newlines, CRLF or LF). Byte-level so every record carries the exact decoded-byte offset of
// its end: a run resumes there (feed_runs.resume_bytes) without parsing what came before
// (decision 0242). Memory: one record at most (FEED_MAX_ROW_BYTES) plus the current chunk. A
// field's bytes are views into the chunk, never copies: a copy per field was millions of small
// buffers per feed, which the garbage collector freed late (resident memory).

export class FeedParseError extends Error {
  constructor(
    readonly line: number,
    what: string,
  ) {
    super(`Line ${formatLine(line)}: ${what}`);
  }
}

/** 5001 -> "5,001" (the run's error texts, as the admin reads them). */
export function formatLine(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export interface CsvRecord {
  /** Physical line where the record starts (1 = the file's first line). */
  line: number;
  fields: string[];
  /** Decoded-byte offset just after the record (and its line end). */
  end: number;
}

export interface CsvOptions {
  delimiter: ',' | '\t';
  maxRowBytes: number;
  /** Where the bytes pushed first sit in the file (a resumed run). */
  startOffset?: number;
  /** Line number of the first byte pushed. */
  startLine?: number;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const enum S {
  FieldStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
}

export class CsvParser {
  private readonly delim: number;
  private readonly max: number;
  private state = S.FieldStart;
  private parts: Uint8Array[] = [];
  private fields: string[] = [];
  private offset: number;
  private line: number;
  private rowLine: number;
  private rowStart: number;
  /** A record ended by CR: emitted once the next byte shows whether an LF belongs to it. */
  private crRecord: CsvRecord | null = null;
  private readonly decoder = new TextDecoder('utf-8');
  private out: CsvRecord[] = [];

  constructor(o: CsvOptions) {
    this.delim = o.delimiter.charCodeAt(0);
    this.max = o.maxRowBytes;
    this.offset = o.startOffset ?? 0;
    this.line = o.startLine ?? 1;
    this.rowLine = this.line;
    this.rowStart = this.offset;
  }

  /**
   * Which columns are decoded (null: all). A feed's unmapped columns (descriptions, often most
   * of its bytes) become '' or only their newlines, kept for the line count: no strings to
   * collect, so memory and CPU follow the mapped columns.
   */
  keep: ((index: number) => boolean) | null = null;

  private endField(): void {
    let text: string;
    if (this.keep && !this.keep(this.fields.length)) {
      let n = 0;
      for (const p of this.parts) for (let i = p.indexOf(LF); i >= 0; i = p.indexOf(LF, i + 1)) n++;
      this.fields.push(n ? '\n'.repeat(n) : '');
      this.parts = [];
      return;
    }
    if (this.parts.length === 0) text = '';
    else if (this.parts.length === 1) text = this.decoder.decode(this.parts[0]);
    else {
      const all = new Uint8Array(this.parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of this.parts) {
        all.set(p, at);
        at += p.length;
      }
      text = this.decoder.decode(all);
    }
    if (this.rowStart === 0 && this.fields.length === 0 && text.charCodeAt(0) === 0xfeff)
      text = text.slice(1);
    this.fields.push(text);
    this.parts = [];
  }

  private tooLong(): FeedParseError {
    return new FeedParseError(this.rowLine, `a row is longer than ${formatLine(this.max)} bytes`);
  }

  /** Ends the record at absolute offset `end` (just after its line end). */
  private endRow(end: number): CsvRecord | null {
    if (end - this.rowStart > this.max) throw this.tooLong();
    const rec = { line: this.rowLine, fields: this.fields, end };
    const blank = rec.fields.length === 1 && rec.fields[0] === '';
    this.fields = [];
    this.line++;
    this.rowLine = this.line;
    this.rowStart = end;
    this.state = S.FieldStart;
    return blank ? null : rec;
  }

  private emit(rec: CsvRecord | null): void {
    if (rec) this.out.push(rec);
  }

  push(chunk: Uint8Array): CsvRecord[] {
    const base = this.offset;
    let seg = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.crRecord) {
        const rec = this.crRecord;
        this.crRecord = null;
        if (b === LF && this.state === S.FieldStart && this.fields.length === 0) {
          rec.end += 1;
          this.rowStart += 1;
          if (rec.fields.length) this.out.push(rec);
          continue;
        }
        if (rec.fields.length) this.out.push(rec);
      }
      switch (this.state) {
        case S.FieldStart:
          if (b === QUOTE) {
            this.state = S.Quoted;
            seg = i + 1;
          } else if (b === this.delim) this.endField();
          else if (b === LF || b === CR) {
            this.endField();
            this.rowEnd(b, base + i + 1);
          } else {
            this.state = S.Unquoted;
            seg = i;
          }
          break;
        case S.Unquoted:
          if (b === this.delim || b === LF || b === CR) {
            this.parts.push(chunk.subarray(seg, i));
            this.endField();
            if (b === this.delim) this.state = S.FieldStart;
            else this.rowEnd(b, base + i + 1);
          }
          break;
        case S.Quoted:
          if (b === QUOTE) {
            this.parts.push(chunk.subarray(seg, i));
            this.state = S.QuoteInQuoted;
          } else if (b === LF) this.line++;
          break;
        case S.QuoteInQuoted:
          if (b === QUOTE) {
            seg = i;
            this.state = S.Quoted;
          } else if (b === this.delim) {
            this.endField();
            this.state = S.FieldStart;
          } else if (b === LF || b === CR) {
            this.endField();
            this.rowEnd(b, base + i + 1);
          } else {
            throw new FeedParseError(
              this.rowLine,
              'a closing quote is followed by text (write a quote inside a quoted field as "")',
            );
          }
          break;
      }
    }
    if (this.state === S.Unquoted || this.state === S.Quoted) {
      this.parts.push(chunk.subarray(seg));
    }
    this.offset = base + chunk.length;
    if (this.offset - this.rowStart > this.max) throw this.tooLong();
    const out = this.out;
    this.out = [];
    return out;
  }

  private rowEnd(b: number, end: number): void {
    const rec = this.endRow(end);
    if (b === CR) this.crRecord = rec ?? { line: 0, fields: [], end };
    else this.emit(rec);
  }

  /** The end of the file: the last record (without a line end), or an unclosed quote. */
  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    if (this.crRecord) {
      if (this.crRecord.fields.length) out.push(this.crRecord);
      this.crRecord = null;
    }
    if (this.state === S.Quoted) {
      throw new FeedParseError(this.rowLine, 'a quoted field is not closed');
    }
    if (this.state !== S.FieldStart || this.fields.length > 0) {
      this.endField();
      const rec = this.endRow(this.offset);
      if (rec) out.push(rec);
    }
    return out;
  }
}
