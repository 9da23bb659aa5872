// Vite plugin: the home page's first page of products is requested by a small inline script in
// the HTML <head>, while the browser is still parsing the page, instead of after the app's
// JavaScript has been fetched and started (issue 17: the cards waited for the bundle). The app
// takes the answer from `window.__marFirstPage` (src/features/storefront/firstPagePrefetch.ts)
// instead of asking again. The script is inline (no extra request before the fetch can start);
// the Content-Security-Policy allows it by its SHA-256 like the colour-scheme script
// (scripts/vite-security-headers.ts hashes every bare <script> of the built page).
import { loadEnv, type Plugin } from 'vite';
import { PAGE_SIZE } from '../src/features/storefront/paging.ts';
import { selectList, STORE_PRODUCT_COLUMNS } from '../src/lib/tables.ts';

/** The query parameter of the chosen category (CATEGORY_PARAM in HomePage.tsx). */
export const CATEGORY_PARAM = 'cat';
/** Where the script leaves its request for the app. */
export const PREFETCH_GLOBAL = '__marFirstPage';

/**
 * The inline script: on `/` (with no query parameter other than the category) it asks
 * public.storefront_page for the first page, one extra row to learn whether there is more, as
 * src/features/storefront/catalogue.ts does. A GET with the key in the URL is a "simple"
 * cross-origin request: no CORS preflight round trip before it (the gateway, like Supabase's,
 * takes `apikey` from the URL). Any other page, or any error, leaves nothing behind and the app
 * asks as usual.
 */
export function firstPageScript(supabaseUrl: string, anonKey: string): string {
  const endpoint = `${new URL(supabaseUrl).origin}/rest/v1/rpc/storefront_page`;
  const fixed = new URLSearchParams({
    p_limit: String(PAGE_SIZE + 1),
    select: selectList(STORE_PRODUCT_COLUMNS),
    apikey: anonKey,
  }).toString();
  // Plain ES2017 that runs before anything else on the page; JSON.stringify quotes the values.
  return [
    '(function () {',
    '  try {',
    '    var q = new URLSearchParams(location.search);',
    '    var other = false;',
    `    q.forEach(function (v, k) { if (k !== ${JSON.stringify(CATEGORY_PARAM)}) other = true; });`,
    "    if (location.pathname !== '/' || other) return;",
    `    var cat = (q.get(${JSON.stringify(CATEGORY_PARAM)}) || '').trim() || null;`,
    `    var url = ${JSON.stringify(`${endpoint}?${fixed}`)};`,
    "    if (cat) url += '&p_cat=' + encodeURIComponent(cat);",
    `    window[${JSON.stringify(PREFETCH_GLOBAL)}] = {`,
    '      cat: cat,',
    "      response: fetch(url, { credentials: 'omit' }),",
    '    };',
    '  } catch (e) {}',
    '})();',
  ].join('\n');
}

export function firstPagePrefetch(): Plugin {
  let script: string | null = null;
  return {
    name: 'mar-first-page-prefetch',
    configResolved(config) {
      const env = { ...loadEnv(config.mode, config.root, 'VITE_'), ...process.env };
      const url = env.VITE_SUPABASE_URL;
      const key = env.VITE_SUPABASE_ANON_KEY;
      // The dev server's pages have no CSP and change on every edit: build only. A build without
      // the Supabase settings (bundle measurement) cannot read products anyway.
      // MAR_FIRST_PAGE_PREFETCH=off: the build without it that bench/first-card.ts compares with.
      const wanted = config.command === 'build' && !config.build.ssr;
      const off = process.env.MAR_FIRST_PAGE_PREFETCH === 'off';
      script = wanted && !off && url && key ? firstPageScript(url, key) : null;
    },
    transformIndexHtml(html) {
      if (!script) return html;
      // Right after the charset (which must stay in the first 1024 bytes): the request starts
      // before the stylesheets and scripts are even seen.
      const charset = /<meta charset="UTF-8" \/>/i;
      if (!charset.test(html)) throw new Error('index.html: no <meta charset="UTF-8" />');
      return html.replace(charset, (tag) => `${tag}\n    <script>\n${script}\n    </script>`);
    },
  };
}
