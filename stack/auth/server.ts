// GoTrue-compatible auth service for the Docker-free local Supabase stack.
// Implements the subset of the Supabase Auth API that supabase-js uses for e-mail + password
// accounts, TOTP two-factor sign-in and the service-role admin API (wire format and file map in README.md), storing its
// state in the `auth` schema (schema.sql) so user migrations, triggers and RLS behave as on
// Supabase. This file starts the HTTP server; routes.ts dispatches to one module per endpoint group.
import http from 'node:http';
import type { MailTemplates } from './mail-templates.ts';
import { handleRequest } from './routes.ts';
import { AuthService } from './service.ts';

export { parseGoDuration } from './admin.ts';
export { WRONG_CODE_LIMIT } from './one-time-codes.ts';

export interface AuthServerOptions {
  host: string;
  port: number;
  /** Connects as supabase_auth_admin. */
  dbUrl: string;
  jwtSecret: string;
  /** Access-token lifetime in seconds. */
  jwtExpiry: number;
  /** e.g. http://127.0.0.1:54321 ; issuer = `${apiExternalUrl}/auth/v1` */
  apiExternalUrl: string;
  siteUrl: string;
  additionalRedirectUrls: string[];
  enableSignup: boolean;
  enableConfirmations: boolean;
  minimumPasswordLength: number;
  passwordRequirements: string;
  /** [auth.email] max_frequency in seconds. */
  maxFrequencySeconds: number;
  refreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  /** Per 5 minutes per IP; emailSent per hour for the whole server. */
  rateLimits: {
    signInSignUps: number;
    tokenRefresh: number;
    tokenVerifications: number;
    emailSent: number;
  };
  otpExpiry: number;
  /** [auth.email] double_confirm_changes (default true): e-mail change needs both links. */
  doubleConfirmChanges?: boolean;
  /** [auth.email] require_current_password (default false, as GoTrue): PUT /user with a new
   * password needs `current_password`, except in a session from an e-mailed link or code. */
  requireCurrentPassword?: boolean;
  /** [auth.mfa]: TOTP enrol/verify switches (default on, as hosted) and max_enrolled_factors. */
  mfa?: { totpEnrollEnabled: boolean; totpVerifyEnabled: boolean; maxEnrolledFactors: number };
  smtp: { host: string; port: number; adminEmail: string; senderName: string };
  /** [auth.email.template.*] of config.toml; a kind without one gets the CLI's default mail. */
  emailTemplates?: MailTemplates;
  /** Request/diagnostic log sink; defaults to stdout. */
  log?: (line: string) => void;
  /** bcrypt cost of new password hashes; default 10 (tests use less to stay fast). */
  passwordHashCost?: number;
}

export interface AuthServerHandle {
  url: string;
  close(): Promise<void>;
}

export async function startAuthServer(opts: AuthServerOptions): Promise<AuthServerHandle> {
  const service = new AuthService(opts);
  // Fail fast when the database or the auth schema is not there.
  await service.pool.query('select 1 from auth.users limit 1');
  const server = http.createServer((req, res) => {
    void handleRequest(service, req, res);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await service.close();
      })();
      return closing;
    },
  };
}
