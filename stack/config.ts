// Reads supabase/config.toml (the single source of truth for settings) into the typed
// configuration the local stack needs: ports, Data API settings, keys, auth and function options.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { signJwt } from './auth/jwt.ts';
import { loadMailTemplates, type MailTemplates } from './auth/mail-templates.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Supabase CLI defaults (config.toml carries no jwt_secret, so these well-known values apply). */
export const DEFAULT_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const DEFAULT_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
export const DEFAULT_SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';
/** exp of the CLI demo keys (2032-11-11). */
const DEMO_KEY_EXP = 1983812996;

/** Offsets of the internal services from the port base (stack/PLATFORM.md: Ports). */
export const INTERNAL_PORT_OFFSETS = { rest: 10, auth: 11, functions: 12, storage: 13 } as const;
/** Highest offset used; a free port base needs base..base+PORT_SPAN free. */
export const PORT_SPAN = 13;

export interface StackPorts {
  api: number;
  db: number;
  mailWeb: number;
  smtp: number;
  rest: number;
  auth: number;
  functions: number;
  storage: number;
}

export interface AuthSettings {
  siteUrl: string;
  additionalRedirectUrls: string[];
  externalUrl: string | null;
  jwtExpiry: number;
  enableSignup: boolean;
  emailEnabled: boolean;
  enableConfirmations: boolean;
  minimumPasswordLength: number;
  passwordRequirements: string;
  maxFrequencySeconds: number;
  refreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  otpExpiry: number;
  /** An e-mail change needs the links to both the current and the new address. */
  doubleConfirmChanges: boolean;
  /** A new password needs the current one (except after an e-mailed link or code). */
  requireCurrentPassword: boolean;
  /** [auth.mfa]: TOTP factors (decision 0250). */
  mfa: { totpEnrollEnabled: boolean; totpVerifyEnabled: boolean; maxEnrolledFactors: number };
  rateLimits: {
    signInSignUps: number;
    tokenRefresh: number;
    tokenVerifications: number;
    emailSent: number;
  };
}

export interface FunctionSettings {
  enabled: boolean;
  verifyJwt: boolean;
}

export interface StackConfig {
  repoRoot: string;
  supabaseDir: string;
  projectId: string;
  ports: StackPorts;
  api: {
    schemas: string[];
    extraSearchPath: string[];
    maxRows: number;
    autoExposeNewTables: boolean;
  };
  db: { majorVersion: number; migrationsEnabled: boolean; seedEnabled: boolean };
  keys: {
    jwtSecret: string;
    anonKey: string;
    serviceRoleKey: string;
    publishableKey: string;
    secretKey: string;
  };
  auth: AuthSettings;
  smtp: { adminEmail: string; senderName: string };
  /** [auth.email.template.*]: the Auth e-mails' subjects and bodies (decision 0213). */
  emailTemplates: MailTemplates;
  /** [storage]: the largest object any bucket accepts, in bytes. */
  storage: { fileSizeLimit: number };
  functions: Record<string, FunctionSettings>;
  /** [edge_runtime.secrets]: extra environment for edge functions. */
  functionSecrets: Record<string, string>;
}

type Table = Record<string, unknown>;

/** `env(NAME)` substitution as the Supabase CLI does it; unset variables become ''. */
function substituteEnv(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') {
    const m = /^env\(([A-Za-z_][A-Za-z0-9_]*)\)$/.exec(value.trim());
    return m ? (env[m[1]!] ?? '') : value;
  }
  if (Array.isArray(value)) return value.map((v) => substituteEnv(v, env));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, env)]));
  }
  return value;
}

function table(parent: Table | undefined, key: string): Table {
  const v = parent?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Table) : {};
}

function str(t: Table, key: string, fallback: string): string {
  const v = t[key];
  return typeof v === 'string' && v !== '' ? v : fallback;
}

function num(t: Table, key: string, fallback: number): number {
  const v = t[key];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return fallback;
}

