// gzip detection and streamed decompression (DecompressionStream; no Deno APIs, unit-tested).

export const isGzip = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** Gunzips when the first bytes say gzip (or `gzip` is forced); else passes bytes through. */
export function maybeGunzip(
  body: ReadableStream<Uint8Array>,
  compression: 'auto' | 'none' | 'gzip',
): ReadableStream<Uint8Array> {
  if (compression === 'none') return body;
  const reader = body.getReader();
  let decided: ReadableStream<Uint8Array> | null = null;
  let inner: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      if (!inner) {
        const first = await reader.read();
        if (first.done) return c.close();
        const head = first.value;
        const rest = new ReadableStream<Uint8Array>({
          start(cc) {
            cc.enqueue(head);
          },
          async pull(cc) {
            const r = await reader.read();
            if (r.done) cc.close();
            else cc.enqueue(r.value);
          },
          cancel: (why) => reader.cancel(why),
        });
        decided =
          compression === 'gzip' || isGzip(head)
            ? rest.pipeThrough(
                new DecompressionStream('gzip') as unknown as TransformStream<
                  Uint8Array,
                  Uint8Array
                >,
              )
            : rest;
        inner = decided.getReader();
      }
      const r = await inner.read();
      if (r.done) c.close();
      else c.enqueue(r.value);
    },
    cancel: (why) => (inner ? inner.cancel(why) : reader.cancel(why)),
  });
}
