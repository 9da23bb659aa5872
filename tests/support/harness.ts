// Starts what the browser tests (and the screenshot script) run against: a throwaway local
// stack on free ports with a temp data dir, and the SPA built against it and served by
// `vite preview`. Nothing here touches the default stack (ports 54321+).
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview, type PreviewServer } from 'vite';
import {
  findFreePortBase,
  startStack,
  TEST_PASSWORD_HASH_COST,
  type RunningStack,
  type StackEnv,
} from '../../stack/stack.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Harness {
  baseUrl: string;
  stackEnv: StackEnv;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the OS picks one; the socket is closed again at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export async function startHarness({
  log = (line: string) => console.log(line),
} = {}): Promise<Harness> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mar-e2e-'));
  const cleanups: Array<() => Promise<void> | void> = [
    () => rmSync(tmp, { recursive: true, force: true }),
  ];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error('e2e teardown step failed', error);
      }
    }
  };

  try {
    // The app port is chosen first so that the stack's auth site_url points at it.
    const appPort = await freePort();
    const baseUrl = `http://127.0.0.1:${appPort}`;
    const portBase = await findFreePortBase();
    const started = Date.now();
    log(`e2e: starting a throwaway stack on port base ${portBase}`);
    const stack: RunningStack = await startStack({
      portBase,
      dataDir: path.join(tmp, 'stack'),
      siteUrl: baseUrl,
      // Every simulated admin and visitor of the run signs in from 127.0.0.1: one IP would exhaust
      // the 30-per-5-minutes limit meant for a single person. The limits themselves are tested
      // in the integration suite.
      authRateLimits: { signInSignUps: 1000, tokenRefresh: 1000, tokenVerifications: 1000 },
      // The link checker may reach the tests' own servers on loopback (never set on hosted).
      functionEnv: { LINK_HEALTH_ALLOW_LOOPBACK: '1', FEED_SYNC_ALLOW_LOOPBACK: '1' },
      passwordHashCost: TEST_PASSWORD_HASH_COST,
      log: (line) => log(`  stack: ${line}`),
    });
    cleanups.push(() => stack.stop());
    log(`e2e: stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // Vite reads VITE_* from process.env with priority over .env files.
    process.env.VITE_SUPABASE_URL = stack.env.API_URL;
    process.env.VITE_SUPABASE_ANON_KEY = stack.env.ANON_KEY;
    const outDir = path.join(tmp, 'dist');
    await build({
      root: REPO_ROOT,
      configFile: path.join(REPO_ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    log(`e2e: app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const server: PreviewServer = await preview({
      root: REPO_ROOT,
      configFile: path.join(REPO_ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: appPort, strictPort: true, open: false },
    });
    cleanups.push(() => new Promise<void>((resolve) => server.httpServer.close(() => resolve())));
    log(`e2e: app at ${baseUrl}`);
    return { baseUrl, stackEnv: stack.env, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
