// Key helpers without Deno or npm imports (unit tests load the configs that use them).

/** The sb_secret_ keys of SUPABASE_SECRET_KEYS (a JSON object of name -> key), if any. */
export function secretKeys(raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object') {
      return Object.values(parsed).filter((v): v is string => typeof v === 'string' && v !== '');
    }
  } catch {
    // Not JSON: the service role key still works.
  }
  return [];
}

/** Equal-length, every-byte comparison: a wrong key takes as long whatever its prefix. */
export function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
