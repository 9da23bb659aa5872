/** A plain number such as "12.99" or "5" (prices are free text in the database). */
const PLAIN_NUMBER = /^\s*\d+(?:\.\d+)?\s*$/;

// The first Intl.NumberFormat of a page costs 15-50 ms of main thread (Chrome loads its locale
// data), four times that on Lighthouse's phone: the storefront formats its prices without it, to
// the same text. Intl rounds the number's shortest decimal form half up ("0.015" → 0.02, although
// the double is a little under), so that is what is rounded here, in whole pence (BigInt: no
// float error); the rare forms with an exponent (1e21 and above, under 1e-6) go to Intl itself.
let gbp: Intl.NumberFormat | undefined;

/** Shows a plain-number price as GBP ("12.5" → "£12.50", "1234" → "£1,234.00"); any other text as entered. */
export function formatPrice(price: string | null | undefined): string {
  if (price == null) return '';
  if (!PLAIN_NUMBER.test(price)) return price;
  const value = Number(price);
  if (!Number.isFinite(value)) return price;
  const shortest = String(value);
  if (shortest.includes('e')) {
    gbp ??= new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
    return gbp.format(value);
  }
  const [whole, fraction = ''] = shortest.split('.');
  let pence = BigInt(whole! + fraction.slice(0, 2).padEnd(2, '0'));
  if (fraction.charAt(2) >= '5') pence += 1n;
  const digits = pence.toString().padStart(3, '0');
  return `£${digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ',')}.${digits.slice(-2)}`;
}

/**
 * The seller a Buy Now goes to, named by its link's site: the host name without "www."
 * ("https://www.sportsdirect.com/x" → "sportsdirect.com"); null for a link with no host.
 * The affiliate disclosure names it beside every Buy Now (docs/decisions/0210).
 */
export function sellerSite(link: string | null | undefined): string | null {
  if (!link) return null;
  try {
    const host = new URL(link).hostname.replace(/^www\./i, '').replace(/\.$/, '');
    return host || null;
  } catch {
    return null;
  }
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
