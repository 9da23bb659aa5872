// redirect_to validation: site URL host, loopback hosts, or the allow-list globs.
// Rejected values fall back silently; the caller picks Referer, then SITE_URL.

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0']);

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(h) || h.endsWith('.localhost');
}

function isLoopbackIpLiteral(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (h === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** Glob as GoTrue's allow-list uses it: `*` stays within a host label / path segment, `**` crosses them. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i++;
      } else {
        out += '[^./]*';
      }
    } else if (ch === '?') {
      out += '[^./]';
    } else {
      out += escapeRegExp(ch);
    }
  }
  return new RegExp(`^${out}$`);
}

export interface RedirectConfig {
  siteUrl: string;
  allowList: string[];
}

export function isRedirectAllowed(candidate: string, cfg: RedirectConfig): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  const host = url.hostname;
  // Decimal-integer hosts (http://2130706433/) are never accepted. WHATWG URL parsing already
  // rewrote them to dotted form, so look at the host as written.
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(candidate)?.[1] ?? '';
  const rawHost = authority.replace(/^.*@/, '').replace(/:\d*$/, '');
  if (/^\d+$/.test(rawHost) || /^0x[0-9a-f]+$/i.test(rawHost)) return false;
  if (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    !/^[a-zA-Z0-9.\-[\]:]+$/.test(host)
  )
    return false;

  let site: URL | null = null;
  try {
    site = new URL(cfg.siteUrl);
  } catch {
    site = null;
  }
  if (
    site &&
    site.protocol === url.protocol &&
    site.hostname.toLowerCase() === host.toLowerCase()
  ) {
    if (isLoopbackHost(host) || site.port === url.port) return true;
  }
  if (isLoopbackIpLiteral(host)) return true;

  const withoutFragment = candidate.split('#')[0]!;
  return cfg.allowList.some((glob) => glob !== '' && globToRegExp(glob).test(withoutFragment));
}

/** redirect_to if allowed, else an allowed Referer, else the site URL. */
export function chooseRedirect(
  requested: string | null | undefined,
  referer: string | null | undefined,
  cfg: RedirectConfig,
): string {
  if (requested && isRedirectAllowed(requested, cfg)) return requested;
  if (referer && isRedirectAllowed(referer, cfg)) return referer;
  return cfg.siteUrl;
}
