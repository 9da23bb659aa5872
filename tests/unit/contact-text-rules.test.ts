// The contact function's character rules (supabase/functions/contact/text-rules.ts); that they
// match the table's checks is tested against the database in contact-validation.test.ts.
import { describe, expect, it } from 'vitest';
import {
  charLength,
  isWellFormed,
  MESSAGE_FORBIDDEN,
  ONE_LINE_FORBIDDEN,
} from '../../supabase/functions/contact/text-rules.ts';

describe('contact text rules', () => {
  it('counts characters as Postgres does, not UTF-16 units', () => {
    expect(charLength('🏈⚽')).toBe(2);
    expect(charLength('e\u0301')).toBe(2);
    expect(charLength('')).toBe(0);
  });

  it('refuses controls, direction overrides and line separators in a name', () => {
    for (const c of [
      '\u0000',
      '\n',
      '\u007f',
      '\u0085',
      '\u009b',
      '\u202e',
      '\u2066',
      '\u200f',
      '\u2028',
      '\u2029',
    ])
      expect(ONE_LINE_FORBIDDEN.test(`A${c}B`), JSON.stringify(c)).toBe(true);
    for (const ok of ['Zoë O’Brien', 'محمد', '山田 太郎', 'Ann\u00a0Lee', '👨‍👩‍👧 family'])
      expect(ONE_LINE_FORBIDDEN.test(ok), ok).toBe(false);
  });

  it('allows line breaks and tabs in a message, no other controls', () => {
    expect(MESSAGE_FORBIDDEN.test('Hi,\r\n\tthanks')).toBe(false);
    for (const c of ['\u0000', '\u001b', '\u000b', '\u0085'])
      expect(MESSAGE_FORBIDDEN.test(`a${c}b`), JSON.stringify(c)).toBe(true);
  });

  it('refuses half a surrogate pair', () => {
    expect(isWellFormed('🏈')).toBe(true);
    expect(isWellFormed('a\ud800b')).toBe(false);
    expect(isWellFormed('\udc00')).toBe(false);
  });
});
