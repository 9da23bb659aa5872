// Bundle figures from Vite's build manifest (dist/.vite/manifest.json): what the home page loads
// before it is interactive (the entry chunk and the app it starts after the first paint, with
// their static imports and CSS) and what the
// admin area adds on top. Sizes are gzip bytes (level 9, as a static host would serve them).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
}

export interface BundleReport {
  /** JS the home page needs before it is interactive: entry + app + static imports (transitively). */
  homeJs: FileSize[];
  homeCss: FileSize[];
  /** JS a product page (/p/<slug>) loads before it is interactive: the app and the page's chunk. */
  productPageJs: FileSize[];
  /** What opening /admin adds to what the home page already loaded (JS and CSS). */
  adminJs: FileSize[];
  adminCss: FileSize[];
  /** What opening the admin's Feeds tab adds to the admin area (with the notice above the tabs). */
  feedsJs: FileSize[];
  totals: {
    homeJsGzip: number;
    homeCssGzip: number;
    adminJsGzip: number;
    adminCssGzip: number;
    feedsJsGzip: number;
    homeJsBytes: number;
    productPageJsGzip: number;
  };
}

export const ADMIN_SRC = 'src/features/admin/AdminPage.tsx';
/** The admin's Feeds tab and its notice: lazy chunks of their own (REQ-FEED-5, decision 0243). */
export const FEEDS_SRC = [
  'src/features/admin/feeds/FeedsTab.tsx',
  'src/features/admin/feeds/FeedsNotice.tsx',
];
/** A product's page: start.tsx loads it before the first render of /p/<slug>. */
export const PRODUCT_PAGE_SRC = 'src/features/storefront/product/ProductPage.tsx';
/** The app that main.tsx imports right after the first paint (its CSS is linked from the HTML). */
export const START_SRC = 'src/app/start.tsx';

/** Keys of `start` and every chunk it imports statically (the browser fetches them up front). */
function staticClosure(manifest: Manifest, start: string): Set<string> {
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) walk(dep);
  };
  walk(start);
  return seen;
}

function sizes(distDir: string, files: Iterable<string>): FileSize[] {
  return [...new Set(files)].sort().map((file) => {
    const buf = readFileSync(path.join(distDir, file));
    return { file, bytes: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  });
}

const sum = (xs: FileSize[], key: 'bytes' | 'gzip' = 'gzip') => xs.reduce((n, f) => n + f[key], 0);

export function measureBundle(distDir: string): BundleReport {
  const manifest = JSON.parse(
    readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry && k.endsWith('.html'));
  if (!entry) throw new Error('no HTML entry in the manifest (build with build.manifest on)');
  if (!manifest[ADMIN_SRC]) throw new Error(`${ADMIN_SRC} is not a chunk of its own`);

  if (!manifest[START_SRC]) throw new Error(`${START_SRC} is not a chunk of its own`);

  const home = new Set([...staticClosure(manifest, entry), ...staticClosure(manifest, START_SRC)]);
  const admin = [...staticClosure(manifest, ADMIN_SRC)].filter((k) => !home.has(k));
  if (!manifest[PRODUCT_PAGE_SRC]) throw new Error(`${PRODUCT_PAGE_SRC} is not a chunk of its own`);
  const productPage = new Set([...home, ...staticClosure(manifest, PRODUCT_PAGE_SRC)]);
  const adminKeys = new Set([...home, ...admin]);
  for (const src of FEEDS_SRC) {
    if (!manifest[src]) throw new Error(`${src} is not a chunk of its own`);
  }
  const feeds = new Set(
    FEEDS_SRC.flatMap((src) => [...staticClosure(manifest, src)]).filter((k) => !adminKeys.has(k)),
  );
  const js = (keys: Iterable<string>) => [...keys].map((k) => manifest[k]!.file);
  const css = (keys: Iterable<string>) => [...keys].flatMap((k) => manifest[k]!.css ?? []);

  const homeJs = sizes(distDir, js(home));
  const productPageJs = sizes(distDir, js(productPage));
  const homeCss = sizes(distDir, css(home));
  const homeCssFiles = new Set(homeCss.map((f) => f.file));
  const adminJs = sizes(distDir, js(admin));
  const feedsJs = sizes(distDir, js(feeds));
  const adminCss = sizes(
    distDir,
    css(admin).filter((f) => !homeCssFiles.has(f)),
  );
  return {
    homeJs,
    homeCss,
    productPageJs,
    adminJs,
    adminCss,
    feedsJs,
    totals: {
      homeJsGzip: sum(homeJs),
      homeCssGzip: sum(homeCss),
      adminJsGzip: sum(adminJs),
      adminCssGzip: sum(adminCss),
      feedsJsGzip: sum(feedsJs),
      homeJsBytes: sum(homeJs, 'bytes'),
      productPageJsGzip: sum(productPageJs),
    },
  };
}

export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
