// The store's security headers: the one definition behind both places that send them.
// - Static files: public/_headers (Netlify / Cloudflare Pages format) is this definition written
//   out (`npx tsx scripts/write-headers.ts`; a unit test checks the file agrees);
//   scripts/vite-plugins/security-headers.ts fills it in for dist/_headers and `vite preview`.
// - Pages the host's function serves (/p/<slug>, sitemaps, robots.txt): hosts apply `_headers`
//   to static files only, so netlify/functions/product-pages.ts sends the same set itself
//   (securityHeadersFor).
// Web-standard code only (crypto.subtle): the host's function imports it. Decision 0206.

export interface HeaderRule {
  /** Path pattern as written in _headers: `/*`, `/admin`, `/assets/*`. */
  pattern: string;
  headers: [string, string][];
}

/** Filled in with VITE_SUPABASE_URL's origin (https; http locally). */
export const SUPABASE_URL = '__SUPABASE_URL__';
/** The same origin for websockets (wss; ws locally). */
export const SUPABASE_WS_URL = '__SUPABASE_WS_URL__';
/** The SHA-256 sources of the page's bare inline scripts (colour scheme, first page). */
export const INLINE_SCRIPT_HASHES = '__INLINE_SCRIPT_HASHES__';
/**
 * Cloudflare Turnstile's origin (the contact form's human check, its script and its frame) when
 * the site is built with VITE_TURNSTILE_SITE_KEY; removed otherwise (decision 0203).
 */
export const TURNSTILE = '__TURNSTILE_ORIGIN__';
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

const CSP = [
  "default-src 'self'",
  `script-src 'self' ${INLINE_SCRIPT_HASHES} ${TURNSTILE}`,
  // Mantine writes its CSS variables into a <style> element.
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' https: data: ${SUPABASE_URL}`,
  "font-src 'self' data:",
  `connect-src 'self' ${SUPABASE_URL} ${SUPABASE_WS_URL}`,
  `frame-src 'self' ${TURNSTILE}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const HEADER_RULES: HeaderRule[] = [
  {
    pattern: '/*',
    headers: [
      ['Content-Security-Policy', CSP],
      ['X-Frame-Options', 'DENY'],
      ['X-Content-Type-Options', 'nosniff'],
      ['Referrer-Policy', 'strict-origin-when-cross-origin'],
      ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
      ['Cross-Origin-Opener-Policy', 'same-origin'],
    ],
  },
];

const FILE_COMMENT = `# Security headers for the static site (Netlify / Cloudflare Pages \`_headers\` format).
# Written from src/host/securityHeaders.ts (edit there, then \`npx tsx
# scripts/write-headers.ts\`): the host's function sends the same set on the pages it serves.
# ${SUPABASE_URL} is replaced with VITE_SUPABASE_URL when the site is built (dist/_headers) and
# when \`vite preview\` serves it (scripts/vite-plugins/security-headers.ts), so deploy dist/ as built.
# style-src needs 'unsafe-inline': Mantine writes its CSS variables into a <style> element.
# The inline-script placeholder in script-src becomes the SHA-256 of each inline script of the page.
# ${TURNSTILE} becomes ${TURNSTILE_ORIGIN} (the contact form's human check: its script and its
# frame) only when VITE_TURNSTILE_SITE_KEY is set at build time; otherwise it is removed.
`;

/** The rules in `_headers` format (what public/_headers holds). */
export function headersFileText(rules: HeaderRule[] = HEADER_RULES): string {
  const blocks = rules.map(
    (rule) => `${rule.pattern}\n${rule.headers.map(([n, v]) => `  ${n}: ${v}\n`).join('')}`,
  );
  return `${FILE_COMMENT}${blocks.join('\n')}`;
}

/** Parses the `_headers` format: a path line, then indented `Name: value` lines; `#` comments. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      rules.push({ pattern: raw.trim(), headers: [] });
      continue;
    }
    const rule = rules.at(-1);
    const colon = raw.indexOf(':');
    if (!rule || colon < 0) throw new Error(`_headers: unexpected line "${raw.trim()}"`);
    rule.headers.push([raw.slice(0, colon).trim(), raw.slice(colon + 1).trim()]);
  }
  return rules;
}

export function pathMatches(pattern: string, pathname: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(pathname);
}

/**
 * CSP sources for the page's bare inline scripts: each one allowed by its SHA-256, so no other
 * inline script can run. (Data blocks such as JSON-LD have a type and are not scripts to CSP.)
 */
export async function inlineScriptHashes(html: string): Promise<string> {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(m[1]!));
    hashes.push(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  }
  return hashes.join(' ');
}

/**
 * Fills in the Supabase origin (https and wss for hosted realtime; http and ws locally), the
 * hashes of the page's inline scripts, and Turnstile's origin only when a site key is set: without
 * one the policy allows no third party.
 */
export async function fillPlaceholders(
  text: string,
  supabaseUrl: string,
  html = '',
  turnstileSiteKey = '',
): Promise<string> {
  // No usable Supabase URL (a function deployed without its settings): the policy names no
  // Supabase origin at all, which only makes it stricter.
  const origin = URL.canParse(supabaseUrl) ? new URL(supabaseUrl).origin : '';
  const ws = origin.replace(/^http/, 'ws');
  const hashes = html ? await inlineScriptHashes(html) : '';
  const fill = (value: string) => () => (value ? ` ${value}` : '');
  // Replacer functions: a `$` in a value is never a replacement pattern.
  return text
    .replaceAll(` ${SUPABASE_WS_URL}`, fill(ws))
    .replaceAll(` ${SUPABASE_URL}`, fill(origin))
    .replaceAll(` ${INLINE_SCRIPT_HASHES}`, fill(hashes))
    .replaceAll(` ${TURNSTILE}`, fill(turnstileSiteKey.trim() ? TURNSTILE_ORIGIN : ''));
}

/**
 * The headers a static file at `pathname` gets from the rules, filled in for the Supabase URL and
 * the page `html` (the shell the function's pages are built from): what the function sends.
 */
export async function securityHeadersFor(
  pathname: string,
  supabaseUrl: string,
  html: string,
  turnstileSiteKey = '',
): Promise<[string, string][]> {
  const rules = parseHeadersFile(
    await fillPlaceholders(headersFileText(), supabaseUrl, html, turnstileSiteKey),
  );
  const out = new Map<string, [string, string]>();
  for (const rule of rules) {
    if (!pathMatches(rule.pattern, pathname)) continue;
    for (const [name, value] of rule.headers) out.set(name.toLowerCase(), [name, value]);
  }
  return [...out.values()];
}
