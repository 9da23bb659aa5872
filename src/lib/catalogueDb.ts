import { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from './database.types';
import { env } from './env';

let client: PostgrestClient<Database> | null = null;

/**
 * Read access to the public catalogue (products, categories) as the anonymous visitor, with
 * supabase-js' own query builder (@supabase/postgrest-js) but without the rest of supabase-js
 * (auth, realtime, storage): the storefront's first request goes out as soon as the app starts
 * instead of after a 50 kB download. RLS lets everyone read the catalogue; writes go through the
 * signed-in supabase-js client.
 */
export function catalogueDb(): PostgrestClient<Database> {
  client ??= new PostgrestClient<Database>(`${env.supabaseUrl}/rest/v1`, {
    headers: { apikey: env.supabaseAnonKey, Authorization: `Bearer ${env.supabaseAnonKey}` },
  });
  return client;
}
