// REQ-PATH-6: prices whose text holds a number are shown in one money format (£5.00, £1,249.00);
// the stored text stays as typed (src/lib/domain/format.ts formats only what is shown).
import { describe, expect, it } from 'vitest';
import { formatPrice } from '../../src/lib/domain/format';
import { cardPrice, DEFAULT_FRESHNESS_LIMITS } from '../../src/lib/domain/offerPrice';
import { texts } from '../../src/texts';

describe('formatPrice: one money format (REQ-PATH-6)', () => {
  it('writes a price that is one amount as £ with pence and thousands commas', () => {
    expect(formatPrice('5')).toBe('£5.00');
    expect(formatPrice('£5')).toBe('£5.00');
    expect(formatPrice('£ 5.5')).toBe('£5.50');
    expect(formatPrice('1249')).toBe('£1,249.00');
    expect(formatPrice('£1249')).toBe('£1,249.00');
    expect(formatPrice('£1,249')).toBe('£1,249.00');
    expect(formatPrice('1,249.5')).toBe('£1,249.50');
    expect(formatPrice('12.99 GBP')).toBe('£12.99');
    expect(formatPrice('GBP 12')).toBe('£12.00');
    expect(formatPrice('40 pounds')).toBe('£40.00');
    expect(formatPrice(' £49.99 ')).toBe('£49.99');
  });

  it('writes £ amounts within other words the same way and keeps the words', () => {
    expect(formatPrice('From £20')).toBe('From £20.00');
    expect(formatPrice('Was £30, now £25.5')).toBe('Was £30.00, now £25.50');
    expect(formatPrice('£1249 today only')).toBe('£1,249.00 today only');
    expect(formatPrice('£5-£8')).toBe('£5.00-£8.00');
  });

  it('leaves text without a clear amount as typed', () => {
    expect(formatPrice('Ask the seller')).toBe('Ask the seller');
    expect(formatPrice('12,99')).toBe('12,99');
    expect(formatPrice('From £12,99')).toBe('From £12,99');
    expect(formatPrice('Pack of 3')).toBe('Pack of 3');
    expect(formatPrice('-3')).toBe('-3');
    expect(formatPrice('1e3')).toBe('1e3');
    expect(formatPrice('$20')).toBe('$20');
    expect(formatPrice('')).toBe('');
    expect(formatPrice(undefined)).toBe('');
  });

  it('is what a card shows for a typed price', () => {
    const shown = cardPrice({ price: '£1249' }, DEFAULT_FRESHNESS_LIMITS, 0, texts.offers);
    expect(shown.price).toBe('£1,249.00');
  });
});
