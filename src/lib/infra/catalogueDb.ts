import type { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from './database.types';
import { env } from './env';

let client: Promise<PostgrestClient<Database>> | null = null;

/**
 * Read access to the public catalogue (products, categories) as the anonymous visitor, with
 * supabase-js' own query builder (@supabase/postgrest-js) but without the rest of supabase-js
 * (auth, realtime, storage). RLS lets everyone read the catalogue; writes go through the
 * signed-in supabase-js client.
 *
 * Fetched on first use, not with the app (5 kB gzip off the home page's initial JavaScript): the
 * home page's first products come from the HTML's own request (firstPagePrefetch.ts), so the
 * builder is first needed for the category buttons, and it is on its way by then.
 */
export function catalogueDb(): Promise<PostgrestClient<Database>> {
  client ??= import('@supabase/postgrest-js').then(
    ({ PostgrestClient }) =>
      new PostgrestClient<Database>(`${env.supabaseUrl}/rest/v1`, {
        headers: { apikey: env.supabaseAnonKey, Authorization: `Bearer ${env.supabaseAnonKey}` },
      }),
    (error: unknown) => {
      // Next time, try again (a flaky connection must not break every later request).
      client = null;
      throw error;
    },
  );
  return client;
}