function bool(t: Table, key: string, fallback: boolean): boolean {
  const v = t[key];
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return fallback;
}

function strList(t: Table, key: string, fallback: string[]): string[] {
  const v = t[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : fallback;
}

/** Go-style durations as used in config.toml ("1s", "2m", "1h30m", "500ms"); returns seconds. */
export function parseDurationSeconds(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return fallback;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = '';
  for (const m of value.trim().matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n / 1000 : m[2] === 's' ? n : m[2] === 'm' ? n * 60 : n * 3600;
    consumed += m[0];
  }
  if (consumed !== value.trim()) throw new Error(`config.toml: cannot parse duration "${value}"`);
  return total;
}

/** Sizes as the CLI reads them ("50MiB", "5MB", "500KB", plain bytes); KB/MB/GB count 1024 too. */
export function parseSizeBytes(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return fallback;
  const m = /^(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$/i.exec(value.trim());
  if (!m) throw new Error(`config.toml: cannot parse size "${value}"`);
  const unit = (m[2] ?? 'b').toLowerCase()[0]!;
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Math.floor(Number(m[1]) * factor);
}

export function demoApiKey(role: 'anon' | 'service_role', secret: string): string {
  return signJwt({ iss: 'supabase-demo', role, exp: DEMO_KEY_EXP }, secret);
}

export interface LoadConfigOptions {
  repoRoot?: string;
  /** Overrides [api] port; the other ports keep their distance from it. */
  portBase?: number;
  env?: NodeJS.ProcessEnv;
}

export function loadConfig(opts: LoadConfigOptions = {}): StackConfig {
  const repoRoot = opts.repoRoot ?? REPO_ROOT;
  const env = opts.env ?? process.env;
  const supabaseDir = path.join(repoRoot, 'supabase');
  const file = path.join(supabaseDir, 'config.toml');
  const raw: Table = existsSync(file)
    ? (substituteEnv(parse(readFileSync(file, 'utf8')), env) as Table)
    : {};

  const api = table(raw, 'api');
  const db = table(raw, 'db');
  const smtp = table(raw, 'local_smtp');
  const auth = table(raw, 'auth');
  const email = table(auth, 'email');
  const rate = table(auth, 'rate_limit');

  // Ports: the config values define the layout relative to [api] port; a port base override
  // shifts all of them so a second stack can run beside the default one.
  const cfgApi = num(api, 'port', 54321);
  const base = opts.portBase ?? cfgApi;
  const shift = (p: number) => base + (p - cfgApi);
  const ports: StackPorts = {
    api: base,
    db: shift(num(db, 'port', cfgApi + 1)),
    mailWeb: shift(num(smtp, 'port', cfgApi + 3)),
    smtp: shift(num(smtp, 'smtp_port', cfgApi + 4)),
    rest: base + INTERNAL_PORT_OFFSETS.rest,
    auth: base + INTERNAL_PORT_OFFSETS.auth,
    functions: base + INTERNAL_PORT_OFFSETS.functions,
    storage: base + INTERNAL_PORT_OFFSETS.storage,
  };

  const jwtSecret = str(auth, 'jwt_secret', DEFAULT_JWT_SECRET);
  const keys = {
    jwtSecret,
    anonKey: str(auth, 'anon_key', demoApiKey('anon', jwtSecret)),
    serviceRoleKey: str(auth, 'service_role_key', demoApiKey('service_role', jwtSecret)),
    publishableKey: str(auth, 'publishable_key', DEFAULT_PUBLISHABLE_KEY),
    secretKey: str(auth, 'secret_key', DEFAULT_SECRET_KEY),
  };

  const functions: Record<string, FunctionSettings> = {};
  for (const [name, value] of Object.entries(table(raw, 'functions'))) {
    const f = value && typeof value === 'object' ? (value as Table) : {};
    functions[name] = { enabled: bool(f, 'enabled', true), verifyJwt: bool(f, 'verify_jwt', true) };
  }
  const functionSecrets: Record<string, string> = {};
  for (const [k, v] of Object.entries(table(table(raw, 'edge_runtime'), 'secrets'))) {
    if (typeof v === 'string') functionSecrets[k] = v;
  }

  const externalUrl = str(auth, 'external_url', '');
  return {
    repoRoot,
    supabaseDir,
    projectId: str(raw, 'project_id', path.basename(repoRoot)),
    ports,
    api: {
      schemas: strList(api, 'schemas', ['public', 'graphql_public']),
      extraSearchPath: strList(api, 'extra_search_path', ['public', 'extensions']),
      maxRows: num(api, 'max_rows', 1000),
      autoExposeNewTables: bool(api, 'auto_expose_new_tables', true),
    },
    db: {
      majorVersion: num(db, 'major_version', 17),
      migrationsEnabled: bool(table(db, 'migrations'), 'enabled', true),
      seedEnabled: bool(table(db, 'seed'), 'enabled', true),
    },
    keys,
    auth: {
      siteUrl: str(auth, 'site_url', 'http://127.0.0.1:3000'),
      additionalRedirectUrls: strList(auth, 'additional_redirect_urls', []),
      externalUrl: externalUrl || null,
      jwtExpiry: num(auth, 'jwt_expiry', 3600),
      enableSignup: bool(auth, 'enable_signup', true) && bool(email, 'enable_signup', true),
      emailEnabled: bool(email, 'enabled', true),
      enableConfirmations: bool(email, 'enable_confirmations', false),
      minimumPasswordLength: num(auth, 'minimum_password_length', 6),
      passwordRequirements: str(auth, 'password_requirements', ''),
      maxFrequencySeconds: parseDurationSeconds(email.max_frequency, 1),
      refreshTokenRotation: bool(auth, 'enable_refresh_token_rotation', true),
      refreshTokenReuseInterval: num(auth, 'refresh_token_reuse_interval', 10),
      otpExpiry: num(email, 'otp_expiry', 3600),
      doubleConfirmChanges: bool(email, 'double_confirm_changes', true),
      requireCurrentPassword: bool(email, 'require_current_password', false),
      mfa: {
        totpEnrollEnabled: bool(table(table(auth, 'mfa'), 'totp'), 'enroll_enabled', true),
        totpVerifyEnabled: bool(table(table(auth, 'mfa'), 'totp'), 'verify_enabled', true),
        maxEnrolledFactors: num(table(auth, 'mfa'), 'max_enrolled_factors', 10),
      },
      rateLimits: {
        signInSignUps: num(rate, 'sign_in_sign_ups', 30),
        tokenRefresh: num(rate, 'token_refresh', 150),
        tokenVerifications: num(rate, 'token_verifications', 30),
        // The CLI applies [auth.rate_limit] email_sent only with a custom [auth.email.smtp];
        // with the bundled mail catcher it lifts the budget to 360000 mails an hour.
        emailSent: bool(table(email, 'smtp'), 'enabled', false)
          ? num(rate, 'email_sent', 2)
          : 360000,
      },
    },
    smtp: {
      adminEmail: str(smtp, 'admin_email', 'admin@email.com'),
      senderName: str(smtp, 'sender_name', 'Admin'),
    },
    emailTemplates: loadMailTemplates(raw, repoRoot),
    storage: {
      fileSizeLimit: parseSizeBytes(table(raw, 'storage').file_size_limit, 50 * 1024 * 1024),
    },
    functions,
    functionSecrets,
  };
}

/** Port base from `--port-base`/STACK_PORT_BASE, validated. */
export function parsePortBase(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1024 || n + PORT_SPAN > 65535) {
    throw new Error(
      `invalid port base "${value}" (an integer between 1024 and ${65535 - PORT_SPAN})`,
    );
  }
  return n;
}
