import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { readBuildStoreSettings } from './scripts/vite-plugins/build-store-settings.ts';
import { firstPagePrefetch } from './scripts/vite-plugins/first-page.ts';
import { mantineMembers } from './scripts/vite-plugins/mantine-members.ts';
import { productPages } from './scripts/vite-plugins/product-pages.ts';
import { prerender } from './scripts/vite-plugins/prerender.ts';
import { securityHeaders } from './scripts/vite-plugins/security-headers.ts';

/** Modules the home page loads that lazy pages share (see the `shared` chunk below). */
const HOME_SHARED_MODULES = [
  'src/lib/infra/env.ts',
  'src/lib/infra/storeSettings.ts',
  'src/lib/infra/storefrontContent.ts',
  'src/lib/infra/catalogueApiPath.ts',
  'src/lib/domain/storeOrder.ts',
  'src/lib/domain/tables.ts',
  'src/lib/domain/offerPrice.ts',
  'src/features/auth/AuthProvider.tsx',
  '@mantine/hooks/esm/use-mounted/',
  '@mantine/core/esm/components/Anchor/',
];

// Port 3000 matches [auth] site_url in supabase/config.toml, so e-mail links land on the dev server.
export default defineConfig(async ({ command, mode }) => ({
  // A build reads the store settings row once (scripts/build-store-settings.ts); the dev server
  // does not (the stack may still be starting, and the app reads the row itself).
  define: {
    __STORE_SETTINGS_ROW__: JSON.stringify(
      command === 'build'
        ? await readBuildStoreSettings({
            ...loadEnv(mode, fileURLToPath(new URL('.', import.meta.url)), 'VITE_'),
            ...process.env,
          })
        : null,
    ),
  },
  // productPages before prerender: prerender's preview fallback rewrites other URLs to spa.html.
  plugins: [
    react(),
    mantineMembers(),
    securityHeaders(),
    firstPagePrefetch(),
    productPages(),
    prerender(),
  ],
  server: {
    port: 3000,
    strictPort: true,
    host: '127.0.0.1',
    // `npm start`: transform the app's modules when the dev server starts instead of when the
    // first visitor's browser asks for them one import level at a time (the first product card
    // took 3-5 s although the API answers in milliseconds). Static imports follow by themselves;
    // the entries reached by dynamic import() are listed.
    warmup: {
      clientFiles: ['./src/main.tsx', './src/app/start.tsx', './src/features/*/*Page.tsx'],
    },
  },
  // Pre-bundle every dependency the app imports at start-up: one discovered later during the first
  // page load makes Vite re-bundle and reload the page.
  optimizeDeps: {
    include: [
      'react',
      'react/jsx-dev-runtime',
      'react-dom/client',
      'react-router-dom',
      '@mantine/core',
      '@mantine/hooks',
      '@mantine/notifications',
      '@supabase/postgrest-js',
      '@supabase/supabase-js',
      'react-hook-form',
      '@hookform/resolvers/zod',
      'zod',
    ],
  },
  // React Router's package maps every import to its development build (its dev-only warnings
  // compiled in: about 1 kB gzip on the home page); a build takes the production build it ships
  // next to it, which differs only in those warnings (REQ-WEIGHT-5, decision 0261).
  resolve:
    command === 'build'
      ? {
          alias: [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
              ),
            },
            {
              find: /^react-router\/dom$/,
              replacement: fileURLToPath(
                new URL(
                  './node_modules/react-router/dist/production/dom-export.mjs',
                  import.meta.url,
                ),
              ),
            },
          ],
        }
      : {},
  preview: { port: 4173, strictPort: true, host: '127.0.0.1' },
  build: {
    target: 'es2022',
    sourcemap: false,
    // No modulepreload polyfill (0.2 kB gzip on the home page, REQ-WEIGHT-5): the pages' HTML has
    // no modulepreload links, and the links Vite adds for a lazy chunk's imports are hints; a
    // browser without modulepreload (Safari before 17) fetches those imports when it reads them.
    modulePreload: { polyfill: false },
    // bench/bundle.ts and scripts/check-bundle-budget.ts read the chunk graph from the manifest.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React in a chunk of its own: otherwise the bundler puts react-dom's small shared
            // module into a chunk with code only lazy chunks use (modal scroll lock), and the
            // home page downloads that code up front.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // React Router in a chunk of its own: main.tsx evaluates it in a task of its own.
            { name: 'router', test: /node_modules[\\/](react-router|react-router-dom)[\\/]/ },
            // zod (the forms' validation) in a chunk of its own too, so tests can tell that the
            // home page never downloads it (otherwise it lands in whichever form chunk is shared).
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            // The catalogue's query builder, which the storefront loads on first use
            // (src/lib/infra/catalogueDb.ts): alone, or it would land in supabase-js' chunk (which
            // imports it too) and bring auth along.
            { name: 'postgrest', test: /node_modules[\\/]@supabase[\\/]postgrest-js[\\/]/ },
            // The home page's small shared modules in one chunk (REQ-WEIGHT-5, decision 0261):
            // the bundler splits each module the first load shares with a lazy page into a chunk
            // of its own (six of 0.2 to 1.7 kB), and each costs its own imports, exports and gzip
            // frame. Together: 1.2 kB gzip less. Only these modules, not their dependencies.
            {
              name: 'shared',
              includeDependenciesRecursively: false,
              test: (id: string) =>
                HOME_SHARED_MODULES.some((m) => id.replace(/\\/g, '/').includes(m)),
            },
          ],
        },
      },
    },
  },
}));
