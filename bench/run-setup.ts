// What bench/run.ts measures against: a throwaway stack in a child process (so the load
// generator never shares an event loop with the gateway), the production build served by
// `vite preview`, and the Chromium the browser parts drive.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview, type PreviewServer } from 'vite';
import { freePort } from '../tests/support/harness.ts';
import { loadConfig } from '../stack/config.ts';
import { findFreePortBase, readState, type StackEnv } from '../stack/stack.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

export interface Stack {
  env: StackEnv;
  restUrl: string; // PostgREST itself, behind the gateway
  stop(): Promise<void>;
}

export async function startStack(tmp: string): Promise<Stack> {
  const portBase = await findFreePortBase();
  const dataDir = path.join(tmp, 'stack');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'stack/cli.ts',
      'start',
      '--port-base',
      String(portBase),
      '--data-dir',
      dataDir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 180_000;
  for (;;) {
    const state = readState(dataDir);
    if (state?.ready) break;
    if (child.exitCode !== null) throw new Error(`stack did not start:\n${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`stack not ready after 180 s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const env = readState(dataDir)!.env;
  const config = loadConfig({ portBase });
  return {
    env,
    restUrl: `http://127.0.0.1:${config.ports.rest}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `root`: the checkout to build (another commit's work tree for a before/after comparison). */
export async function buildApp(outDir: string, env?: StackEnv, root = ROOT) {
  // The client reads these at build time (src/lib/infra/env.ts); a bundle-only run needs no stack.
  process.env.VITE_SUPABASE_URL = env?.API_URL ?? 'http://127.0.0.1:54321';
  process.env.VITE_SUPABASE_ANON_KEY = env?.ANON_KEY ?? 'bundle-size-only';
  await build({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}

export async function serveApp(
  outDir: string,
  root = ROOT,
): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const server: PreviewServer = await preview({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.httpServer.close(() => resolve())),
  };
}
