// Configuration of the contact function, read from its environment (function secrets on hosted
// Supabase: `supabase secrets set NAME=value`; the local stack passes its own values).
// No Deno APIs and no npm imports: unit tests call loadConfig with a plain lookup function.
import { DEFAULT_CLIENT_ADDRESS_HEADER, parseOrigins, type AllowedOrigins } from './http.ts';
import { secretKeys } from '../_shared/keys.ts';
import { intSetting, nonEmpty, type Lookup } from '../_shared/settings.ts';

export type MailTransportConfig =
  | {
      kind: 'smtp';
      host: string;
      port: number;
      secure: boolean;
      user: string | null;
      pass: string | null;
    }
  | { kind: 'resend'; apiKey: string; apiUrl: string }
  | { kind: 'none' };

export interface ContactConfig {
  supabaseUrl: string;
  /** Key the function uses for the database (service role). */
  serviceRoleKey: string;
  /** Keys that authorise POST /contact/retry: the service role key and any sb_secret_ keys. */
  retrySecrets: string[];
  /** The store's address: where contact mails go. */
  to: string;
  /** Sender of contact mails; must be a domain the mail provider lets you send from. */
  from: string;
  transport: MailTransportConfig;
  allowedOrigins: AllowedOrigins;
  maxBodyBytes: number;
  rateLimit: { max: number; windowSeconds: number };
  /** Messages the whole function accepts per minute from all addresses (counted in the database). */
  globalPerMinute: number;
  /** The request header with the caller's address, set by the platform's edge (decision 0200). */
  clientAddressHeader: string;
  /** For a list header: entries trusted proxies wrote after the caller's (usually 0). */
  trustedProxyHops: number;
  /** After this long a 'sending' claim counts as abandoned and the retry may take it over. */
  claimLeaseSeconds: number;
  /** Upper bound for one SMTP/API send, so a hanging provider cannot hold the visitor. */
  sendTimeoutMs: number;
  /** Cloudflare Turnstile human check; null when no secret is set (local stack): check off. */
  turnstile: TurnstileConfig | null;
  /** Messages a day (UTC) mailed on their own; later ones wait for a digest. */
  dailyMailCap: number;
  /** Messages one digest mail carries at most (one digest per retry run). */
  digestMaxMessages: number;
}

export interface TurnstileConfig {
  secret: string;
  /** Cloudflare's siteverify endpoint; settable so tests can point it at a local server. */
  verifyUrl: string;
  timeoutMs: number;
}

export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
/** Mails of their own a day before the rest is batched into digests (docs/decisions/0203). */
export const DEFAULT_DAILY_MAIL_CAP = 200;
export const DEFAULT_DIGEST_MAX_MESSAGES = 500;

export const DEFAULT_TO = 'shop@mar-online-store.test';
/** Messages the whole function accepts per minute, from all addresses together. */
export const DEFAULT_GLOBAL_RATE_LIMIT_PER_MINUTE = 30;
export const DEFAULT_FROM = 'MAR Online Store <no-reply@mar-online-store.test>';

