import type { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from './database.types';
import { CATALOGUE_API } from './catalogueApiPath';

let client: Promise<PostgrestClient<Database>> | null = null;

/**
 * Read access to the public catalogue (products, categories) as the anonymous visitor, with
 * supabase-js' own query builder (@supabase/postgrest-js) but without the rest of supabase-js
 * (auth, realtime, storage). RLS lets everyone read the catalogue; writes go through the
 * signed-in supabase-js client.
 *
 * Through the site's own origin, not the Data API: the host's function adds the anon key, and a
 * CDN shares each answer (REQ-CDN-1). So every read is a GET (`{ get: true }`) with no key, no
 * Authorization and no cookies: the same URL is the same answer for every visitor.
 *
 * Fetched on first use, not with the app (5 kB gzip off the home page's initial JavaScript): the
 * home page's first products come from the HTML's own request (firstPagePrefetch.ts), so the
 * builder is first needed for the category buttons, and it is on its way by then.
 */
export function catalogueDb(): Promise<PostgrestClient<Database>> {
  client ??= import('@supabase/postgrest-js').then(
    ({ PostgrestClient }) =>
      new PostgrestClient<Database>(`${window.location.origin}${CATALOGUE_API}`, {
        fetch: (input, init) => fetch(input, { ...init, credentials: 'omit' }),
      }),
    (error: unknown) => {
      // Next time, try again (a flaky connection must not break every later request).
      client = null;
      throw error;
    },
  );
  return client;
}
