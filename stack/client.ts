// The one way Node code (scripts, bench, integration and browser-test helpers) builds a
// supabase-js client: no stored session, no background token refresh, no realtime.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

/**
 * Node 20 has no global WebSocket and supabase-js refuses to build a client without a realtime
 * transport. Node code here never opens a channel: this transport fails loudly if one ever does.
 */
class NoRealtime {
  constructor() {
    throw new Error('Realtime is not used by the Node clients (stack/client.ts)');
  }
}

export interface NodeClientOptions {
  /** Headers sent with every request (a bearer token, X-Forwarded-For …). */
  headers?: Record<string, string>;
  /** The PKCE sign-in flow instead of the implicit one. */
  flowType?: 'implicit' | 'pkce';
  /** A fetch of its own (e.g. one that leaves from a chosen loopback address). */
  fetch?: typeof fetch;
}

export function nodeClient(
  url: string,
  key: string,
  { headers, flowType, fetch }: NodeClientOptions = {},
): SupabaseClient {
  return createClient(url, key, {
    auth: {
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      ...(flowType ? { flowType } : {}),
    },
    realtime: { transport: NoRealtime as never },
    global: { ...(headers ? { headers } : {}), ...(fetch ? { fetch } : {}) },
  });
}
