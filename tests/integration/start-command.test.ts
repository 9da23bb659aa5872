// REQ-PATH-17: `npm start` itself, run as a developer runs it. With a port of its range held busy
// by a real listener it names a command that works (`npm start -- --port-base <n>` with a range
// that is free) and where the mail catcher moves to; while it runs it says how to stop it (here
// against the integration stack already running, the quick path of `npm start`: no second stack
// is started, so the file takes seconds).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PORT_SPAN, parsePortBase, REPO_ROOT } from '../../stack/config.ts';
import { findFreePortBase } from '../../stack/ports.ts';
import { portFree } from '../../stack/process.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'mar-start-cmd-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  output: () => string;
  exited: Promise<number | null>;
  alive: () => boolean;
  stop: () => void;
}

/** `npm start -- <args>` in its own process group, its stdout and stderr collected. */
function npmStart(args: string[]): Run {
  const child = spawn('npm', ['start', '--', ...args], {
    cwd: REPO_ROOT,
    detached: true,
    env: { ...process.env, NO_COLOR: '1', STACK_PORT_BASE: '', STACK_DATA_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  let running = true;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running = false;
      resolve(code);
    }),
  );
  return {
    output: () => out,
    exited,
    alive: () => running,
    stop: () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

async function waitFor(run: Run, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!run.output().includes(text)) {
    if (Date.now() > deadline || !run.alive())
      throw new Error(`"${text}" not printed; output:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A real listener on 127.0.0.1:port, as another program holding it. */
async function holdPort(port: number): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, resolve);
  });
  return server;
}

describe('REQ-PATH-17 npm start', () => {
  it('with a port in use it names a command that works and where the mail catcher moves', async () => {
    const base = await findFreePortBase();
    const busy = await holdPort(base + 1); // the database's port of that range
    try {
      const run = npmStart(['--port-base', String(base), '--data-dir', path.join(tmp, 'busy')]);
      expect(await run.exited).toBe(1);
      const out = run.output();
      expect(out).toContain(`ports in use: db ${base + 1}`);
      const named = /npm start -- --port-base (\d+)/.exec(out);
      expect(named, out).not.toBeNull();
      const suggested = Number(named![1]);
      // The command works: npm hands the flag to the stack's command line, which accepts it, and
      // every port of the suggested range is free.
      expect(
        (
          JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
            scripts: Record<string, string>;
          }
        ).scripts.start,
      ).toBe('tsx stack/cli.ts dev');
      expect(parsePortBase(String(suggested))).toBe(suggested);
      for (let p = suggested; p <= suggested + PORT_SPAN; p++) expect(await portFree(p)).toBe(true);
      // Where the mail catcher moves: 3 above the API port, as in supabase/config.toml.
      expect(out).toContain(
        `the mail catcher (Mailpit) moves to\nhttp://127.0.0.1:${suggested + 3}`,
      );
      expect(out).toContain('npm run stack -- stop');
    } finally {
      busy.close();
    }
  });

  it('says how to stop it while it runs (Ctrl+C)', async () => {
    // The integration stack's data dir: `npm start` finds that stack running and uses it.
    const logs = process.env.STACK_LOGS_DIR;
    if (!logs) throw new Error('STACK_LOGS_DIR is not set: run through the integration project');
    const run = npmStart(['--data-dir', path.dirname(logs)]);
    try {
      await waitFor(run, 'Using the local stack already running', 60_000);
      await waitFor(run, 'Press Ctrl+C to stop', 10_000);
      expect(run.alive()).toBe(true);
    } finally {
      run.stop();
      await run.exited;
    }
  });
});
