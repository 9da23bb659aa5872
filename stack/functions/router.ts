// Local edge-functions runtime (Deno code, started by stack/parts.ts).
//
// Supabase runs each `supabase/functions/<name>/index.ts` in its own worker; that needs the
// edge-runtime binary, which has no npm package. This router serves `/<name>/*` as the
// runtime's main service does (routing, verify_jwt; stack/PLATFORM.md: Edge functions) and hands
// each request to that function's own Deno process, held to hosted's memory, CPU time, wall
// clock and idle limits (workers.ts, decision 0204).
import { HOSTED_LIMITS, WorkerPool, type Limits } from './workers.ts';

interface RouterConfig {
  hostname: string;
  port: number;
  functionsDir: string;
  jwtSecret: string;
  /** Per-function settings from config.toml; functions without a section verify JWTs. */
  functions: Record<string, { enabled: boolean; verifyJwt: boolean }>;
  /** Hosted's limits unless set (tests lower them). */
  limits?: Partial<Limits>;
}

const config = JSON.parse(Deno.env.get('FUNCTIONS_ROUTER_CONFIG') ?? '{}') as RouterConfig;
// The JWT secret is not something functions get on hosted Supabase: hide the router's config
// (workers inherit this environment).
Deno.env.delete('FUNCTIONS_ROUTER_CONFIG');

const SLUG = /^[A-Za-z][A-Za-z0-9_-]*$/;
// What a function may do, as the router itself was started (stack/parts.ts) minus starting
// processes.
const WORKER_DENO_ARGS = [
  '--allow-net',
  '--allow-env',
  '--allow-read',
  '--allow-sys',
  '--no-prompt',
  '--node-modules-dir=none',
  '--no-lock',
];
const limits: Limits = { ...HOSTED_LIMITS, ...config.limits };

function entryFile(name: string): string {
  return `${config.functionsDir}/${name}/index.ts`;
}

const pool = new WorkerPool(entryFile, config.functionsDir, limits, WORKER_DENO_ARGS);
// The workers go with the router (a busy one would not notice its stdin closing).
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  Deno.addSignalListener(signal, () => {
    pool.stopAll();
    Deno.exit(0);
  });
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await Deno.stat(file)).isFile;
  } catch {
    return false;
  }
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
 * Starts every function's worker in the background after start-up: npm: imports are fetched and
 * compiled before the first request needs them, and a function that fails to boot shows up in
 * the log right away. Failures are not fatal (requests retry the import).
 */
async function warmUp(): Promise<void> {
  for await (const entry of Deno.readDir(config.functionsDir)) {
    const settings = config.functions[entry.name] ?? { enabled: true, verifyJwt: true };
    if (!entry.isDirectory || !SLUG.test(entry.name) || !settings.enabled) continue;
    if (!(await exists(entryFile(entry.name)))) continue;
    await pool
      .worker(entry.name)
      .then(() => console.log(`[functions] loaded ${entry.name}`))
      .catch((err) => console.error(`[functions] ${entry.name} failed to boot:`, err));
  }
}

Deno.serve(
  {
    hostname: config.hostname,
    port: config.port,
    onListen: ({ hostname, port }) => {
      console.log(`functions router listening on http://${hostname}:${port}`);
      void warmUp();
    },
  },
  async (req) => {
    const url = new URL(req.url);
    const name = url.pathname.split('/')[1] ?? '';
    if (url.pathname === '/_internal/health') return json(200, { status: 'ok', limits });

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

    return await pool.handle(name, req);
  },
);
