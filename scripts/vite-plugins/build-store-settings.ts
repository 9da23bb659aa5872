// The one-row tables every storefront page shows, as a build reads them: the store settings
// (docs/decisions/0211; vite.config.ts defines the row into the browser bundle and the pre-render
// alike, so hydration matches and visitors without JavaScript see "Follow us" and who runs the
// shop) and the storefront content (docs/decisions/0212; the pre-rendered home and About pages
// carry it as JSON, so their first paint shows the owner's banner and text). The running app
// reads both rows again on every page load.
import { fetchStoreSettingsRow, type StoreSettingsRow } from '../../src/lib/infra/storeSettings.ts';
import {
  fetchStorefrontContentRow,
  type StorefrontContentRow,
} from '../../src/lib/infra/storefrontContent.ts';

/** Long enough for a hosted project waking up; a build must not hang on a dead address. */
const TIMEOUT_MS = 8_000;

type BuildEnv = Record<string, string | undefined>;

/**
 * A row, or null (with a warning saying what the build then shows) when the build has no
 * Supabase settings or cannot read the row. Never fails the build: a deploy must not depend on
 * the database answering at that moment, and the app reads the row when it starts anyway.
 */
async function readBuildRow<T>(
  env: BuildEnv,
  table: string,
  read: (url: string, key: string) => Promise<T>,
  isRow: (row: T) => boolean,
  warn: (message: string) => void,
): Promise<T | null> {
  const url = env.VITE_SUPABASE_URL;
  const key = env.VITE_SUPABASE_ANON_KEY;
  if (!url || !key) return null;
  try {
    const row = await Promise.race([
      read(url, key),
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`no answer in ${TIMEOUT_MS / 1000} s`)),
          TIMEOUT_MS,
        ).unref(),
      ),
    ]);
    if (!row || !isRow(row)) throw new Error('the answer is not the row');
    return row;
  } catch (error) {
    warn(
      `${table}: the build could not read public.${table} at ${url} ` +
        `(${error instanceof Error ? error.message : String(error)}); the pre-rendered pages ` +
        'show the built-in defaults until the app has read the row.',
    );
    return null;
  }
}

export function readBuildStoreSettings(
  env: BuildEnv,
  warn: (message: string) => void = console.warn,
): Promise<StoreSettingsRow | null> {
  return readBuildRow(
    env,
    'store_settings',
    fetchStoreSettingsRow,
    (row) => typeof row.store_name === 'string',
    warn,
  );
}

export function readBuildStorefrontContent(
  env: BuildEnv,
  warn: (message: string) => void = console.warn,
): Promise<StorefrontContentRow | null> {
  return readBuildRow(
    env,
    'storefront_content',
    fetchStorefrontContentRow,
    (row) => typeof row.about_text === 'string',
    warn,
  );
}
