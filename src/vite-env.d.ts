/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUPABASE_URL: string;
  readonly VITE_SUPABASE_ANON_KEY: string;
  // Store settings (src/lib/storeSettings.ts).
  readonly VITE_SOCIAL_URL?: string;
  readonly VITE_STORE_NAME?: string;
  readonly VITE_STORE_EMAIL?: string;
  readonly VITE_SITE_URL?: string;
  // Cloudflare Turnstile site key of the contact form's human check (docs/decisions/0203).
  readonly VITE_TURNSTILE_SITE_KEY?: string;
}
