// Vite plugin: the security headers of public/_headers (Netlify/Cloudflare Pages format) with
// the Supabase URL filled in. `vite build` writes the filled-in file to dist/_headers (hosts read
// it from there); `vite preview` sends the same headers, so what is tested locally is what is
// deployed. The dev server is left alone: its HMR client needs inline scripts.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadEnv, type Plugin } from 'vite';

export interface HeaderRule {
  /** Path pattern as written in _headers: `/*`, `/admin`, `/assets/*`. */
  pattern: string;
  headers: [string, string][];
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
 * CSP sources for the page's inline scripts (only index.html's colour-scheme script): each one
 * allowed by its SHA-256, so no other inline script can run.
 */
export function inlineScriptHashes(html: string): string {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)]
    .map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`)
    .join(' ');
}

/** Cloudflare Turnstile's script and frame origin (the contact form's human check). */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

/**
 * Fills in the Supabase origin (https and wss for hosted realtime; http and ws locally), the
 * hashes of the inline scripts, and Turnstile's origin for scripts and frames only when a
 * Turnstile site key is set (docs/decisions/0203); without one the policy allows no third party.
 */
export function fillPlaceholders(
  text: string,
  supabaseUrl: string,
  html = '',
  turnstileSiteKey?: string,
): string {
  const origin = new URL(supabaseUrl).origin;
  const ws = origin.replace(/^http/, 'ws');
  return text
    .replaceAll('__SUPABASE_WS_URL__', ws)
    .replaceAll('__SUPABASE_URL__', origin)
    .replaceAll(' __INLINE_SCRIPT_HASHES__', html ? ` ${inlineScriptHashes(html)}` : '')
    .replaceAll(' __TURNSTILE_ORIGIN__', turnstileSiteKey?.trim() ? ` ${TURNSTILE_ORIGIN}` : '');
}

export function securityHeaders(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  let publicDir = 'public';
  let supabaseUrl: string | undefined;
  let turnstileSiteKey: string | undefined;

  const source = () => readFileSync(path.join(publicDir, '_headers'), 'utf8');
  // The built page (what is served); the source index.html holds the same inline script.
  const html = () => {
    const built = path.join(outDir, 'index.html');
    return readFileSync(existsSync(built) ? built : path.join(root, 'index.html'), 'utf8');
  };
  const filled = () => {
    if (!supabaseUrl) throw new Error('security headers: VITE_SUPABASE_URL is not set');
    return fillPlaceholders(source(), supabaseUrl, html(), turnstileSiteKey);
  };

  return {
    name: 'mar-security-headers',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(root, config.build.outDir);
      publicDir = config.publicDir || path.join(root, 'public');
      const fileEnv = loadEnv(config.mode, root, 'VITE_');
      supabaseUrl = process.env.VITE_SUPABASE_URL ?? fileEnv.VITE_SUPABASE_URL;
      turnstileSiteKey = process.env.VITE_TURNSTILE_SITE_KEY ?? fileEnv.VITE_TURNSTILE_SITE_KEY;
    },
    // The copied public/_headers still has the placeholders: replace it with the filled-in one.
    writeBundle() {
      if (!existsSync(path.join(publicDir, '_headers'))) return;
      // A build without VITE_SUPABASE_URL (e.g. a bundle-size measurement) cannot be deployed
      // anyway; keep the placeholders and say so rather than failing the build.
      if (!supabaseUrl) this.warn('VITE_SUPABASE_URL is not set: dist/_headers keeps placeholders');
      else writeFileSync(path.join(outDir, '_headers'), filled());
    },
    configurePreviewServer(server) {
      const built = path.join(outDir, '_headers');
      // Prefer the built file (what will be deployed); fall back to public/ for an old build.
      let text = existsSync(built) ? readFileSync(built, 'utf8') : source();
      if (/__(SUPABASE|TURNSTILE)_/.test(text)) {
        if (!supabaseUrl) throw new Error('security headers: VITE_SUPABASE_URL is not set');
        text = fillPlaceholders(text, supabaseUrl, html(), turnstileSiteKey);
      }
      const rules = parseHeadersFile(text);
      server.middlewares.use((req, res, next) => {
        const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
        for (const rule of rules) {
          if (!pathMatches(rule.pattern, pathname)) continue;
          for (const [name, value] of rule.headers) res.setHeader(name, value);
        }
        next();
      });
    },
  };
}
