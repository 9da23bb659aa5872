// The pure part of the optional cache purge hook (REQ-CDN-5, decision 0256): which cache tags a
// Database Webhook's change empties, and the request to Netlify's purge API. No Deno or npm
// imports: the unit tests load it.
import { sameSecret, secretKeys } from '../_shared/keys.ts';

/** Netlify's purge endpoint (the same one its own `purgeCache` helper calls). */
export const NETLIFY_PURGE_URL = 'https://api.netlify.com/api/v1/purge';
/** Every catalogue-derived answer carries it (src/host/httpCache.ts' CATALOGUE_TAG). */
export const CATALOGUE_TAG = 'catalogue';

export interface PurgeConfig {
  /** NETLIFY_PURGE_TOKEN: a Netlify personal access token; unset: the hook does nothing. */
  token: string;
  /** NETLIFY_SITE_ID: the site's API id; unset: the hook does nothing. */
  siteId: string;
  /** Keys allowed to call the hook: the service role key and SUPABASE_SECRET_KEYS. */
  trustedKeys: string[];
}

export function loadPurgeConfig(get: (name: string) => string | undefined): PurgeConfig {
  return {
    token: get('NETLIFY_PURGE_TOKEN')?.trim() ?? '',
    siteId: get('NETLIFY_SITE_ID')?.trim() ?? '',
    trustedKeys: [
      get('SUPABASE_SERVICE_ROLE_KEY') ?? '',
      ...secretKeys(get('SUPABASE_SECRET_KEYS')),
    ].filter((key) => key !== ''),
  };
}

/** Whether the caller sent one of the trusted keys as its bearer (the webhook's header). */
export function trustedCaller(authorization: string | null, config: PurgeConfig): boolean {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '';
  return token !== '' && config.trustedKeys.some((key) => sameSecret(token, key));
}

/** A Database Webhook's body: `{ type, table, schema, record, old_record }`. */
interface WebhookPayload {
  table?: unknown;
  record?: { id?: unknown } | null;
  old_record?: { id?: unknown } | null;
}

/**
 * The tags a change empties: always the whole catalogue (a product's price or title shows on
 * the listing pages, the search and the sitemap too), plus the product's own tag.
 */
export function purgeTags(payload: WebhookPayload): string[] {
  const tags = [CATALOGUE_TAG];
  if (payload.table === 'products') {
    for (const row of [payload.record, payload.old_record]) {
      const id = row?.id;
      if (typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)) tags.push(`product-${id}`);
    }
  }
  return [...new Set(tags)];
}

/** The purge request, or null when the hook is not configured (it then does nothing). */
export function purgeRequest(
  tags: string[],
  config: PurgeConfig,
): { url: string; init: RequestInit } | null {
  if (!config.token || !config.siteId) return null;
  return {
    url: NETLIFY_PURGE_URL,
    init: {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${config.token}`,
        'Content-Type': 'application/json; charset=utf-8',
      },
      body: JSON.stringify({ site_id: config.siteId, cache_tags: tags }),
    },
  };
}
