import { isDbError } from '../db';

/**
 * The form field a database refusal is about: the error's hint when it names a field (as the
 * store settings' rules do), else the column in the refused constraint's name
 * ("sellers_host_key" → host, "offers_price_gbp_check" → price_gbp), mapped by `aliases` to the
 * form's field. Null when the refusal names none of them.
 */
export function refusedField<F extends string>(
  error: unknown,
  fields: readonly F[],
  aliases: Readonly<Record<string, F>> = {},
): F | null {
  if (!isDbError(error)) return null;
  const names = [...fields, ...Object.keys(aliases)].sort((a, b) => b.length - a.length);
  const toField = (name: string) =>
    (fields as readonly string[]).includes(name) ? (name as F) : (aliases[name] ?? null);
  if (error.hint && names.includes(error.hint)) return toField(error.hint);
  const constraint = /constraint "([^"]+)"/.exec(error.message)?.[1];
  if (!constraint) return null;
  const name = names.find((n) => new RegExp(`(^|_)${n}(_|$)`).test(constraint));
  return name ? toField(name) : null;
}
