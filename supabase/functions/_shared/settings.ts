// Reading a function's settings (function secrets on hosted) without Deno APIs: the configs'
// unit tests call them with a plain lookup.

export type Lookup = (name: string) => string | undefined;

/** An integer setting within [min, max], or the fallback when unset; anything else throws. */
export function intSetting(
  get: Lookup,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = get(name)?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return n;
}

/** The setting trimmed, or undefined when unset or blank. */
export function nonEmpty(get: Lookup, name: string): string | undefined {
  return get(name)?.trim() || undefined;
}

/** The project's URL and keys, which the runtime provides to every function. */
export function projectSettings(get: Lookup): {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
} {
  const supabaseUrl = nonEmpty(get, 'SUPABASE_URL');
  const anonKey = nonEmpty(get, 'SUPABASE_ANON_KEY');
  const serviceRoleKey = nonEmpty(get, 'SUPABASE_SERVICE_ROLE_KEY');
  if (!supabaseUrl || !anonKey || !serviceRoleKey) {
    throw new Error(
      'SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY must be set (the runtime provides them)',
    );
  }
  return { supabaseUrl, anonKey, serviceRoleKey };
}
