// redirect_to validation of the local auth service (stack/auth/redirect.ts).
import { describe, expect, it } from 'vitest';
import { chooseRedirect, globToRegExp, isRedirectAllowed } from '../../../stack/auth/redirect.ts';

const cfg = {
  siteUrl: 'http://127.0.0.1:3000',
  allowList: [
    'http://localhost:3000',
    'https://shop.example.com/**',
    'https://*.preview.example.com/auth',
  ],
};

describe('isRedirectAllowed', () => {
  it('accepts the site URL host with any path', () => {
    expect(isRedirectAllowed('http://127.0.0.1:3000/account?x=1', cfg)).toBe(true);
  });

  it('skips the port check for loopback hosts and accepts loopback IP literals', () => {
    expect(isRedirectAllowed('http://127.0.0.1:4173/welcome', cfg)).toBe(true);
    expect(isRedirectAllowed('http://[::1]:5000/', cfg)).toBe(true);
  });

  it('requires the port for non-loopback site hosts', () => {
    const remote = { siteUrl: 'https://shop.test:8443', allowList: [] };
    expect(isRedirectAllowed('https://shop.test:8443/a', remote)).toBe(true);
    expect(isRedirectAllowed('https://shop.test/a', remote)).toBe(false);
    expect(isRedirectAllowed('http://shop.test:8443/a', remote)).toBe(false);
  });

  it('matches allow-list globs: * stays within a label or segment, ** crosses them', () => {
    expect(isRedirectAllowed('http://localhost:3000', cfg)).toBe(true);
    expect(isRedirectAllowed('http://localhost:3000/welcome', cfg)).toBe(false);
    expect(isRedirectAllowed('https://shop.example.com/a/b/c', cfg)).toBe(true);
    expect(isRedirectAllowed('https://pr-1.preview.example.com/auth', cfg)).toBe(true);
    expect(isRedirectAllowed('https://a.b.preview.example.com/auth', cfg)).toBe(false);
  });

  it('ignores the fragment when matching the allow-list', () => {
    expect(isRedirectAllowed('http://localhost:3000#section', cfg)).toBe(true);
  });

  it('rejects foreign hosts, decimal hosts and garbage', () => {
    expect(isRedirectAllowed('https://evil.example.net/', cfg)).toBe(false);
    expect(isRedirectAllowed('http://2130706433:3000/', cfg)).toBe(false);
    expect(isRedirectAllowed('not a url', cfg)).toBe(false);
  });
});

describe('chooseRedirect', () => {
  it('prefers an allowed redirect_to, then an allowed Referer, then the site URL', () => {
    expect(chooseRedirect('http://127.0.0.1:3000/a', 'http://127.0.0.1:3000/b', cfg)).toBe(
      'http://127.0.0.1:3000/a',
    );
    expect(chooseRedirect('https://evil.example.net/', 'http://127.0.0.1:3000/b', cfg)).toBe(
      'http://127.0.0.1:3000/b',
    );
    expect(chooseRedirect('https://evil.example.net/', 'https://evil.example.net/', cfg)).toBe(
      'http://127.0.0.1:3000',
    );
    expect(chooseRedirect(null, undefined, cfg)).toBe('http://127.0.0.1:3000');
  });
});

describe('globToRegExp', () => {
  it('escapes regular-expression characters literally', () => {
    expect(globToRegExp('http://a.b/(x)+').test('http://a.b/(x)+')).toBe(true);
    expect(globToRegExp('http://a.b/x').test('http://aXb/x')).toBe(false);
  });
});
