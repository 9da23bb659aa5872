// Vite plugin: the security headers of src/host/securityHeaders.ts (public/_headers) with the
// Supabase URL filled in. `vite build` writes the filled-in file to dist/_headers (hosts read it
// from there); `vite preview` sends the same headers on the static files, so what is tested
// locally is what is deployed. Like the hosts, it leaves the paths of the host's function alone
// (netlify/functions/product-pages.ts): those send their own headers, and the tests read them.
// The dev server is left alone: its HMR client needs inline scripts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadEnv, type Plugin } from 'vite';
import { config as functionConfig } from '../../netlify/functions/product-pages.ts';
import {
  fillPlaceholders,
  headersFileText,
  parseHeadersFile,
  pathMatches,
} from '../../src/host/securityHeaders.ts';

export { parseHeadersFile, pathMatches };

/** Whether the host's function serves `pathname` (Netlify's `config.path`). */
export const isFunctionPath = (pathname: string) =>
  functionConfig.path.some((pattern) => pathMatches(pattern, pathname));

export function securityHeaders(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  let supabaseUrl: string | undefined;
  let turnstileSiteKey = '';

  // The built page (what is served); the source index.html holds the same inline scripts.
  const html = () => {
    const built = path.join(outDir, 'index.html');
    return readFileSync(existsSync(built) ? built : path.join(root, 'index.html'), 'utf8');
  };
  const filled = () => {
    if (!supabaseUrl) throw new Error('security headers: VITE_SUPABASE_URL is not set');
    return fillPlaceholders(headersFileText(), supabaseUrl, html(), turnstileSiteKey);
  };

  return {
    name: 'mar-security-headers',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(root, config.build.outDir);
      const fileEnv = loadEnv(config.mode, root, 'VITE_');
      supabaseUrl = process.env.VITE_SUPABASE_URL ?? fileEnv.VITE_SUPABASE_URL;
      turnstileSiteKey =
        process.env.VITE_TURNSTILE_SITE_KEY ?? fileEnv.VITE_TURNSTILE_SITE_KEY ?? '';
    },
    // The copied public/_headers still has the placeholders: replace it with the filled-in one.
    async writeBundle() {
      // A build without VITE_SUPABASE_URL (e.g. a bundle-size measurement) cannot be deployed
      // anyway; keep the placeholders and say so rather than failing the build.
      if (!supabaseUrl) this.warn('VITE_SUPABASE_URL is not set: dist/_headers keeps placeholders');
      else writeFileSync(path.join(outDir, '_headers'), await filled());
    },
    async configurePreviewServer(server) {
      const built = path.join(outDir, '_headers');
      // Prefer the built file (what will be deployed); fill in an old or unfilled build.
      let text = existsSync(built) ? readFileSync(built, 'utf8') : headersFileText();
      if (/__(SUPABASE|TURNSTILE)_/.test(text)) text = await filled();
      const rules = parseHeadersFile(text);
      server.middlewares.use((req, res, next) => {
        const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
        if (isFunctionPath(pathname)) return next();
        for (const rule of rules) {
          if (!pathMatches(rule.pattern, pathname)) continue;
          for (const [name, value] of rule.headers) res.setHeader(name, value);
        }
        next();
      });
    },
  };
}
