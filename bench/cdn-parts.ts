// What bench/cdn.ts puts around the stack (REQ-CDN-8, decision 0257): a counting pass-through in
// front of the gateway (every Data API request the host or a browser makes passes it, so it
// counts what reaches PostgREST), Varnish as the CDN in front of `vite preview`, and the
// requests the built pages really make, read off the network in headless Chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { freePort } from '../tests/support/harness.ts';

/** Requests that reached PostgREST (/rest/v1/…), by path (`rpc/storefront_page`, `catagories`). */
export interface Counter {
  url: string;
  counts: Map<string, number>;
  total(): number;
  reset(): void;
  close(): Promise<void>;
}

/** A pass-through to the gateway that counts the Data API requests it forwards. */
export async function countingProxy(target: string): Promise<Counter> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const m = /^\/rest\/v1\/([^?]*)/.exec(url);
    if (m) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: url,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    reset: () => counts.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** varnishd in the foreground as a child process, with bench/cdn.vcl in front of `origin`. */
export async function startVarnish(
  origin: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  // Its own directory, readable by the unprivileged user varnishd drops to (VCL compiler).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mar-varnish-'));
  chmodSync(dir, 0o755);
  const vcl = path.join(dir, 'cdn.vcl');
  const template = readFileSync(path.join(import.meta.dirname, 'cdn.vcl'), 'utf8');
  writeFileSync(vcl, template.replace('"ORIGIN_PORT"', `"${new URL(origin).port}"`));
  const port = await freePort();
  const child: ChildProcess = spawn(
    '/usr/sbin/varnishd',
    [
      '-F',
      '-n',
      path.join(dir, 'work'),
      '-a',
      `127.0.0.1:${port}`,
      '-f',
      vcl,
      '-s',
      'malloc,256m',
      // No lifetime for answers that name none (dynamic answers are opt-in, as on the CDNs).
      '-t',
      '0',
      '-p',
      'default_grace=0',
      '-p',
      'thread_pool_min=10',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`varnishd exited:\n${stderr}`);
    try {
      const res = await fetch(`${url}/robots.txt`);
      await res.body?.cancel();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`varnishd not listening:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One request as a page made it: replayed with the same method, headers and body. */
export interface Captured {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

// Hop-by-hop, browser-only and volatile headers are left out of a replay.
const DROP =
  /^(host|connection|content-length|accept-encoding|origin|referer|user-agent|sec-|cookie)/i;

/**
 * The document and the data requests (the Data API on `apiOrigin`, the site's /api/ routes)
 * a fresh load of each of `pages` makes, in order; files (scripts, styles, pictures) left out.
 */
export async function capturePages(
  chromiumPath: string,
  site: string,
  apiOrigin: string,
  pages: string[],
): Promise<Captured[][]> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  try {
    const out: Captured[][] = [];
    for (const page of pages) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const tab = await context.newPage();
      const seen: Captured[] = [];
      tab.on('request', (req) => {
        const u = new URL(req.url());
        const data =
          (u.origin === apiOrigin && u.pathname.startsWith('/rest/v1/')) ||
          (u.origin === site && u.pathname.startsWith('/api/'));
        if (!data && req.resourceType() !== 'document') return;
        const headers = Object.fromEntries(
          Object.entries(req.headers()).filter(([name]) => !DROP.test(name)),
        );
        seen.push({
          method: req.method(),
          url: req.url(),
          headers,
          body: req.postData() ?? undefined,
        });
      });
      await tab.goto(`${site}${page}`, { waitUntil: 'networkidle' });
      // What the page asks once it is shown (below-the-fold parts draw when scrolled to).
      await tab.mouse.wheel(0, 4000);
      await tab.waitForLoadState('networkidle');
      await tab.waitForTimeout(500);
      out.push(seen);
      await context.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}
