// Vite plugin: Vite's dev server (`npm start`) and `vite preview` (the browser tests) answer
// /p/<slug>, the sitemap and robots.txt with scripts/product-pages.ts, as the host's function
// does in production (README: Product pages). Registered before Vite's own middlewares, so it
// also wins over a file of the same name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadEnv, type Connect, type Plugin, type ResolvedConfig } from 'vite';
import { answerProductPages, type ProductPagesOptions } from './product-pages.ts';

export function productPages(): Plugin {
  let config: ResolvedConfig;
  const options = (host: string | undefined, shell: ProductPagesOptions['shell']) => {
    const env = loadEnv(config.mode, config.envDir || config.root, 'VITE_');
    return {
      supabaseUrl: env.VITE_SUPABASE_URL ?? '',
      anonKey: env.VITE_SUPABASE_ANON_KEY ?? '',
      // Production sets the site's address; locally the server's own.
      siteUrl: env.VITE_SITE_URL || `http://${host ?? '127.0.0.1'}`,
      shell,
    };
  };
  const middleware =
    (shell: (url: string) => ProductPagesOptions['shell']): Connect.NextHandleFunction =>
    (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      const url = new URL(req.url ?? '/', 'http://localhost');
      answerProductPages(url, options(req.headers.host, shell(req.url ?? '/')))
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
    },
    configureServer(server) {
      server.middlewares.use(
        middleware(
          (url) => () =>
            server.transformIndexHtml(
              url,
              readFileSync(path.join(config.root, 'index.html'), 'utf8'),
            ),
        ),
      );
    },
    configurePreviewServer(server) {
      const shellFile = path.resolve(config.root, config.build.outDir, 'spa.html');
      server.middlewares.use(middleware(() => () => readFileSync(shellFile, 'utf8')));
    },
  };
}
