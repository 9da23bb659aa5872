// Edge functions are held to hosted's limits (decision 0204): 256 MB of memory, 2 s of CPU time
// per request (waiting is free), 150 s wall clock and a 150 s request idle timeout. The stack's
// functions runtime reports those defaults; routers started here (the real stack/functions/
// router.ts, with a functions folder of their own and lowered limits, as the STACK_FUNCTIONS_*
// variables lower them) show a function over each limit failing as hosted fails it, called
// with the official functions client: 546 WORKER_RESOURCE_LIMIT for CPU time and memory, the
// response cut at the wall clock, 504 IDLE_TIMEOUT when nothing comes back in time.
import { FunctionsClient, FunctionsHttpError } from '@supabase/functions-js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENO_DIR, functionLimitsFromEnv } from '../../../stack/parts.ts';
import { findFreePortBase } from '../../../stack/stack.ts';
import { stackEnv } from '../../support/stack.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const DENO = path.join(REPO, 'node_modules/deno/deno');

const FUNCTIONS: Record<string, string> = {
  // CPU-bound until told otherwise (`?light` answers at once).
  busy: `Deno.serve((req) => {
    if (new URL(req.url).searchParams.has('light')) return new Response('light');
    const end = Date.now() + 60_000;
    let x = 0;
    while (Date.now() < end) x += Math.sqrt(x + 1);
    return new Response(String(x));
  });`,
  // Waits (async I/O): no CPU time to speak of.
  patient: `Deno.serve(async () => {
    await new Promise((r) => setTimeout(r, 1_500));
    return Response.json({ waited: true });
  });`,
  hungry: `const kept = [];
  Deno.serve(() => {
    for (;;) kept.push(new Array(1_000_000).fill(kept.length));
  });`,
  quiet: `Deno.serve(async () => {
    await new Promise((r) => setTimeout(r, 60_000));
    return new Response('too late');
  });`,
  trickle: `Deno.serve(() => {
    let i = 0;
    const body = new ReadableStream({
      async pull(c) {
        await new Promise((r) => setTimeout(r, 100));
        c.enqueue(new TextEncoder().encode('line ' + i++ + '\\n'));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/plain' } });
  });`,
};

interface Router {
  url: string;
  proc: ChildProcess;
}

const dir = mkdtempSync(path.join(tmpdir(), 'edge-limits-'));
const routers: Router[] = [];

async function startRouter(limits: Record<string, number>): Promise<Router> {
  const port = await findFreePortBase();
  const config = {
    hostname: '127.0.0.1',
    port,
    functionsDir: dir,
    jwtSecret: 'not-used-here',
    functions: Object.fromEntries(
      Object.keys(FUNCTIONS).map((n) => [n, { enabled: true, verifyJwt: false }]),
    ),
    limits: functionLimitsFromEnv(
      Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, String(v)])),
    ),
  };
  const proc = spawn(
    DENO,
    [
      'run',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-sys',
      `--allow-run=${DENO}`,
      '--no-prompt',
      '--node-modules-dir=none',
      '--no-lock',
      path.join(REPO, 'stack/functions/router.ts'),
    ],
    {
      cwd: dir,
      stdio: 'ignore',
      env: {
        ...process.env,
        DENO_DIR,
        DENO_NO_PACKAGE_JSON: '1',
        NO_COLOR: '1',
        FUNCTIONS_ROUTER_CONFIG: JSON.stringify(config),
      },
    },
  );
  const router = { url: `http://127.0.0.1:${port}`, proc };
  routers.push(router);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${router.url}/_internal/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return router;
    if (Date.now() > deadline) throw new Error('the functions router did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The answer of a function as supabase-js reports it: status and JSON body of a failure. */
async function invoke(router: Router, name: string, query = '') {
  const client = new FunctionsClient(router.url);
  const started = Date.now();
  const { data, error } = await client.invoke(`${name}${query}`, { method: 'GET' });
  const ms = Date.now() - started;
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, body: (await res.json()) as unknown, ms, data };
  }
  if (error) throw error;
  return { status: 200, body: data as unknown, ms, data };
}

const RESOURCE_LIMIT = {
  code: 'WORKER_RESOURCE_LIMIT',
  message: 'Function failed due to not having enough compute resources (please check logs)',
};

beforeAll(() => {
  for (const [name, code] of Object.entries(FUNCTIONS)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'index.ts'), code);
  }
});

afterAll(() => {
  for (const r of routers) r.proc.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('the stack’s functions runtime', () => {
  it('holds functions to hosted’s limits by default', async () => {
    const res = await fetch(`${stackEnv().API_URL}/functions/v1/_internal/health`);
    expect(await res.json()).toEqual({
      status: 'ok',
      limits: { memoryMb: 256, cpuMs: 2_000, wallClockMs: 150_000, idleTimeoutMs: 150_000 },
    });
  });
});

describe('CPU time and memory', () => {
  let router: Router;
  beforeAll(async () => {
    router = await startRouter({
      STACK_FUNCTIONS_CPU_MS: 300,
      STACK_FUNCTIONS_MEMORY_MB: 64,
      STACK_FUNCTIONS_IDLE_TIMEOUT_MS: 60_000,
      STACK_FUNCTIONS_WALL_CLOCK_MS: 60_000,
    });
  }, 90_000);

  it('a function over its CPU time gets 546, and the next request a fresh worker', async () => {
    const over = await invoke(router, 'busy');
    expect(over.status).toBe(546);
    expect(over.body).toEqual(RESOURCE_LIMIT);
    const after = await invoke(router, 'busy', '?light');
    expect(after).toMatchObject({ status: 200, data: 'light' });
  }, 60_000);

  it('waiting is not CPU time: 1.5 s of waiting under a 0.3 s CPU limit answers', async () => {
    const res = await invoke(router, 'patient');
    expect(res).toMatchObject({ status: 200, body: { waited: true } });
    expect(res.ms).toBeGreaterThanOrEqual(1_500);
  }, 60_000);

  it('a function over its memory gets 546', async () => {
    const res = await invoke(router, 'hungry');
    expect(res.status).toBe(546);
    expect(res.body).toEqual(RESOURCE_LIMIT);
  }, 60_000);
});

describe('wall clock and idle timeout', () => {
  let router: Router;
  beforeAll(async () => {
    router = await startRouter({
      STACK_FUNCTIONS_IDLE_TIMEOUT_MS: 1_000,
      STACK_FUNCTIONS_WALL_CLOCK_MS: 2_500,
    });
  }, 90_000);

  it('no answer within the idle timeout: 504 IDLE_TIMEOUT', async () => {
    const res = await invoke(router, 'quiet');
    expect(res.status).toBe(504);
    expect(res.body).toEqual({
      code: 'IDLE_TIMEOUT',
      message: 'Request idle timeout limit (1s) reached',
    });
    expect(res.ms).toBeLessThan(10_000);
  }, 60_000);

  it('a response still streaming at the wall clock is cut off there', async () => {
    const started = Date.now();
    const res = await fetch(`${router.url}/trickle`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    let cut = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    } catch {
      cut = true;
    }
    const ms = Date.now() - started;
    expect(text).toContain('line 0');
    expect(ms).toBeGreaterThanOrEqual(2_500);
    expect(ms).toBeLessThan(20_000);
    // The worker is ended: the body stops without a proper end.
    expect(cut).toBe(true);
  }, 60_000);
});
