// Keys of supabase/config.toml's [auth] part that this auth server does not implement. Each one
// that is set (enabled, true, or a non-default value) is reported once at start, so a project
// never relies on a setting that the local stack silently ignores.
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { TEMPLATE_NAMES } from './mail-templates.ts';

type Table = Record<string, unknown>;

const table = (t: Table, key: string): Table => {
  const v = t[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Table) : {};
};

/** Human-readable warnings for the set-but-unsupported keys of a parsed config.toml. */
export function unsupportedAuthSettings(config: Table): string[] {
  const auth = table(config, 'auth');
  const email = table(auth, 'email');
  const warnings: string[] = [];
  const warn = (key: string, what: string) =>
    warnings.push(`[auth] ${key} is set but not supported by the local auth server: ${what}`);

  if (auth.enable_anonymous_sign_ins === true)
    warn('enable_anonymous_sign_ins', 'anonymous sign-ins answer 422 anonymous_provider_disabled');
  if (auth.enable_manual_linking === true) warn('enable_manual_linking', 'identity linking');
  if (email.secure_password_change === true)
    warn('email.secure_password_change', 'a password change needs no recent sign-in or nonce');
  if (table(email, 'smtp').enabled === true)
    warn('email.smtp', 'mail always goes to the local mail catcher');
  for (const name of Object.keys(table(email, 'template'))) {
    if (!(Object.values(TEMPLATE_NAMES) as string[]).includes(name))
      warn(`email.template.${name}`, 'that mail is never sent');
  }
  for (const [name, value] of Object.entries(table(email, 'notification'))) {
    if (table({ v: value }, 'v').enabled === true)
      warn(`email.notification.${name}`, 'notification mails are not sent');
  }
  if (table(auth, 'sms').enable_signup === true || table(auth, 'sms').enabled === true)
    warn('sms', 'phone sign-up and SMS codes');
  const mfa = table(auth, 'mfa');
  // TOTP factors are implemented (mfa.ts); phone and WebAuthn factors are not.
  for (const factor of ['phone', 'web_authn']) {
    const f = table(mfa, factor);
    if (f.enroll_enabled === true || f.verify_enabled === true)
      warn(`mfa.${factor}`, 'multi-factor authentication');
  }
  for (const [name, provider] of Object.entries(table(auth, 'external'))) {
    if (table({ p: provider }, 'p').enabled === true)
      warn(`external.${name}`, 'OAuth/OIDC sign-in');
  }
  for (const [name, provider] of Object.entries(table(auth, 'third_party'))) {
    if (table({ p: provider }, 'p').enabled === true)
      warn(`third_party.${name}`, 'third-party auth tokens');
  }
  for (const part of ['hook', 'web3', 'oauth_server', 'captcha', 'sessions']) {
    for (const [name, value] of Object.entries(table(auth, part))) {
      if (table({ v: value }, 'v').enabled === true) warn(`${part}.${name}`, 'not implemented');
    }
    if (table(auth, part).enabled === true) warn(part, 'not implemented');
  }
  return warnings;
}

/** Warnings for the config file at `file`; none when it does not exist. */
export function unsupportedAuthSettingsIn(file: string): string[] {
  if (!existsSync(file)) return [];
  return unsupportedAuthSettings(parse(readFileSync(file, 'utf8')) as Table);
}
