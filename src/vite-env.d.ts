/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUPABASE_URL: string;
  readonly VITE_SUPABASE_ANON_KEY: string;
  // The site's public address for a build's sitemap and canonical URLs, until the store
  // settings' own is read (src/lib/infra/storeSettings.ts, docs/decisions/0211).
  readonly VITE_SITE_URL?: string;
  // Cloudflare Turnstile site key of the contact form's human check (docs/decisions/0203).
  readonly VITE_TURNSTILE_SITE_KEY?: string;
}
