// The site as Netlify runs it, for tests on the store's own origin: spa.html as a static file,
// every other path to the host's function (netlify/functions/product-pages.ts), which reads the
// stack's address and anon key from the environment as it does on Netlify.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import productPagesFunction from '../../netlify/functions/product-pages';
import { stackEnv } from './stack.ts';

export const SHELL =
  '<!doctype html><html lang="en-GB"><head><meta name="description" content="x" />' +
  '<title>Shell</title></head><body><div id="root"></div></body></html>';

export interface HostSite {
  origin: string;
  server: http.Server;
  close(): Promise<void>;
}

/** Starts the site on a free loopback port; the function's settings point at the test stack. */
export async function startHostSite(): Promise<HostSite> {
  process.env.VITE_SUPABASE_URL = stackEnv().API_URL;
  process.env.VITE_SUPABASE_ANON_KEY = stackEnv().ANON_KEY;
  delete process.env.VITE_SITE_URL;
  let origin = '';
  const server = http.createServer((req, res) => {
    if (req.url === '/spa.html')
      return res.writeHead(200, { 'Content-Type': 'text/html' }).end(SHELL);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string') headers.set(name, value);
      const method = req.method ?? 'GET';
      const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
      productPagesFunction(new Request(`${origin}${req.url}`, { method, headers, body }))
        .then(async (answer) => {
          res.writeHead(answer.status, Object.fromEntries(answer.headers));
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