function boolSetting(get: Lookup, name: string): boolean | undefined {
  const raw = get(name)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false (got "${raw}")`);
}

/** A request header name (lower-case); the platform's address header when unset. */
function headerSetting(get: Lookup, name: string): string {
  const raw = get(name)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return DEFAULT_CLIENT_ADDRESS_HEADER;
  if (!/^[a-z0-9-]{1,64}$/.test(raw)) {
    throw new Error(`${name} must be a header name such as cf-connecting-ip (got "${raw}")`);
  }
  return raw;
}

/** The provider is chosen by which credentials exist; CONTACT_MAIL_PROVIDER forces one. */
function transportConfig(get: Lookup): MailTransportConfig {
  const forced = nonEmpty(get, 'CONTACT_MAIL_PROVIDER')?.toLowerCase();
  if (forced !== undefined && !['smtp', 'resend', 'none'].includes(forced)) {
    throw new Error(`CONTACT_MAIL_PROVIDER must be smtp, resend or none (got "${forced}")`);
  }
  const resendKey = nonEmpty(get, 'RESEND_API_KEY');
  const smtpHost = nonEmpty(get, 'SMTP_HOST');

  const useResend = forced === 'resend' || (forced === undefined && resendKey !== undefined);
  const useSmtp =
    forced === 'smtp' || (forced === undefined && !useResend && smtpHost !== undefined);

  if (useResend) {
    if (!resendKey) throw new Error('CONTACT_MAIL_PROVIDER=resend needs RESEND_API_KEY');
    return {
      kind: 'resend',
      apiKey: resendKey,
      apiUrl: (nonEmpty(get, 'RESEND_API_URL') ?? 'https://api.resend.com').replace(/\/+$/, ''),
    };
  }
  if (useSmtp) {
    if (!smtpHost) throw new Error('CONTACT_MAIL_PROVIDER=smtp needs SMTP_HOST');
    const port = intSetting(get, 'SMTP_PORT', 587, 1, 65535);
    return {
      kind: 'smtp',
      host: smtpHost,
      port,
      // Port 465 speaks TLS from the first byte; others upgrade with STARTTLS when offered.
      secure: boolSetting(get, 'SMTP_SECURE') ?? port === 465,
      user: nonEmpty(get, 'SMTP_USER') ?? null,
      pass: get('SMTP_PASS') ?? null,
    };
  }
  return { kind: 'none' };
}

function turnstileConfig(get: Lookup): TurnstileConfig | null {
  const secret = nonEmpty(get, 'CONTACT_TURNSTILE_SECRET');
  if (!secret) return null;
  const verifyUrl = nonEmpty(get, 'CONTACT_TURNSTILE_VERIFY_URL') ?? TURNSTILE_VERIFY_URL;
  if (!/^https?:\/\//.test(verifyUrl)) {
    throw new Error(`CONTACT_TURNSTILE_VERIFY_URL must be an http(s) URL (got "${verifyUrl}")`);
  }
  return {
    secret,
    verifyUrl,
    timeoutMs: intSetting(get, 'CONTACT_TURNSTILE_TIMEOUT_MS', 5000, 500, 30_000),
  };
}

export function loadConfig(get: Lookup): ContactConfig {
  const supabaseUrl = nonEmpty(get, 'SUPABASE_URL');
  const serviceRoleKey = nonEmpty(get, 'SUPABASE_SERVICE_ROLE_KEY');
  if (!supabaseUrl || !serviceRoleKey) {
    throw new Error(
      'SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY must be set (the runtime provides them)',
    );
  }
  return {
    supabaseUrl,
    serviceRoleKey,
    retrySecrets: [serviceRoleKey, ...secretKeys(get('SUPABASE_SECRET_KEYS'))],
    to: nonEmpty(get, 'CONTACT_TO') ?? DEFAULT_TO,
    from: nonEmpty(get, 'CONTACT_FROM') ?? DEFAULT_FROM,
    transport: transportConfig(get),
    // Explicit list first, then the site's own URL; neither set means local development.
    allowedOrigins: parseOrigins(get('CONTACT_ALLOWED_ORIGINS')) ??
      parseOrigins(get('SITE_URL')) ?? ['*'],
    maxBodyBytes: intSetting(get, 'CONTACT_MAX_BODY_BYTES', 64 * 1024, 1024, 1024 * 1024),
    rateLimit: {
      max: intSetting(get, 'CONTACT_RATE_LIMIT_MAX', 5, 1, 100_000),
      windowSeconds: intSetting(get, 'CONTACT_RATE_LIMIT_WINDOW_SECONDS', 600, 1, 7 * 24 * 3600),
    },
    globalPerMinute: intSetting(
      get,
      'CONTACT_GLOBAL_RATE_LIMIT_PER_MINUTE',
      DEFAULT_GLOBAL_RATE_LIMIT_PER_MINUTE,
      1,
      100_000,
    ),
    clientAddressHeader: headerSetting(get, 'CONTACT_CLIENT_ADDRESS_HEADER'),
    trustedProxyHops: intSetting(get, 'CONTACT_TRUSTED_PROXY_HOPS', 0, 0, 10),
    claimLeaseSeconds: intSetting(get, 'CONTACT_CLAIM_LEASE_SECONDS', 900, 60, 7 * 24 * 3600),
    sendTimeoutMs: intSetting(get, 'CONTACT_SEND_TIMEOUT_MS', 15_000, 1000, 120_000),
    turnstile: turnstileConfig(get),
    dailyMailCap: intSetting(get, 'CONTACT_DAILY_MAIL_CAP', DEFAULT_DAILY_MAIL_CAP, 0, 100_000),
    digestMaxMessages: intSetting(
      get,
      'CONTACT_DIGEST_MAX_MESSAGES',
      DEFAULT_DIGEST_MAX_MESSAGES,
      1,
      5000,
    ),
  };
}
