// Settings of the link-health function, read from its environment (function secrets on hosted:
// `supabase secrets set NAME=value`). No Deno APIs: unit tests call loadConfig directly.
import { secretKeys } from '../_shared/keys.ts';
import { intSetting, nonEmpty, projectSettings, type Lookup } from '../_shared/settings.ts';

export interface LinkHealthConfig {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Keys that may run checks without an admin session (the schedule): service role, sb_secret_. */
  trustedKeys: string[];
  timeoutMs: number;
  concurrency: number;
  maxRedirects: number;
  maxBodyBytes: number;
  userAgent: string;
  /** Base URL for site-relative image paths (/products/ball.svg); unset: those are not checked. */
  siteUrl: string | null;
  /**
   * Allow loopback targets (127/8, ::1, localhost). Set only by the local stack's test harness
   * (LINK_HEALTH_ALLOW_LOOPBACK=1); never on hosted, where it would expose the function's host.
   */
  allowLoopback: boolean;
}

export const DEFAULT_USER_AGENT =
  "MAR-Online-Store-LinkCheck/1.0 (checks the shop's product links; +https://mar-online-store.test)";

export function loadConfig(get: Lookup): LinkHealthConfig {
  const { supabaseUrl, anonKey, serviceRoleKey } = projectSettings(get);
  const allow = nonEmpty(get, 'LINK_HEALTH_ALLOW_LOOPBACK')?.toLowerCase();
  return {
    supabaseUrl,
    anonKey,
    serviceRoleKey,
    trustedKeys: [serviceRoleKey, ...secretKeys(get('SUPABASE_SECRET_KEYS'))],
    timeoutMs: intSetting(get, 'LINK_HEALTH_TIMEOUT_MS', 8000, 500, 60_000),
    concurrency: intSetting(get, 'LINK_HEALTH_CONCURRENCY', 12, 1, 64),
    maxRedirects: intSetting(get, 'LINK_HEALTH_MAX_REDIRECTS', 5, 0, 20),
    maxBodyBytes: intSetting(get, 'LINK_HEALTH_MAX_BODY_BYTES', 64 * 1024, 0, 10 * 1024 * 1024),
    userAgent: nonEmpty(get, 'LINK_HEALTH_USER_AGENT') ?? DEFAULT_USER_AGENT,
    siteUrl: nonEmpty(get, 'LINK_HEALTH_SITE_URL') ?? null,
    allowLoopback: allow === '1' || allow === 'true',
  };
}
