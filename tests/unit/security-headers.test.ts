// One definition of the security headers (src/host/securityHeaders.ts) behind both places that
// send them: public/_headers (static files) is that definition written out, and the host's
// function (netlify/functions/product-pages.ts) sends the same set, filled in the same way.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { config } from '../../netlify/functions/product-pages';
import {
  HEADER_RULES,
  fillPlaceholders,
  headersFileText,
  inlineScriptHashes,
  parseHeadersFile,
  securityHeadersFor,
} from '../../src/host/securityHeaders';
import { isFunctionPath } from '../../scripts/vite-plugins/security-headers';

const SUPABASE = 'https://abc.supabase.co';
const PAGE = '<head><script>a()</script><script type="application/ld+json">{}</script></head>';

describe('security headers', () => {
  it('public/_headers is the definition written out (npx tsx scripts/write-headers.ts)', () => {
    const file = readFileSync(new URL('../../public/_headers', import.meta.url), 'utf8');
    expect(file).toBe(headersFileText());
    expect(parseHeadersFile(file)).toEqual(HEADER_RULES);
  });

  it('hashes each bare inline script as the browser does (SHA-256, base64)', async () => {
    const sha = createHash('sha256').update('a()').digest('base64');
    expect(await inlineScriptHashes(PAGE)).toBe(`'sha256-${sha}'`);
  });

  it('the function gets the full set of the static files, filled in the same way', async () => {
    const staticRules = parseHeadersFile(await fillPlaceholders(headersFileText(), SUPABASE, PAGE));
    for (const path of ['/p/ball', '/sitemap.xml', '/robots.txt', '/sitemap-products-1.xml']) {
      expect(isFunctionPath(path), path).toBe(true);
      const sent = Object.fromEntries(await securityHeadersFor(path, SUPABASE, PAGE));
      expect(sent).toEqual(Object.fromEntries(staticRules[0]!.headers));
      expect(Object.keys(sent)).toEqual(
        expect.arrayContaining([
          'Content-Security-Policy',
          'X-Frame-Options',
          'X-Content-Type-Options',
          'Referrer-Policy',
          'Permissions-Policy',
        ]),
      );
      expect(sent['Content-Security-Policy']).not.toContain('__');
      expect(sent['Content-Security-Policy']).toContain(`connect-src 'self' ${SUPABASE} wss://`);
    }
    // A function deployed without VITE_SUPABASE_URL still sends the set, naming no Supabase origin.
    const unset = Object.fromEntries(await securityHeadersFor('/robots.txt', '', ''));
    expect(unset['Content-Security-Policy']).toContain(
      "connect-src 'self'; frame-src 'self'; object-src",
    );
    expect(unset['Content-Security-Policy']).toContain("script-src 'self'; style-src");
    expect(unset['X-Frame-Options']).toBe('DENY');
    expect(config.path.every((p) => isFunctionPath(p.replace('*', 'x')))).toBe(true);
    expect(isFunctionPath('/assets/app.js')).toBe(false);
    expect(isFunctionPath('/admin')).toBe(false);
  });

  it('allows Cloudflare Turnstile (script and frame) only when a site key is set (0203)', async () => {
    const csp = async (key?: string) =>
      Object.fromEntries(await securityHeadersFor('/p/ball', SUPABASE, PAGE, key))[
        'Content-Security-Policy'
      ]!;
    const without = await csp();
    expect(without).not.toContain('cloudflare');
    expect(without).toContain("frame-src 'self';");
    const withKey = await csp('0x4AAAAAAA-site-key');
    expect(withKey).toMatch(
      /script-src 'self' 'sha256-[^;]+ https:\/\/challenges\.cloudflare\.com;/,
    );
    expect(withKey).toContain("frame-src 'self' https://challenges.cloudflare.com;");
    expect(await csp('  ')).toBe(without);
  });
});
