// The per-IP limiter of the local auth server: the client address is the one hop the gateway
// adds, and the limiter stays O(1) with bounded memory however many addresses it sees.
import { describe, expect, it } from 'vitest';
import { IpRateLimiter, clientIp } from '../../../stack/auth/rate-limit.ts';

describe('client address', () => {
  it('trusts only the last X-Forwarded-For entry (the socket peer the gateway appended)', () => {
    expect(clientIp('203.0.113.9, 127.0.0.1', '127.0.0.1')).toBe('127.0.0.1');
    expect(clientIp('1.1.1.1, 2.2.2.2, 198.51.100.4', '127.0.0.1')).toBe('198.51.100.4');
    expect(clientIp(['203.0.113.9', '127.0.0.2'], '127.0.0.1')).toBe('127.0.0.2');
    expect(clientIp(undefined, '::1')).toBe('::1');
    expect(clientIp('', '::1')).toBe('::1');
  });
});

describe('IpRateLimiter', () => {
  it('remembers at most maxKeys addresses and forgets the least recently seen first', () => {
    const now = 0;
    const limiter = new IpRateLimiter(2, 300_000, () => now, 100);
    expect([limiter.take('victim'), limiter.take('victim'), limiter.take('victim')]).toEqual([
      true,
      true,
      false,
    ]);
    for (let i = 0; i < 20_000; i++) {
      limiter.take(`198.18.${i >> 8}.${i & 255}`);
      if (i % 50 === 0) expect(limiter.take('victim')).toBe(false); // kept: recently seen
      expect(limiter.size).toBeLessThanOrEqual(100);
    }
    expect(limiter.size).toBe(100);
  });

  it('the default bound is 10,000 addresses', () => {
    const limiter = new IpRateLimiter(5, 300_000, () => 0);
    for (let i = 0; i < 25_000; i++) limiter.take(`k${i}`);
    expect(limiter.size).toBe(10_000);
  });
});
