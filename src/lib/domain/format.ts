/** A plain number such as "12.99" or "5" (prices are free text in the database). */
const PLAIN_NUMBER = /^\s*\d+(?:\.\d+)?\s*$/;

// The first Intl.NumberFormat of a page costs 15-50 ms of main thread (Chrome loads its locale
// data), four times that on Lighthouse's phone: the storefront formats its prices without it, to
// the same text. Intl rounds the number's shortest decimal form half up ("0.015" → 0.02, although
// the double is a little under), so that is what is rounded here, in whole pence (BigInt: no
// float error); the rare forms with an exponent (1e21 and above, under 1e-6) go to Intl itself.
let gbp: Intl.NumberFormat | undefined;

/** An amount as typed: whole pounds with or without thousands commas, and any decimals. */
const AMOUNT = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?`;
/** A price that is one amount, with or without "£", "GBP" or "pounds" ("£12.5", "1,249 GBP"). */
const MONEY = new RegExp(String.raw`^\s*(?:£|GBP)?\s*${AMOUNT}\s*(?:GBP|pounds?)?\s*$`, 'i');
/**
 * A "£" amount within other words ("From £20", "Was £30, now £25"): not one followed by more
 * digits, so "£12,99" (a decimal comma) is left as typed rather than read as £12.
 */
const POUNDS_IN_TEXT = new RegExp(String.raw`£\s?${AMOUNT}(?!\d|[.,]\d)`, 'g');

/**
 * Prices in one money format (REQ-PATH-6): a price that is one amount is shown as GBP ("12.5" →
 * "£12.50", "£1249" → "£1,249.00", "1,249 GBP" → "£1,249.00"); "£" amounts within other words
 * are written the same way ("From £20" → "From £20.00"); any other text as entered. Only what is
 * shown: the stored text stays as the admin typed it (prices are free text in the database).
 */
export function formatPrice(price: string | null | undefined): string {
  if (price == null) return '';
  const money = MONEY.exec(price);
  if (money) return formatAmount(money[1]!.replaceAll(',', '') + (money[2] ?? ''));
  return price.replace(POUNDS_IN_TEXT, (text, whole: string, fraction: string | undefined) =>
    formatAmount(whole.replaceAll(',', '') + (fraction ?? ''), text),
  );
}

/** A plain number ("1249.5") as GBP ("£1,249.50"); `typed` when it is not a finite number. */
function formatAmount(plain: string, typed = plain): string {
  if (!PLAIN_NUMBER.test(plain)) return typed;
  const value = Number(plain);
  if (!Number.isFinite(value)) return typed;
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
