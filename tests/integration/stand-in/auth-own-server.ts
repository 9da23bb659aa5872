// Shared by the auth tests that start an auth service of their own (auth-otp-guessing and the
// like): a second auth service on the stack's database with options
// of the test's choosing (e.g. wide per-IP limits, so one limit can be tested without the other),
// and raw requests to it shaped the way the gateway forwards them.
import pg from 'pg';
import { startAuthServer, type AuthServerOptions } from '../../../stack/auth/server.ts';
import { waitForMail } from '../../support/mail.ts';
import { stackEnv } from '../../support/stack.ts';

export const PASSWORD = 'Sup3r-secret-pw';

export interface OwnAuthServer {
  url: string;
  close(): Promise<void>;
}

export function authAdminUrl(): string {
  const dbUrl = new URL(stackEnv().DB_URL);
  dbUrl.username = 'supabase_auth_admin';
  return dbUrl.toString();
}

export function ownServerOptions(overrides: Partial<AuthServerOptions> = {}): AuthServerOptions {
  const env = stackEnv();
  return {
    host: '127.0.0.1',
    port: 0,
    dbUrl: authAdminUrl(),
    jwtSecret: env.JWT_SECRET,
    jwtExpiry: 3600,
    apiExternalUrl: env.API_URL,
    siteUrl: 'http://127.0.0.1:3000',
    additionalRedirectUrls: [],
    enableSignup: true,
    enableConfirmations: true,
    minimumPasswordLength: 6,
    passwordRequirements: '',
    maxFrequencySeconds: 1,
    refreshTokenRotation: true,
    refreshTokenReuseInterval: 10,
    rateLimits: {
      signInSignUps: 100_000,
      tokenRefresh: 100_000,
      tokenVerifications: 100_000,
      emailSent: 100_000,
    },
    otpExpiry: 3600,
    smtp: { host: '127.0.0.1', port: env.SMTP_PORT, adminEmail: 'a@b.test', senderName: 'Test' },
    log: () => undefined,
    ...overrides,
  };
}

export async function startOwnServer(
  overrides: Partial<AuthServerOptions> = {},
): Promise<OwnAuthServer> {
  return startAuthServer(ownServerOptions(overrides));
}

/** What the gateway makes of a client that sent `X-Forwarded-For: <claimed>`: it appends the peer. */
export const viaGateway = (claimed: string, peer = '127.0.0.1') => `${claimed}, ${peer}`;

let rotation = 0;
/** A different made-up client address for every call. */
export const rotatingIp = () => {
  rotation++;
  return `198.18.${(rotation >> 8) & 255}.${rotation & 255}`;
};

export async function post(
  server: OwnAuthServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Supabase-Api-Version': '2024-01-01',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The 6-digit code of the newest mail to `to` with `subject`. */
export async function mailedCode(to: string, subject: string): Promise<string> {
  const mail = await waitForMail(stackEnv().MAILPIT_URL, { to, subject });
  const m = /enter the code: (\d{6})/.exec(mail.text ?? '');
  if (!m) throw new Error(`no code in the mail to ${to}`);
  return m[1]!;
}

/** Runs SQL as the auth service's own role (it owns the auth tables). */
export async function authSql<T extends pg.QueryResultRow>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: authAdminUrl() });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}
