// Vite plugin: Vite's dev server (`npm start`) and `vite preview` (the browser tests) answer
// /p/<slug>, the sitemap, robots.txt and the catalogue reads /api/catalogue/* with
// src/host/productPages.ts, as the host's function
// does in production (docs/product-pages.md). Registered before Vite's own middlewares, so it
// also wins over a file of the same name. `vite preview` answers the function's paths exactly as
// the function does (functionAnswer: its 404s and its own security headers); the dev server
// sends no security headers (its HMR client needs inline scripts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadEnv, type Connect, type Plugin, type ResolvedConfig } from 'vite';
import {
  answerProductPages,
  functionAnswer,
  type ProductPagesOptions,
} from '../../src/host/productPages.ts';
import { isFunctionPath } from './security-headers.ts';
import { CATALOGUE_PREFIX } from '../../src/host/catalogueApi.ts';

/** A Host header's value when it is a host name or IP address with an optional port, else null. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

/**
 * The local server's own address for canonical URLs and the sitemap, from the Host header
 * (production sets VITE_SITE_URL): null for a Host that is not a host[:port], which is refused.
 */
export function siteUrlFromHost(host: string | undefined): string | null {
  if (host === undefined || host === '') return 'http://127.0.0.1';
  return HOST.test(host) ? `http://${host}` : null;
}

export function productPages(): Plugin {
  let config: ResolvedConfig;
  // Read once, when the server is set up: a server keeps the stack it was started for even if
  // the process's environment changes later (the fault tests start a second stack and server).
  let env: Record<string, string> = {};
  const options = (siteUrl: string, shell: ProductPagesOptions['shell']) => {
    return {
      supabaseUrl: env.VITE_SUPABASE_URL ?? '',
      anonKey: env.VITE_SUPABASE_ANON_KEY ?? '',
      siteUrl: env.VITE_SITE_URL || siteUrl,
      turnstileSiteKey: env.VITE_TURNSTILE_SITE_KEY ?? '',
      shell,
    };
  };
  const middleware =
    (shell: ProductPagesOptions['shell'], asFunction: boolean): Connect.NextHandleFunction =>
    (req, res, next) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      // The catalogue reads answer every method (405 for a write), as the function does.
      const catalogue = url.pathname.startsWith(CATALOGUE_PREFIX);
      if (method !== 'GET' && method !== 'HEAD' && !catalogue) return next();
      // Only the function's paths; the Host check below is theirs alone.
      if (!isFunctionPath(url.pathname)) return next();
      const siteUrl = siteUrlFromHost(req.headers.host);
      if (siteUrl === null) {
        res.statusCode = 400;
        return res.end('Bad Request: Host');
      }
      const settings = options(siteUrl, shell);
      // The request's validators (304 on a matching If-None-Match), Accept (a single-object
      // read), and what makes a request personal (Authorization, Cookie: never shared).
      const headers = new Headers();
      for (const name of ['if-none-match', 'accept', 'authorization', 'cookie']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      // The dev server too answers the catalogue reads (the app asks them there).
      (asFunction || catalogue
        ? functionAnswer(url, settings, headers, method)
        : answerProductPages(url, settings, headers)
      )
        .then(async (answer) => {
          if (!answer) return next();
          res.statusCode = answer.status;
          answer.headers.forEach((value, name) => res.setHeader(name, value));
          res.end(req.method === 'HEAD' ? undefined : await answer.text());
        })
        .catch(next);
    };
  return {
    name: 'mar-product-pages',
    configResolved(resolved) {
      config = resolved;
      env = loadEnv(config.mode, config.envDir || config.root, 'VITE_');
    },
    configureServer(server) {
      const index = path.join(config.root, 'index.html');
      // The shell is index.html as Vite serves `/` (never the request's own URL: Vite decodes
      // it, and a malformed one such as /p/%E0%A4%A made that a 500 with a stack trace).
      const shell = () => server.transformIndexHtml('/', readFileSync(index, 'utf8'));
      server.middlewares.use(middleware(shell, false));
    },
    configurePreviewServer(server) {
      const shellFile = path.resolve(config.root, config.build.outDir, 'spa.html');
      server.middlewares.use(middleware(() => readFileSync(shellFile, 'utf8'), true));
    },
  };
}
