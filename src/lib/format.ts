const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** A plain number such as "12.99" or "5" (prices are free text in the database). */
const PLAIN_NUMBER = /^\s*\d+(?:\.\d+)?\s*$/;

/** Shows a plain-number price as GBP ("12.5" → "£12.50"); any other text as entered. */
export function formatPrice(price: string | null | undefined): string {
  if (price == null) return '';
  if (!PLAIN_NUMBER.test(price)) return price;
  const value = Number(price);
  return Number.isFinite(value) ? gbp.format(value) : price;
}

/**
 * Only http(s) URLs and site-relative paths may reach `src`/`href`. The database refuses
 * anything else already; this is a second line of defence for rows written before that rule.
 */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const trimmed = url.trim();
  // A site path, but not "//host" or "/\host" (browsers read both as another host).
  if (/^\/(?![/\\])/.test(trimmed)) return trimmed;
  if (trimmed.startsWith('/')) return null;
  try {
    const parsed = new URL(trimmed);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
