// Vite plugin: after the browser build, builds src/entry-server.tsx for Node and writes the public
// pages as HTML (dist/index.html for home, dist/contact.html, dist/about.html, dist/policy.html),
// each with its own title and description, so the first paint needs no JavaScript; app/start.tsx then
// hydrates the markup. dist/spa.html keeps the empty shell for the app's other routes (/admin,
// /login, ...): hosts serve it through public/_redirects. dist/404.html is the not-found page, which
// hosts send with status 404 for every other URL (REQ-PATH-8). `vite preview` here does the same.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { scriptJson } from '../../src/lib/domain/productSeo.ts';
import type { StorefrontContentRow } from '../../src/lib/infra/storefrontContent.ts';
import { readBuildStorefrontContent } from './build-store-settings.ts';

const ENTRY = 'src/entry-server.tsx';
/** The browser app that main.tsx imports after the first paint. */
export const START = 'src/app/start.tsx';
/** The shell for routes that are not pre-rendered. */
export const SPA_SHELL = 'spa.html';
/** The not-found page, sent with status 404 (Netlify and Cloudflare Pages look for this name). */
export const NOT_FOUND_PAGE = '404.html';
/** The path the not-found page is rendered for (any path the router does not know). */
const NOT_FOUND_ROUTE = '/404';
const ROOT_ELEMENT = '<div id="root"></div>';
/** Marks a page with the early first-page script (scripts/vite-plugins/first-page.ts). */
const EARLY_SCRIPT_MARK = '__marFirstPage';

interface ServerEntry {
  PRERENDERED_ROUTES: readonly string[];
  PRERENDERED_ATTRIBUTE: string;
  render(pathname: string): Promise<{ html: string; title: string; description: string }>;
  renderCardTemplates(): Promise<string>;
  storeSettings: { name: string };
  renderStorefrontContentWith(row: StorefrontContentRow | null): void;
  STOREFRONT_CONTENT_ID: string;
}

/** The pages that show the storefront content (the banner, the About text) carry its row. */
const CONTENT_ROUTES = new Set(['/', '/about']);

/** `/` → index.html, `/contact` → contact.html (served for /contact by hosts and vite preview). */
export function htmlFileFor(route: string): string {
  return route === '/' ? 'index.html' : `${route.slice(1)}.html`;
}

const escapeHtml = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');

/** The built index.html with one route's markup, title, description and Open Graph tags. */
export function fillTemplate(
  template: string,
  route: string,
  page: { html: string; title: string; description: string },
  attribute: string,
  siteName = 'MAR Online Store UK',
): string {
  if (!template.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}`);
  const title = escapeHtml(page.title);
  const description = escapeHtml(page.description);
  // What a shared link shows, without running JavaScript (RouteMeta adds og:url and og:image,
  // which need the site's address).
  const openGraph = [
    ['og:site_name', escapeHtml(siteName)],
    ['og:type', 'website'],
    ['og:title', title],
    ['og:description', description],
    ['og:locale', 'en_GB'],
  ]
    .map(([property, content]) => `<meta property="${property}" content="${content}" />`)
    .join('\n    ');
  // Replacer functions: page text is data, so a `$&` in it is never a replacement pattern.
  return template
    .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>\n    ${openGraph}`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${description}" />`,
    )
    .replace(ROOT_ELEMENT, () => `<div id="root" ${attribute}="${route}">${page.html}</div>`);
}

