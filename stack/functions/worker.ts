// One edge function in its own Deno process, started by the router (stack/functions/router.ts):
// the local stand-in for the runtime's per-function worker. Its V8 heap is capped by the
// router's `--v8-flags=--max-old-space-size`, its CPU time and wall clock are watched by the
// router (decision 0204). Usage: `deno run … worker.ts <name> <entry file>`; it prints
// `__edge_worker_listening__ <port>` (READY_MARK in workers.ts) once the handler listens.

type Handler = (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

const READY_MARK = '__edge_worker_listening__';

const [name, entry] = Deno.args;
if (!name || !entry) throw new Error('usage: worker.ts <name> <entry file>');

const realServe = Deno.serve.bind(Deno);
let handler: Handler | undefined;

function pickHandler(a: unknown, b: unknown): Handler | undefined {
  if (typeof a === 'function') return a as Handler;
  if (typeof b === 'function') return b as Handler;
  if (a && typeof a === 'object' && typeof (a as { handler?: unknown }).handler === 'function') {
    return (a as { handler: Handler }).handler;
  }
  return undefined;
}

// Deno.serve records the function's handler instead of opening a port of the function's own;
// the returned object is shaped like Deno.HttpServer so module code that keeps it still works.
(Deno as unknown as { serve: unknown }).serve = (a: unknown, b: unknown) => {
  const picked = pickHandler(a, b);
  if (!picked) throw new Error(`function "${name}" called Deno.serve() without a handler`);
  handler = picked;
  return {
    addr: { transport: 'tcp', hostname: '127.0.0.1', port: 0 },
    finished: new Promise<void>(() => {}),
    ref() {},
    unref() {},
    shutdown: () => Promise.resolve(),
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
};

// Supabase's runtime global for work that outlives the response (`EdgeRuntime.waitUntil`).
Object.defineProperty(globalThis, 'EdgeRuntime', {
  value: {
    waitUntil(promise: Promise<unknown>) {
      Promise.resolve(promise).catch((err) =>
        console.error(`[functions] ${name}: waitUntil task failed:`, err),
      );
    },
  },
});

// The CPU time the router holds the function to is measured off the main thread.
new Worker(new URL('./cpu-meter.ts', import.meta.url).href, { type: 'module' });

// The router keeps stdin open: when it goes away, however it ends, so does this worker.
void (async () => {
  for await (const _ of Deno.stdin.readable) {
    // nothing is sent; only the end matters
  }
  Deno.exit(0);
})();

await import(new URL(`file://${entry}`).href);
const serve = handler;
if (!serve) throw new Error(`function "${name}" did not call Deno.serve()`);

realServe(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(`${READY_MARK} ${port}`),
  },
  async (req, info) => {
    try {
      return await serve(req, info);
    } catch (err) {
      console.error(`[functions] ${name} threw:`, err);
      return Response.json(
        { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' },
        { status: 500 },
      );
    }
  },
);
