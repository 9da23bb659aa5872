// Netlify Functions (v2, fetch-style): the hosted server of product pages, their price-drop
// feeds (/p/<slug>/prices.atom), the sitemap and robots.txt (src/host/productPages.ts;
// docs/product-pages.md), and the storefront's cacheable catalogue reads /api/catalogue/*
// (src/host/catalogueApi.ts, decision 0255). The rest of the site stays static (dist/); this function takes only
// the paths in `config`. Settings are the site's
// environment variables: VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY, VITE_SITE_URL and, with the
// contact form's human check, VITE_TURNSTILE_SITE_KEY.
// Netlify applies `_headers` to static files only: functionAnswer adds the same security headers
// to every response of this function.
import { functionAnswer } from '../../src/host/productPages.ts';

export default async function productPagesFunction(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const env = process.env;
  return functionAnswer(
    url,
    {
      supabaseUrl: env.VITE_SUPABASE_URL ?? '',
      anonKey: env.VITE_SUPABASE_ANON_KEY ?? '',
      siteUrl: env.VITE_SITE_URL || url.origin,
      turnstileSiteKey: env.VITE_TURNSTILE_SITE_KEY ?? '',
      // The built app shell, from the site itself (the CDN caches it).
      shell: async () => {
        const response = await fetch(new URL('/spa.html', url));
        if (!response.ok) throw new Error(`spa.html: HTTP ${response.status}`);
        return response.text();
      },
    },
    request.headers,
    request.method,
  );
}

// Literal values: Netlify reads them without running the code. The preview server skips its
// header middleware on these paths (scripts/vite-plugins/security-headers.ts), as Netlify does.
export const config = {
  path: [
    '/p/*',
    '/sitemap.xml',
    '/sitemap-pages.xml',
    '/sitemap-products-*',
    '/robots.txt',
    '/api/catalogue/*',
  ],
};
