// Settings of the feed-sync function, read from its environment (function secrets on hosted:
// `supabase secrets set FEED_...=value`). No Deno APIs: unit tests call loadConfig directly.
import { secretKeys } from '../_shared/keys.ts';
import { intSetting, nonEmpty, projectSettings, type Lookup } from '../_shared/settings.ts';

export interface FeedSyncConfig {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Keys that may run syncs without an admin session (schedule, self-chain). */
  trustedKeys: string[];
  /** CPU per invocation (ms; hosted allows 2 s), measured with node:process cpuUsage. */
  cpuBudgetMs: number;
  /** Wall clock per invocation (ms). */
  wallBudgetMs: number;
  /** Decoded bytes a feed may have. */
  maxBytes: number;
  /** Bytes one row (CSV line or XML item) may have. */
  maxRowBytes: number;
  /** Runs with at most this many rows are applied by the function itself; larger by Cron. */
  inlineApplyRows: number;
  /** Deadline of one download (connection, head and body), ms. */
  timeoutMs: number;
  maxRedirects: number;
  userAgent: string;
  /** Allow loopback feed servers: the local test harness only (FEED_SYNC_ALLOW_LOOPBACK=1). */
  allowLoopback: boolean;
}

export const DEFAULT_USER_AGENT =
  "MAR-Online-Store-FeedSync/1.0 (reads sellers' product feeds; +https://mar-online-store.test)";

export function loadConfig(get: Lookup): FeedSyncConfig {
  const { supabaseUrl, anonKey, serviceRoleKey } = projectSettings(get);
  const allow = nonEmpty(get, 'FEED_SYNC_ALLOW_LOOPBACK')?.toLowerCase();
  return {
    supabaseUrl,
    anonKey,
    serviceRoleKey,
    trustedKeys: [serviceRoleKey, ...secretKeys(get('SUPABASE_SECRET_KEYS'))],
    cpuBudgetMs: intSetting(get, 'FEED_SYNC_CPU_BUDGET_MS', 1000, 100, 60_000),
    wallBudgetMs: intSetting(get, 'FEED_SYNC_WALL_BUDGET_MS', 60_000, 1000, 400_000),
    maxBytes: intSetting(get, 'FEED_MAX_BYTES', 500 * 1024 * 1024, 1024, 2 ** 40),
    maxRowBytes: intSetting(get, 'FEED_MAX_ROW_BYTES', 1024 * 1024, 256, 64 * 1024 * 1024),
    inlineApplyRows: intSetting(get, 'FEED_INLINE_APPLY_ROWS', 20_000, 0, 2_000_000),
    timeoutMs: intSetting(get, 'FEED_SYNC_TIMEOUT_MS', 120_000, 1000, 400_000),
    maxRedirects: intSetting(get, 'FEED_SYNC_MAX_REDIRECTS', 5, 0, 20),
    userAgent: nonEmpty(get, 'FEED_SYNC_USER_AGENT') ?? DEFAULT_USER_AGENT,
    allowLoopback: allow === '1' || allow === 'true',
  };
}
