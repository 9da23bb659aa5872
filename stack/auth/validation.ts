// Password policy and e-mail checks with GoTrue's exact error strings.
import { AuthApiError, badRequest } from './errors.ts';

/** Character sets behind config.toml's `password_requirements` names (as the Supabase CLI maps them). */
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const SYMBOLS = '!@#$%^&*()_+-=[]{};\'\\:"|<>?,./`~';
const REQUIREMENT_SETS: Record<string, string[]> = {
  '': [],
  no_required_chars: [],
  letters_digits: [LOWER + UPPER, DIGITS],
  lower_upper_letters_digits: [LOWER, UPPER, DIGITS],
  lower_upper_letters_digits_symbols: [LOWER, UPPER, DIGITS, SYMBOLS],
};

export interface PasswordPolicy {
  minLength: number;
  requiredSets: string[];
}

export function makePasswordPolicy(minimumLength: number, requirements: string): PasswordPolicy {
  const sets = REQUIREMENT_SETS[requirements.trim()];
  if (!sets) throw new Error(`unknown password_requirements "${requirements}"`);
  // GoTrue raises any configured minimum below 6 to 6.
  return { minLength: Math.max(6, Math.floor(minimumLength) || 0), requiredSets: sets };
}

export interface WeakPasswordResult {
  message: string;
  reasons: string[];
}

/** Returns null when the password meets the policy, else the weak-password message and reasons. */
export function checkPasswordStrength(
  password: string,
  policy: PasswordPolicy,
): WeakPasswordResult | null {
  const messages: string[] = [];
  const reasons: string[] = [];
  // Length counts characters (runes), as Go's utf8.RuneCountInString does.
  if ([...password].length < policy.minLength) {
    messages.push(`Password should be at least ${policy.minLength} characters.`);
    reasons.push('length');
  }
  if (policy.requiredSets.length > 0) {
    const missing = policy.requiredSets.some(
      (set) => ![...password].some((ch) => set.includes(ch)),
    );
    if (missing) {
      messages.push(
        `Password should contain at least one character of each: ${policy.requiredSets.join(', ')}.`,
      );
      reasons.push('characters');
    }
  }
  return reasons.length ? { message: messages.join(' '), reasons } : null;
}

/** bcrypt only looks at 72 bytes; GoTrue refuses longer passwords outright. */
export function checkPasswordLength(password: string): void {
  if (Buffer.byteLength(password, 'utf8') > 72) {
    throw badRequest('validation_failed', 'Password cannot be longer than 72 characters');
  }
}

/** Full policy check used by sign-up, PUT /user and admin updates. */
export function assertPasswordAcceptable(password: string, policy: PasswordPolicy): void {
  checkPasswordLength(password);
  const weak = checkPasswordStrength(password, policy);
  if (weak) throw new AuthApiError(422, 'weak_password', weak.message, { reasons: weak.reasons });
}

// The HTML5 e-mail grammar GoTrue validates with.
const EMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Validates and lower-cases an e-mail address; throws GoTrue's validation errors. */
export function normalizeEmail(
  raw: unknown,
  requiredMessage = 'An email address is required',
): string {
  const email = typeof raw === 'string' ? raw.trim() : '';
  if (email === '') throw badRequest('validation_failed', requiredMessage);
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_RE.test(email))
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  return email.toLowerCase();
}

export function isValidEmail(raw: string): boolean {
  return raw.length <= 255 && EMAIL_RE.test(raw);
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID_RE.test(value);
