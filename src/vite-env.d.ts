/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUPABASE_URL: string;
  readonly VITE_SUPABASE_ANON_KEY: string;
  readonly VITE_SOCIAL_URL?: string;
  /** The site's address for canonical URLs and the sitemap (e.g. https://shop.example). */
  readonly VITE_SITE_URL?: string;
}
