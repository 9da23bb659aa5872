import type { supabase as Client } from './supabase';

/**
 * The supabase-js client, fetched on first use. supabase-js (auth, PostgREST, realtime, storage
 * clients) is about a third of the app's JavaScript; loading it on demand lets the home page
 * render its frame, banner and placeholders before it arrives. The module is cached, so every
 * caller gets the same client.
 */
export function loadSupabase(): Promise<typeof Client> {
  return import('./supabase').then((m) => m.supabase);
}
