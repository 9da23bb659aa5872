// The link checker's SSRF guard (supabase/functions/_shared/address.ts): which addresses it
// may connect to, in every spelling an attacker might use, plus what counts as "another site"
// and the function's settings.
import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  isLocalhostName,
  parseIPv4,
  parseIPv6,
  refusal,
  siteOf,
} from '../../supabase/functions/_shared/address.ts';
import { loadConfig } from '../../supabase/functions/link-health/config.ts';

const hosted = { allowLoopback: false };
const tests = { allowLoopback: true };

/** The host a URL really names (the URL parser turns 2130706433 into 127.0.0.1). */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '');

describe('IPv4 forms', () => {
  it.each([
    ['127.0.0.1', [127, 0, 0, 1]],
    ['2130706433', [127, 0, 0, 1]],
    ['0x7f000001', [127, 0, 0, 1]],
    ['0x7f.1', [127, 0, 0, 1]],
    ['0177.0.0.1', [127, 0, 0, 1]],
    ['127.1', [127, 0, 0, 1]],
    ['10.1', [10, 0, 0, 1]],
    ['169.254.43518', [169, 254, 169, 254]],
    ['0', [0, 0, 0, 0]],
  ])('%s is %j', (text, bytes) => {
    expect(parseIPv4(text)).toEqual(bytes);
  });

  it.each(['256.0.0.1', '1.2.3.4.5', '08.0.0.1', 'example.com', '1..2', '4294967296', ''])(
    '%s is not an IPv4 address',
    (text) => {
      expect(parseIPv4(text)).toBeNull();
    },
  );

  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[::ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe'],
  ])('the URL parser reads %s as host %s, which is refused on hosted', (url, host) => {
    expect(hostOf(url)).toBe(host);
    expect(refusal(hostOf(url), hosted)).toMatch(/^refused: /);
  });
});

describe('IPv6 forms', () => {
  it('parses compressed, full and IPv4-tailed addresses', () => {
    expect(parseIPv6('::1')).toEqual([...new Array(15).fill(0), 1]);
    expect(parseIPv6('[fe80::1%eth0]')?.slice(0, 2)).toEqual([0xfe, 0x80]);
    expect(parseIPv6('::ffff:10.0.0.1')?.slice(10)).toEqual([0xff, 0xff, 10, 0, 0, 1]);
    expect(parseIPv6('2001:db8:0:0:0:0:0:1')?.slice(0, 4)).toEqual([0x20, 0x01, 0x0d, 0xb8]);
    expect(parseIPv6('1::2::3')).toBeNull();
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(parseIPv6('::ffff:300.0.0.1')).toBeNull();
  });
});

describe('address classes', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    // IPv4 inside IPv6 is judged by the IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:a9fe:a9fe::', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2a00:1450:4009:80b::200e', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('refusal', () => {
  it('refuses every non-public address on hosted', () => {
    for (const a of ['127.0.0.1', '::1', '10.0.0.1', '169.254.169.254', '::ffff:127.0.0.1']) {
      expect(refusal(a, hosted)).toMatch(/^refused: /);
    }
    expect(refusal('8.8.8.8', hosted)).toBeNull();
    expect(refusal('not-an-ip', hosted)).toMatch(/^refused: not an IP/);
  });

  it('allows loopback, and only loopback, when the test harness says so', () => {
    expect(refusal('127.0.0.1', tests)).toBeNull();
    expect(refusal('::1', tests)).toBeNull();
    expect(refusal('::ffff:127.0.0.1', tests)).toBeNull();
    expect(refusal('10.0.0.1', tests)).toBe('refused: private address (10.0.0.1)');
    expect(refusal('169.254.169.254', tests)).toBe('refused: link-local address (169.254.169.254)');
  });

  it('treats localhost names as loopback without asking DNS', () => {
    expect(isLocalhostName('localhost')).toBe(true);
    expect(isLocalhostName('LOCALHOST.')).toBe(true);
    expect(isLocalhostName('shop.localhost')).toBe(true);
    expect(isLocalhostName('localhost.example.com')).toBe(false);
  });
});

describe('"another site"', () => {
  const same = (a: string, b: string) => siteOf(new URL(a)) === siteOf(new URL(b));
  it('is another host name or port; scheme, case and www. do not count', () => {
    expect(same('http://shop.example/a', 'https://www.Shop.example/b')).toBe(true);
    expect(same('http://127.0.0.1:5000/a', 'http://127.0.0.1:5000/b')).toBe(true);
    expect(same('http://127.0.0.1:5000/a', 'http://localhost:5000/a')).toBe(false);
    expect(same('http://127.0.0.1:5000/a', 'http://127.0.0.1:5001/a')).toBe(false);
    expect(same('https://shop.example/a', 'https://other.example/a')).toBe(false);
  });
});

describe('settings', () => {
  const base = {
    SUPABASE_URL: 'http://127.0.0.1:1',
    SUPABASE_ANON_KEY: 'anon',
    SUPABASE_SERVICE_ROLE_KEY: 'service',
  };
  const load = (env: Record<string, string>) => loadConfig((n) => ({ ...base, ...env })[n]);

  it('never allows loopback unless LINK_HEALTH_ALLOW_LOOPBACK is set', () => {
    expect(load({}).allowLoopback).toBe(false);
    expect(load({ LINK_HEALTH_ALLOW_LOOPBACK: '1' }).allowLoopback).toBe(true);
  });

  it('has bounded defaults and an honest User-Agent', () => {
    const c = load({});
    expect(c).toMatchObject({ timeoutMs: 8000, concurrency: 12, maxRedirects: 5 });
    expect(c.userAgent).toMatch(/MAR-Online-Store/);
    expect(c.trustedKeys).toEqual(['service']);
    expect(() => load({ LINK_HEALTH_TIMEOUT_MS: '0' })).toThrow(/LINK_HEALTH_TIMEOUT_MS/);
  });
});
