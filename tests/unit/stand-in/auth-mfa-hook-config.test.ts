// REQ-MFA-4 (decision 0253): the stack hands the auth stand-in the MFA verification attempt hook
// that supabase/config.toml enables, named as GoTrue names a pg-functions hook.
import { describe, expect, it } from 'vitest';
import { pgFunctionHookName } from '../../../stack/auth/mfa-hook.ts';
import { loadConfig } from '../../../stack/config.ts';

describe('REQ-MFA-4 MFA verification attempt hook config', () => {
  it('quotes schema and function of a pg-functions URI as GoTrue does; other URIs are not called', () => {
    expect(pgFunctionHookName('pg-functions://postgres/public/hook_mfa_verification_attempt')).toBe(
      '"public"."hook_mfa_verification_attempt"',
    );
    expect(pgFunctionHookName('https://example.com/hook')).toBeNull();
    expect(pgFunctionHookName('pg-functions://postgres/public')).toBeNull();
  });

  it("the store's config.toml enables public.hook_mfa_verification_attempt", () => {
    expect(loadConfig().auth.mfa.verificationHook).toBe('"public"."hook_mfa_verification_attempt"');
  });
});
