// Error bodies of the local auth service: 2024-01-01 shape vs legacy shape (stack/auth/errors.ts).
import { describe, expect, it } from 'vitest';
import { AuthApiError, formatError, resolveApiVersion } from '../../../stack/auth/errors.ts';

describe('resolveApiVersion', () => {
  it('resolves 2024-01-01 and later dates to 2024-01-01', () => {
    expect(resolveApiVersion('2024-01-01')).toBe('2024-01-01');
    expect(resolveApiVersion('2025-06-30')).toBe('2024-01-01');
  });

  it('treats missing, earlier or malformed values as legacy', () => {
    expect(resolveApiVersion(undefined)).toBeNull();
    expect(resolveApiVersion('2023-12-31')).toBeNull();
    expect(resolveApiVersion('yesterday')).toBeNull();
  });
});

describe('formatError', () => {
  const err = new AuthApiError(400, 'invalid_credentials', 'Invalid login credentials');

  it('uses {code, message} and echoes the version when the client asked for 2024-01-01', () => {
    expect(formatError(err, '2024-01-01')).toEqual({
      status: 400,
      headers: { 'X-Supabase-Api-Version': '2024-01-01', 'x-sb-error-code': 'invalid_credentials' },
      body: { code: 'invalid_credentials', message: 'Invalid login credentials' },
    });
  });

  it('uses the legacy {code: status, error_code, msg} shape without a version', () => {
    expect(formatError(err, null)).toEqual({
      status: 400,
      headers: { 'x-sb-error-code': 'invalid_credentials' },
      body: { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' },
    });
  });

  it('adds error_id to legacy 5xx bodies only', () => {
    const boom = new AuthApiError(500, 'unexpected_failure', 'Database error saving new user');
    expect(formatError(boom, null, 'id-1').body).toEqual({
      code: 500,
      error_code: 'unexpected_failure',
      msg: 'Database error saving new user',
      error_id: 'id-1',
    });
    expect(formatError(err, null, 'id-1').body).not.toHaveProperty('error_id');
  });

  it('carries weak_password reasons in both shapes and omits x-sb-error-code for it in the 2024 shape', () => {
    const weak = new AuthApiError(
      422,
      'weak_password',
      'Password should be at least 6 characters.',
      { reasons: ['length'] },
    );
    const modern = formatError(weak, '2024-01-01');
    expect(modern.body).toEqual({
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
    expect(modern.headers).toEqual({ 'X-Supabase-Api-Version': '2024-01-01' });
    const legacy = formatError(weak, null);
    expect(legacy.body).toEqual({
      code: 422,
      error_code: 'weak_password',
      msg: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
    expect(legacy.headers).toEqual({ 'x-sb-error-code': 'weak_password' });
  });
});
