// Byte helpers and chunked transfer-encoding for the streaming HTTP/1 client (no Deno APIs:
// unit tests load them).
/** A response that breaks HTTP/1.1 framing. */
export class ChunkError extends Error {}

export function find(buf: Uint8Array, pattern: number[], from = 0): number {
  outer: for (let i = from; i + pattern.length <= buf.length; i++) {
    for (let j = 0; j < pattern.length; j++) if (buf[i + j] !== pattern[j]) continue outer;
    return i;
  }
  return -1;
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Decodes chunked transfer-encoding incrementally: push() raw bytes, get body bytes back.
 * `done` turns true after the last (zero-size) chunk. Exported for unit tests.
 */
export class ChunkedDecoder {
  private buf: Uint8Array = new Uint8Array(0);
  /** Bytes still to come of the current chunk's data; -1 = expecting a size line. */
  private left = -1;
  /** Data of a chunk is followed by CRLF, which is skipped before the next size line. */
  private needCrlf = false;
  done = false;

  push(bytes: Uint8Array): Uint8Array[] {
    this.buf = concat(this.buf, bytes);
    const out: Uint8Array[] = [];
    for (;;) {
      if (this.done) return out;
      if (this.needCrlf) {
        if (this.buf.length < 2) return out;
        if (this.buf[0] !== 13 || this.buf[1] !== 10) throw new ChunkError('bad chunk end');
        this.buf = this.buf.subarray(2);
        this.needCrlf = false;
      }
      if (this.left < 0) {
        const eol = find(this.buf, [13, 10]);
        if (eol < 0) {
          if (this.buf.length > 1024) throw new ChunkError('chunk size line too long');
          return out;
        }
        const line = new TextDecoder().decode(this.buf.subarray(0, eol)).split(';')[0]!.trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(line)) throw new ChunkError('bad chunk size');
        this.left = parseInt(line, 16);
        this.buf = this.buf.subarray(eol + 2);
        if (this.left === 0) {
          // Trailers are not needed: the body is complete.
          this.done = true;
          return out;
        }
      }
      if (this.buf.length === 0) return out;
      const take = Math.min(this.left, this.buf.length);
      out.push(this.buf.slice(0, take));
      this.buf = this.buf.subarray(take);
      this.left -= take;
      if (this.left === 0) {
        this.left = -1;
        this.needCrlf = true;
      }
    }
  }
}
