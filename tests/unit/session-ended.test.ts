// @vitest-environment jsdom
import {
  AuthApiError,
  AuthRetryableFetchError,
  AuthSessionMissingError,
} from '@supabase/supabase-js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  classifyRefusal,
  lacksSecondFactor,
  sessionGoneFrom,
  withoutSecrets,
} from '../../src/lib/infra/sessionRefusal';
import {
  clearDraft,
  readDraft,
  rememberReturn,
  saveDraft,
  takeReturnPath,
  forgetReturnTab,
  peekReturnTab,
} from '../../src/lib/infra/sessionDraft';
import { DbError } from '../../src/features/admin/db';

// REQ-MFA-5: which refusals mean "the session ended", and what a draft keeps.

const pgrst = (code: string, message: string) =>
  new DbError({ code, message, details: '', hint: '', name: 'PostgrestError' } as never);

describe('REQ-MFA-5 classifyRefusal', () => {
  it('reads PostgREST JWT errors and a 401 as the token refused', () => {
    expect(classifyRefusal(pgrst('PGRST301', 'JWSError JWSInvalidSignature'))).toBe('jwt');
    expect(classifyRefusal(pgrst('PGRST303', 'JWT expired'))).toBe('jwt');
    expect(classifyRefusal({ status: 401, message: 'Unauthorized' })).toBe('jwt');
    expect(classifyRefusal({ message: 'JWT expired' })).toBe('jwt');
  });

  it('reads a database answer (RLS, an RPC saying no, nothing written) as refused', () => {
    expect(classifyRefusal(pgrst('42501', 'new row violates row-level security policy'))).toBe(
      'refused',
    );
    expect(classifyRefusal(pgrst('PGRST116', 'no rows'))).toBe('refused');
    expect(classifyRefusal(undefined)).toBe('refused');
  });

  it('never reads a network failure as an ended session', () => {
    expect(classifyRefusal(new TypeError('Failed to fetch'))).toBe('unanswered');
    expect(classifyRefusal({ message: 'NetworkError when attempting to fetch resource.' })).toBe(
      'unanswered',
    );
  });
});

describe('REQ-MFA-5 sessionGoneFrom (what GET /user answered)', () => {
  it('a user: the session lives', () => {
    expect(sessionGoneFrom({ data: { user: { id: 'u' } }, error: null })).toBe(false);
  });

  it('signed out elsewhere, expired, revoked: gone', () => {
    const notFound = new AuthApiError(
      'Session from session_id claim in JWT does not exist',
      403,
      'session_not_found',
    );
    expect(sessionGoneFrom({ data: { user: null }, error: notFound })).toBe(true);
    expect(sessionGoneFrom({ data: { user: null }, error: new AuthSessionMissingError() })).toBe(
      true,
    );
    const badJwt = new AuthApiError('invalid JWT: token is expired', 403, 'bad_jwt');
    expect(sessionGoneFrom({ data: { user: null }, error: badJwt })).toBe(true);
    const unknownUser = new AuthApiError('User not found', 401, undefined);
    expect(sessionGoneFrom({ data: { user: null }, error: unknownUser })).toBe(true);
  });

  it('a network failure or a busy server: unknown', () => {
    const offline = new AuthRetryableFetchError('Failed to fetch', 0);
    expect(sessionGoneFrom({ data: { user: null }, error: offline })).toBeNull();
    const busy = new AuthApiError('Too many requests', 429, 'over_request_rate_limit');
    expect(sessionGoneFrom({ data: { user: null }, error: busy })).toBeNull();
  });
});

describe('REQ-MFA-5 lacksSecondFactor (my_admin_access)', () => {
  it('an admin whose session lacks the code or the enrolment cannot save until signing in again', () => {
    expect(lacksSecondFactor({ data: { admin: true, needs: 'code' }, error: null })).toBe(true);
    expect(lacksSecondFactor({ data: { admin: true, needs: 'enrol' }, error: null })).toBe(true);
  });

  it('everything else is not this case', () => {
    expect(lacksSecondFactor({ data: { admin: true, needs: 'none' }, error: null })).toBe(false);
    expect(lacksSecondFactor({ data: { admin: false, needs: 'none' }, error: null })).toBe(false);
    // The function is not there yet (PGRST202) or failed.
    expect(lacksSecondFactor({ data: null, error: { code: 'PGRST202' } })).toBe(false);
  });
});

describe('REQ-MFA-5 drafts', () => {
  afterEach(() => sessionStorage.clear());

  it('never keeps passwords or codes', () => {
    expect(
      withoutSecrets({ title: 'Ball', password: 'x', current_password: 'y', code: '123456' }),
    ).toEqual({ title: 'Ball' });
    saveDraft('form', { name: 'Ann', password: 'secret' }, { id: '1' });
    expect(readDraft('form')).toEqual({ values: { name: 'Ann' }, extra: { id: '1' } });
    expect(JSON.stringify(sessionStorage)).not.toContain('secret');
    clearDraft('form');
    expect(readDraft('form')).toBeNull();
  });

  it('comes back to a page of this app only, once', () => {
    rememberReturn('/admin', 'categories');
    expect(takeReturnPath()).toBe('/admin');
    expect(peekReturnTab()).toBe('categories');
    forgetReturnTab();
    expect(peekReturnTab()).toBeNull();
    expect(takeReturnPath()).toBeNull();
    rememberReturn('//evil.example/admin');
    expect(takeReturnPath()).toBeNull();
    rememberReturn('https://evil.example/');
    expect(takeReturnPath()).toBeNull();
  });
});
