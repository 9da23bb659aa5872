// Local edge-functions runtime (Deno code, started by stack/functions.ts).
//
// Supabase runs each `supabase/functions/<name>/index.ts` in its own worker; that needs the
// edge-runtime binary, which has no npm package. This router runs them all in one Deno process:
// it replaces `Deno.serve` so that importing a function module registers its handler instead of
// opening a port, then serves `/<name>/*` and hands each request to that handler, as the
// runtime's main service does (stack/PLATFORM.md: Edge functions).

interface RouterConfig {
  hostname: string;
  port: number;
  functionsDir: string;
  jwtSecret: string;
  /** Per-function settings from config.toml; functions without a section verify JWTs. */
  functions: Record<string, { enabled: boolean; verifyJwt: boolean }>;
}

type Handler = (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

const config = JSON.parse(Deno.env.get('FUNCTIONS_ROUTER_CONFIG') ?? '{}') as RouterConfig;
// The JWT secret is not something functions get on hosted Supabase: hide the router's config.
Deno.env.delete('FUNCTIONS_ROUTER_CONFIG');

const SLUG = /^[A-Za-z][A-Za-z0-9_-]*$/;
const realServe = Deno.serve.bind(Deno);
const handlers = new Map<string, Handler>();
const loading = new Map<string, Promise<Handler>>();
let registering: string | null = null;
let importQueue: Promise<unknown> = Promise.resolve();

function pickHandler(a: unknown, b: unknown): Handler | undefined {
  if (typeof a === 'function') return a as Handler;
  if (typeof b === 'function') return b as Handler;
  if (a && typeof a === 'object' && typeof (a as { handler?: unknown }).handler === 'function') {
    return (a as { handler: Handler }).handler;
  }
  return undefined;
}

// Replacement Deno.serve: records the handler of the function module being imported and returns
// an object shaped like Deno.HttpServer so module code that keeps the server still works.
(Deno as unknown as { serve: unknown }).serve = (a: unknown, b: unknown) => {
  const handler = pickHandler(a, b);
  if (!registering) throw new Error('Deno.serve() was called outside of an edge function module');
  if (!handler) throw new Error(`function "${registering}" called Deno.serve() without a handler`);
  handlers.set(registering, handler);
  const addr = { transport: 'tcp', hostname: config.hostname, port: config.port };
  return {
    addr,
    finished: new Promise<void>(() => {}),
    ref() {},
    unref() {},
    shutdown: () => Promise.resolve(),
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
};

// Supabase's runtime global for work that outlives the response (`EdgeRuntime.waitUntil`); in
// this long-lived process the promise simply keeps running.
if (!('EdgeRuntime' in globalThis)) {
  Object.defineProperty(globalThis, 'EdgeRuntime', {
    value: {
      waitUntil(promise: Promise<unknown>) {
        Promise.resolve(promise).catch((err) =>
          console.error('[functions] waitUntil task failed:', err),
        );
      },
    },
  });
}

function entryFile(name: string): string {
  return `${config.functionsDir}/${name}/index.ts`;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await Deno.stat(file)).isFile;
  } catch {
    return false;
  }
}

// Imports are serialised: `registering` names the module whose top level is running.
function load(name: string): Promise<Handler> {
  const cached = handlers.get(name);
  if (cached) return Promise.resolve(cached);
  let pending = loading.get(name);
  if (!pending) {
    pending = importQueue.then(async () => {
      registering = name;
      try {
        await import(new URL(`file://${entryFile(name)}`).href);
      } finally {
        registering = null;
      }
      const handler = handlers.get(name);
      if (!handler) throw new Error(`function "${name}" did not call Deno.serve()`);
      console.log(`[functions] loaded ${name}`);
      return handler;
    });
    importQueue = pending.catch(() => undefined);
    loading.set(name, pending);
    // A failed boot is retried on the next request (e.g. after the file was fixed).
    pending.catch(() => loading.delete(name));
  }
  return pending;
}

function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...extra },
  });
}

const encoder = new TextEncoder();
let hmacKey: Promise<CryptoKey> | null = null;

function b64urlDecode(s: string): Uint8Array<ArrayBuffer> {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** HS256 verification with expiry, as the runtime's verify_jwt does (role is not checked). */
async function isValidJwt(token: string): Promise<boolean> {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  try {
    const header = JSON.parse(new TextDecoder().decode(b64urlDecode(parts[0]!))) as {
      alg?: string;
    };
    if (header.alg !== 'HS256') return false;
    hmacKey ??= crypto.subtle.importKey(
      'raw',
      encoder.encode(config.jwtSecret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    const ok = await crypto.subtle.verify(
      'HMAC',
      await hmacKey,
      b64urlDecode(parts[2]!),
      encoder.encode(`${parts[0]}.${parts[1]}`),
    );
    if (!ok) return false;
    const payload = JSON.parse(new TextDecoder().decode(b64urlDecode(parts[1]!))) as {
      exp?: unknown;
    };
    return !(typeof payload.exp === 'number' && payload.exp < Date.now() / 1000);
  } catch {
    return false;
  }
}

async function authorise(req: Request): Promise<Response | null> {
  const header = req.headers.get('authorization');
  // Bodies as the CLI's main service sends them (`{ msg: e.toString() }`).
  if (!header) return json(401, { msg: 'Error: Missing authorization header' });
  const [scheme, token] = header.split(' ');
  if (scheme !== 'Bearer' || !token)
    return json(401, { msg: "Error: Auth header is not 'Bearer {token}'" });
  if (!(await isValidJwt(token))) return json(401, { msg: 'Invalid JWT' });
  return null;
}

/**
 * Loads every function once in the background after start-up: npm: imports are fetched and
 * compiled before the first request needs them, and a function that fails to boot shows up in
 * the log right away. Failures are not fatal (requests retry the import).
 */
async function warmUp(): Promise<void> {
  for await (const entry of Deno.readDir(config.functionsDir)) {
    const settings = config.functions[entry.name] ?? { enabled: true, verifyJwt: true };
    if (!entry.isDirectory || !SLUG.test(entry.name) || !settings.enabled) continue;
    if (!(await exists(entryFile(entry.name)))) continue;
    await load(entry.name).catch((err) =>
      console.error(`[functions] ${entry.name} failed to boot:`, err),
    );
  }
}

realServe(
  {
    hostname: config.hostname,
    port: config.port,
    onListen: ({ hostname, port }) => {
      console.log(`functions router listening on http://${hostname}:${port}`);
      void warmUp();
    },
  },
  async (req, info) => {
    const url = new URL(req.url);
    const name = url.pathname.split('/')[1] ?? '';
    if (url.pathname === '/_internal/health') return json(200, { status: 'ok' });

    const settings = config.functions[name] ?? { enabled: true, verifyJwt: true };
    if (!SLUG.test(name) || !settings.enabled || !(await exists(entryFile(name)))) {
      return new Response('Function not found', {
        status: 404,
        headers: { 'content-type': 'text/plain' },
      });
    }
    if (settings.verifyJwt && req.method !== 'OPTIONS') {
      const refused = await authorise(req);
      if (refused) return refused;
    }

    let handler: Handler;
    try {
      handler = await load(name);
    } catch (err) {
      console.error(`[functions] ${name} failed to boot:`, err);
      return json(503, {
        code: 'BOOT_ERROR',
        message: 'Worker failed to boot (please check logs)',
      });
    }
    try {
      return await handler(req, info);
    } catch (err) {
      console.error(`[functions] ${name} threw:`, err);
      return json(500, {
        code: 'WORKER_ERROR',
        message: 'Function exited due to an error (please check logs)',
      });
    }
  },
);