export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'mar-prerender',
    configResolved(resolved) {
      config = resolved;
    },
    // The pre-rendered page paints with the HTML and the CSS alone. main.tsx imports the app
    // (START) only after that first paint, so on a slow line its scripts do not compete with the
    // stylesheets and the first screen's images; the app's CSS is linked here, since the
    // pre-rendered markup needs it for that first paint. The small entry script is fetched at
    // low priority for the same reason.
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (config.command !== 'build' || !ctx.bundle) return html;
        const chunks = Object.values(ctx.bundle).filter((c) => c.type === 'chunk');
        const start = chunks.find((c) => c.facadeModuleId?.endsWith(START));
        if (!start) throw new Error(`${START} is not a chunk of its own`);
        const seen = new Set<string>();
        const css = new Set<string>();
        const walk = (fileName: string) => {
          const chunk = chunks.find((c) => c.fileName === fileName);
          if (!chunk || seen.has(fileName)) return;
          seen.add(fileName);
          for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file);
          chunk.imports.forEach(walk);
        };
        walk(start.fileName);
        const links = [...css]
          .filter((file) => !html.includes(`${config.base}${file}"`))
          .map((file) => `<link rel="stylesheet" crossorigin href="${config.base}${file}">`);
        return html
          .replace('</head>', () => `  ${links.join('\n    ')}\n  </head>`)
          .replace(
            /<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g,
            '<$1 fetchpriority="low"',
          );
      },
    },
    async closeBundle() {
      // The Node build below runs this plugin too; only the browser build pre-renders.
      if (config.command !== 'build' || config.build.ssr) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      // Inside the project: the Node build imports its dependencies from node_modules.
      const serverOut = mkdtempSync(path.join(config.root, 'node_modules', '.mar-prerender-'));
      try {
        await build({
          configFile: config.configFile,
          root: config.root,
          mode: config.mode,
          logLevel: 'warn',
          build: {
            ssr: path.join(config.root, ENTRY),
            outDir: serverOut,
            emptyOutDir: true,
            manifest: false,
            copyPublicDir: false,
          },
        });
        const entry = (await import(
          pathToFileURL(path.join(serverOut, 'entry-server.js')).href
        )) as ServerEntry;
        const template = readFileSync(path.join(outDir, 'index.html'), 'utf8');
        writeFileSync(path.join(outDir, SPA_SHELL), template);
        // The card markup the home page's early script draws from (earlyFirstPage.ts), only
        // where that script is (a build with the Supabase settings).
        const cards = template.includes(EARLY_SCRIPT_MARK) ? await entry.renderCardTemplates() : '';
        // The owner's banner and About text as the build reads them: rendered into the HTML and
        // carried as JSON, so hydration renders the same (docs/decisions/0212).
        const content = await readBuildStorefrontContent(
          { ...config.env, ...process.env },
          (message) => config.logger.warn(message),
        );
        entry.renderStorefrontContentWith(content);
        const contentJson = content
          ? `<script type="application/json" id="${entry.STOREFRONT_CONTENT_ID}">${scriptJson(content)}</script>`
          : '';
        // The not-found page for unknown paths, as the app draws it and not to be indexed; the
        // app starts from scratch on it (the attribute names /404, not the visitor's path).
        const notFound = await entry.render(NOT_FOUND_ROUTE);
        writeFileSync(
          path.join(outDir, NOT_FOUND_PAGE),
          fillTemplate(
            template,
            NOT_FOUND_ROUTE,
            notFound,
            entry.PRERENDERED_ATTRIBUTE,
            entry.storeSettings.name,
          ).replace('</title>', () => '</title>\n    <meta name="robots" content="noindex" />'),
        );
        for (const route of entry.PRERENDERED_ROUTES) {
          const page = await entry.render(route);
          const html = fillTemplate(
            template,
            route,
            page,
            entry.PRERENDERED_ATTRIBUTE,
            entry.storeSettings.name,
          );
          const extra = [
            CONTENT_ROUTES.has(route) ? contentJson : '',
            route === '/' ? cards : '',
          ].filter(Boolean);
          writeFileSync(
            path.join(outDir, htmlFileFor(route)),
            extra.length
              ? html.replace('</body>', () => `  ${extra.join('\n  ')}\n  </body>`)
              : html,
          );
        }
      } finally {
        rmSync(serverOut, { recursive: true, force: true });
      }
    },
    // Like the hosts: a pre-rendered page is its file, an app route of public/_redirects gets the
    // shell with 200, and any other page URL gets 404.html with 404 (REQ-PATH-8).
    configurePreviewServer(server) {
      const outDir = path.resolve(config.root, config.build.outDir);
      const built = path.join(outDir, '_redirects');
      const rewrites = spaRewrites(
        readFileSync(
          existsSync(built) ? built : path.join(config.root, 'public/_redirects'),
          'utf8',
        ),
      );
      server.middlewares.use((req, res, next) => {
        // Vite's own fallback takes the same requests: page loads (or anything accepting HTML).
        const accept = req.headers.accept ?? '*/*';
        const wantsPage = accept === '' || accept.includes('text/html') || accept.includes('*/*');
        if ((req.method !== 'GET' && req.method !== 'HEAD') || !wantsPage) return next();
        const { pathname } = new URL(req.url ?? '/', 'http://localhost');
        if (path.extname(pathname)) return next();
        const route = pathname.replace(/(.)\/$/, '$1');
        if (/^\/[\w-]*$/.test(route) && existsSync(path.join(outDir, htmlFileFor(route))))
          return next();
        const target = rewrites.get(route);
        if (target) {
          req.url = target;
          return next();
        }
        res.statusCode = 404;
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end(
          req.method === 'HEAD' ? undefined : readFileSync(path.join(outDir, NOT_FOUND_PAGE)),
        );
      });
    },
  };
}

/** A `_redirects` file's rewrites with status 200 (path → file), as Netlify reads them. */
export function spaRewrites(text: string): Map<string, string> {
  const rules = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [from, to, status] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (from && to && status === '200') rules.set(from, to);
  }
  return rules;
}
