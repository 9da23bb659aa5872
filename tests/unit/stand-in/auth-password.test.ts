// Password policy and e-mail validation of the local auth service (stack/auth/validation.ts).
import { describe, expect, it } from 'vitest';
import { AuthApiError } from '../../../stack/auth/errors.ts';
import {
  assertPasswordAcceptable,
  checkPasswordStrength,
  makePasswordPolicy,
  normalizeEmail,
} from '../../../stack/auth/validation.ts';

function thrown(fn: () => unknown): AuthApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AuthApiError) return e;
    throw e;
  }
  throw new Error('expected an AuthApiError');
}

describe('password policy', () => {
  it('raises a configured minimum below 6 to 6', () => {
    expect(makePasswordPolicy(4, '').minLength).toBe(6);
    expect(makePasswordPolicy(10, '').minLength).toBe(10);
  });

  it('reports a short password with reason "length"', () => {
    const policy = makePasswordPolicy(8, '');
    expect(checkPasswordStrength('1234567', policy)).toEqual({
      message: 'Password should be at least 8 characters.',
      reasons: ['length'],
    });
    expect(checkPasswordStrength('12345678', policy)).toBeNull();
  });

  it('counts characters, not bytes', () => {
    expect(checkPasswordStrength('ééééé€', makePasswordPolicy(6, ''))).toBeNull();
  });

  it('requires each configured character set, listing the sets in the message', () => {
    const policy = makePasswordPolicy(6, 'lower_upper_letters_digits');
    expect(checkPasswordStrength('Abcdef1', policy)).toBeNull();
    expect(checkPasswordStrength('abcdef1', policy)).toEqual({
      message:
        'Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.',
      reasons: ['characters'],
    });
  });

  it('joins several reasons in the order length, characters', () => {
    const weak = checkPasswordStrength('abc', makePasswordPolicy(6, 'letters_digits'));
    expect(weak?.reasons).toEqual(['length', 'characters']);
    expect(weak?.message).toBe(
      'Password should be at least 6 characters. Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.',
    );
  });

  it('rejects unknown requirement names', () => {
    expect(() => makePasswordPolicy(6, 'emoji')).toThrow(/password_requirements/);
  });

  it('throws weak_password 422 with reasons, and validation_failed 400 beyond 72 bytes', () => {
    const policy = makePasswordPolicy(6, '');
    const weak = thrown(() => assertPasswordAcceptable('123', policy));
    expect([weak.status, weak.code, weak.message, weak.weakPassword]).toEqual([
      422,
      'weak_password',
      'Password should be at least 6 characters.',
      { reasons: ['length'] },
    ]);
    const long = thrown(() => assertPasswordAcceptable('x'.repeat(73), policy));
    expect([long.status, long.code, long.message]).toEqual([
      400,
      'validation_failed',
      'Password cannot be longer than 72 characters',
    ]);
    expect(() => assertPasswordAcceptable('x'.repeat(72), policy)).not.toThrow();
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases valid addresses', () => {
    expect(normalizeEmail('  Jane.Doe+Shop@Example.CO.UK ')).toBe('jane.doe+shop@example.co.uk');
  });

  it.each([
    ['not-an-email', 'Unable to validate email address: invalid format'],
    ['a@b@c.com', 'Unable to validate email address: invalid format'],
    ['jane@-example.com', 'Unable to validate email address: invalid format'],
    ['', 'An email address is required'],
    [`${'a'.repeat(250)}@b.com`, 'An email address is too long'],
  ])('rejects %j', (input, message) => {
    const err = thrown(() => normalizeEmail(input));
    expect([err.status, err.code, err.message]).toEqual([400, 'validation_failed', message]);
  });
});
