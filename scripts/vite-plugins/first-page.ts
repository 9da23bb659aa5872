// Vite plugin: the home page's first page of products is requested by a small inline script in
// the HTML <head>, while the browser is still parsing the page, instead of after the app's
// JavaScript has been fetched and started (REQ-FIND-7: the cards waited for the bundle). On a plain
// `/` the script also draws the cards from the answer into the pre-rendered page, from card
// markup that scripts/vite-plugins/prerender.ts renders at build time; the app hydrates them
// (src/features/storefront/earlyFirstPage.ts, firstPagePrefetch.ts, decisions 0160 and 0190).
// The script is inline (no extra request before the fetch can start); the Content-Security-Policy
// allows it by its SHA-256 like the colour-scheme script (scripts/vite-plugins/security-headers.ts hashes
// every bare <script> of the built page).
import path from 'node:path';
import { build, loadEnv, type Plugin, type Rolldown } from 'vite';
import type { EarlyFirstPageConfig } from '../../src/features/storefront/earlyFirstPage.ts';
import { PAGE_SIZE } from '../../src/features/storefront/paging.ts';
import { selectList, CARD_PRODUCT_COLUMNS } from '../../src/lib/domain/tables.ts';
import { texts } from '../../src/texts.ts';
import {
  readStoreSettings,
  settingsFromRow,
  type StoreSettingsRow,
} from '../../src/lib/infra/storeSettings.ts';
import type { FreshnessLimits } from '../../src/lib/domain/offerPrice.ts';

/** storefront_page on the site's own origin (src/host/catalogueApi.ts). */
const CATALOGUE_ENDPOINT = '/api/catalogue/rpc/storefront_page';

/** The query parameter of the chosen category (CATEGORY_PARAM in HomePage.tsx). */
export const CATEGORY_PARAM = 'cat';

/** The script's source, from the project root. */
const EARLY_MODULE = 'src/features/storefront/earlyFirstPage.ts';
const ENTRY = '\0mar-early-first-page';

/**
 * The inline script: on `/` (with no query parameter other than the category) it asks
 * public.storefront_page for the first page, one extra row to learn whether there is more, as
 * src/features/storefront/catalogue.ts does, and on a plain `/` draws it. It asks the site's own
 * /api/catalogue (src/host/catalogueApi.ts, decision 0255): same origin (no CORS preflight, no
 * key in the page), and the exact URL the app's own read of the first page uses, so a CDN answers
 * both from one cached copy (REQ-CDN-1). Any other page, or any error, leaves
 * nothing behind and the app asks as usual. Bundled from earlyFirstPage.ts, so it formats prices,
 * links and pictures with the app's own code.
 */
export async function firstPageScript(
  supabaseUrl: string,
  _anonKey: string,
  root = process.cwd(),
  priceLimits: FreshnessLimits = readStoreSettings({}).priceLimits,
): Promise<string> {
  const source = path.resolve(root, EARLY_MODULE);
  // The parameters in postgrest-js' order for the app's first-page read (storePageArgs, then
  // select): one URL, one cached answer. The host's function adds the anon key.
  const fixed = new URLSearchParams({
    p_limit: String(PAGE_SIZE + 1),
    select: selectList(CARD_PRODUCT_COLUMNS),
  }).toString();
  const config: EarlyFirstPageConfig = {
    url: `${CATALOGUE_ENDPOINT}?${fixed}`,
    categoryParam: CATEGORY_PARAM,
    supabaseUrl,
    fallbackAlt: texts.storefront.imageFallbackAlt,
    offerTexts: {
      from: texts.offers.from('%s'),
      sellers: texts.offers.sellers('%s'),
      stale: texts.offers.stale,
      hidden: texts.offers.hidden,
    },
    priceLimits,
  };
  const output = (await build({
    configFile: false,
    root,
    logLevel: 'silent',
    envFile: false,
    define: { 'import.meta.env.VITE_SUPABASE_URL': JSON.stringify(supabaseUrl) },
    plugins: [
      {
        name: 'mar-early-first-page-entry',
        resolveId: (id) => (id === ENTRY ? id : null),
        load: (id) =>
          id === ENTRY
            ? `import { startEarlyFirstPage } from ${JSON.stringify(source)};\n` +
              `startEarlyFirstPage(${JSON.stringify(config)});`
            : null,
      },
    ],
    build: {
      write: false,
      minify: true,
      target: 'es2020',
      copyPublicDir: false,
      rolldownOptions: { input: ENTRY, output: { format: 'iife' } },
    },
  })) as Rolldown.RolldownOutput[] | Rolldown.RolldownOutput;
  const [result] = Array.isArray(output) ? output : [output];
  const chunk = result?.output.find((o) => o.type === 'chunk');
  if (!chunk) throw new Error('the early first-page script did not build');
  // No "</script" can end the inline script early (JSON.stringify leaves "/" as it is).
  return chunk.code.trim().replaceAll('</', '<\\/');
}

export function firstPagePrefetch(): Plugin {
  let wanted: { url: string; key: string; root: string; limits: FreshnessLimits } | null = null;
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
      const build = config.command === 'build' && !config.build.ssr;
      const off = process.env.MAR_FIRST_PAGE_PREFETCH === 'off';
      // The cards' price limits as the app hydrates them: the build's store settings row
      // (vite.config.ts defines it), else the defaults.
      const row = JSON.parse(
        String(config.define?.__STORE_SETTINGS_ROW__ ?? 'null'),
      ) as StoreSettingsRow | null;
      const builtIn = readStoreSettings({});
      const limits = (row ? settingsFromRow(row, builtIn) : builtIn).priceLimits;
      wanted = build && !off && url && key ? { url, key, root: config.root, limits } : null;
    },
    async buildStart() {
      script = wanted
        ? await firstPageScript(wanted.url, wanted.key, wanted.root, wanted.limits)
        : null;
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
