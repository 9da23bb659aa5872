// The store settings row as a build reads it (docs/decisions/0211): vite.config.ts defines it for
// the browser bundle and the pre-render alike, so the pre-rendered pages carry the owner's social
// pages ("Follow us") and who runs the shop even for visitors without JavaScript, and hydration
// renders exactly what the HTML shows. The running app reads the row again on every page load.
import { fetchStoreSettingsRow, type StoreSettingsRow } from '../../src/lib/infra/storeSettings.ts';

/** Long enough for a hosted project waking up; a build must not hang on a dead address. */
const TIMEOUT_MS = 8_000;

/**
 * The row, or null (with a warning saying what the build then shows) when the build has no
 * Supabase settings or cannot read the row. Never fails the build: a deploy must not depend on
 * the database answering at that moment, and the app reads the row when it starts anyway.
 */
export async function readBuildStoreSettings(
  env: Record<string, string | undefined>,
  warn: (message: string) => void = console.warn,
): Promise<StoreSettingsRow | null> {
  const url = env.VITE_SUPABASE_URL;
  const key = env.VITE_SUPABASE_ANON_KEY;
  if (!url || !key) return null;
  const fallback =
    'the pre-rendered pages show the built-in store details until the app has read the row';
  try {
    const row = await Promise.race([
      fetchStoreSettingsRow(url, key),
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`no answer in ${TIMEOUT_MS / 1000} s`)),
          TIMEOUT_MS,
        ).unref(),
      ),
    ]);
    if (typeof row?.store_name !== 'string') throw new Error('the answer is not a settings row');
    return row;
  } catch (error) {
    warn(
      `store settings: the build could not read public.store_settings at ${url} ` +
        `(${error instanceof Error ? error.message : String(error)}); ${fallback}.`,
    );
    return null;
  }
}
