// Seller sites for the link-health tests and bench: one HTTP server on 127.0.0.1 (port chosen by
// the OS) whose paths answer the ways real shops do. "Another site" is the same server reached
// as `localhost` instead of 127.0.0.1 (another host name: docs/decisions/0130). Nothing here
// touches the internet; the link-health function may reach it only because the test harness
// sets LINK_HEALTH_ALLOW_LOOPBACK.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LinkServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The same server as another site: http://localhost:<port> */
  otherSiteOrigin: string;
  /** User-Agent headers seen, in order. */
  userAgents: string[];
  /** Requests per path ("HEAD /ok"), for checking what the checker sent. */
  requests: string[];
  /** From now on `path` answers `status` (a seller fixing or breaking a page), with `headers`. */
  answer(path: string, status: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

const ENDLESS_CHUNK = Buffer.alloc(64 * 1024, 'x');

export async function startLinkServer(): Promise<LinkServer> {
  const sockets = new Set<Socket>();
  const userAgents: string[] = [];
  const requests: string[] = [];
  const overrides = new Map<string, { status: number; headers: Record<string, string> }>();
  let port = 0;
  const server = http.createServer((req, res) => {
    userAgents.push(req.headers['user-agent'] ?? '');
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push(`${req.method} ${path}`);
    const override = overrides.get(path);
    if (override) {
      res.writeHead(override.status, override.headers);
      res.end();
      return;
    }
    const redirect = (code: number, location: string) => {
      res.writeHead(code, { location });
      res.end();
    };
    switch (path) {
      case '/ok':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(req.method === 'HEAD' ? undefined : '<p>In stock</p>');
        return;
      case '/same-site':
        return redirect(301, '/ok');
      case '/moved':
        return redirect(301, `http://localhost:${port}/ok`);
      case '/missing':
        res.writeHead(404);
        res.end('Not found');
        return;
      case '/error':
        res.writeHead(500);
        res.end('Server error');
        return;
      case '/hang':
        return; // never answers; the socket stays open until the server closes
      case '/head-refused':
        if (req.method === 'HEAD') {
          res.writeHead(405);
          res.end();
          return;
        }
        res.writeHead(200);
        res.end('GET works');
        return;
      case '/endless': {
        if (req.method === 'HEAD') {
          res.writeHead(405);
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const pump = () => {
          while (!res.destroyed && res.write(ENDLESS_CHUNK));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      // A shop behind Cloudflare's bot wall: 403 with its headers and a challenge page
      // (REQ-OFF-6: "blocked our checker", not broken).
      case '/bot-wall':
        res.writeHead(403, {
          server: 'cloudflare',
          'cf-mitigated': 'challenge',
          'content-type': 'text/html',
        });
        res.end(
          req.method === 'HEAD'
            ? undefined
            : '<title>Just a moment...</title><div id="challenge-platform">captcha</div>',
        );
        return;
      case '/to-bot-wall':
        return redirect(302, `http://localhost:${port}/bot-wall`);
      case '/loop-a':
        return redirect(302, '/loop-b');
      case '/loop-b':
        return redirect(302, '/loop-a');
      case '/to-private':
        return redirect(301, 'http://10.0.0.1/admin');
      case '/to-metadata':
        return redirect(302, 'http://169.254.169.254/latest/meta-data/');
      case '/to-decimal-loopback':
        // 2130706433 = 127.0.0.1 in one number: allowed here only because loopback is.
        return redirect(302, `http://2130706433:${port}/ok`);
      default:
        res.writeHead(404);
        res.end();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    otherSiteOrigin: `http://localhost:${port}`,
    userAgents,
    requests,
    answer: (path, status, headers = {}) => overrides.set(path, { status, headers }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
