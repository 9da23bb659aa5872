import { describe, expect, it } from 'vitest';
import { formatPrice, safeUrl, sellerSite } from '../../src/lib/domain/format';

describe('formatPrice', () => {
  it('shows a plain number as GBP with two decimals', () => {
    expect(formatPrice('12.99')).toBe('£12.99');
    expect(formatPrice('12.5')).toBe('£12.50');
    expect(formatPrice('5')).toBe('£5.00');
    expect(formatPrice(' 1499 ')).toBe('£1,499.00');
    expect(formatPrice('0')).toBe('£0.00');
  });

  it('writes what Intl.NumberFormat writes for GBP, rounding and grouping included', () => {
    const intl = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
    const prices = [
      '0',
      '0.004',
      '0.005',
      '0.015',
      '1.005',
      '1.015',
      '2.675',
      '999.995',
      '1000',
      '12345.675',
      '1234567.891',
      '99999999.999',
      '100000000000000000000',
      '999999999999999999999',
      '123456789012345678901234',
      '0000012.50',
      '3.14159265358979323846',
    ];
    // And a spread of ordinary prices, with 0 to 3 decimals.
    for (let i = 0; i < 2000; i++)
      prices.push((((i * 7919) % 1_000_000) / 10 ** (i % 4)).toString());
    for (const price of prices) expect(formatPrice(price), price).toBe(intl.format(Number(price)));
  });

  it('shows any other price text exactly as entered', () => {
    expect(formatPrice('£12.99')).toBe('£12.99');
    expect(formatPrice('From £20')).toBe('From £20.00');
    expect(formatPrice('12,99')).toBe('12,99');
    expect(formatPrice('-3')).toBe('-3');
    expect(formatPrice('1e3')).toBe('1e3');
    expect(formatPrice('Ask the seller')).toBe('Ask the seller');
    expect(formatPrice('')).toBe('');
    expect(formatPrice(null)).toBe('');
  });
});

describe('safeUrl', () => {
  it('keeps http(s) URLs and site-relative paths', () => {
    expect(safeUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeUrl('http://example.com')).toBe('http://example.com/');
    expect(safeUrl('/products/football.svg')).toBe('/products/football.svg');
  });

  it('refuses script, data and protocol-relative URLs and junk', () => {
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl(' JavaScript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,<b>x</b>')).toBeNull();
    expect(safeUrl('//evil.example/x.png')).toBeNull();
    expect(safeUrl('not a url')).toBeNull();
    expect(safeUrl('')).toBeNull();
    expect(safeUrl(undefined)).toBeNull();
  });
});

// The seller named beside every Buy Now (docs/decisions/0210): the link's site.
describe('sellerSite', () => {
  it('is the host name without www.', () => {
    expect(sellerSite('https://www.sportsdirect.com/p/1?x=2')).toBe('sportsdirect.com');
    expect(sellerSite('https://WWW.Decathlon.co.uk/')).toBe('decathlon.co.uk');
    expect(sellerSite('http://shop.example.com:8080/a')).toBe('shop.example.com');
    expect(sellerSite('https://www2.example.com/')).toBe('www2.example.com');
  });

  it('is null for a missing link or one without a host', () => {
    expect(sellerSite('')).toBeNull();
    expect(sellerSite(null)).toBeNull();
    expect(sellerSite('/products/x')).toBeNull();
    expect(sellerSite('not a url')).toBeNull();
  });
});
