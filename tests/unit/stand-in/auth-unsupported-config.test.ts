// RELIABILITY.md §6, row 9: config keys the local auth server does not implement are reported at
// start.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  unsupportedAuthSettings,
  unsupportedAuthSettingsIn,
} from '../../../stack/auth/unsupported-config.ts';

describe('unsupported auth settings', () => {
  it('names every key that is set but not implemented', () => {
    const warnings = unsupportedAuthSettings({
      auth: {
        enable_anonymous_sign_ins: true,
        email: { double_confirm_changes: true, secure_password_change: true },
        sms: { enable_signup: true },
        mfa: {
          totp: { enroll_enabled: true, verify_enabled: true },
          phone: { enroll_enabled: true },
        },
        external: { github: { enabled: true }, apple: { enabled: false } },
      },
    });
    const keys = warnings.map((w) => /^\[auth\] (\S+)/.exec(w)?.[1]);
    expect(keys).toEqual([
      'enable_anonymous_sign_ins',
      'email.secure_password_change',
      'sms',
      'mfa.phone',
      'external.github',
    ]);
  });

  it('says nothing for keys that are off', () => {
    expect(
      unsupportedAuthSettings({
        auth: {
          enable_anonymous_sign_ins: false,
          email: { double_confirm_changes: false, secure_password_change: false },
          external: { apple: { enabled: false } },
        },
      }),
    ).toEqual([]);
  });

  // double_confirm_changes is implemented now: the store's config sets it and gets no warning.
  it("reports nothing implemented in the store's own config.toml", () => {
    const warnings = unsupportedAuthSettingsIn(
      path.resolve(import.meta.dirname, '../../../supabase/config.toml'),
    );
    expect(warnings.some((w) => w.includes('email.double_confirm_changes'))).toBe(false);
    expect(warnings.some((w) => w.includes('enable_anonymous_sign_ins'))).toBe(false);
  });
});
