// What every handler shares: the options, the database pool, the mailer, the limiters and the
// transaction helper. One instance per running server (startAuthServer).
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { type AuthApiError, unprocessable } from './errors.ts';
import { Mailer } from './mailer.ts';
import { EmailBudget, IpRateLimiter } from './rate-limit.ts';
import type { RedirectConfig } from './redirect.ts';
import type { AuthServerOptions } from './server.ts';
import { pgTypes } from './users.ts';
import { makePasswordPolicy, type PasswordPolicy } from './validation.ts';

export const AUDIENCE = 'authenticated';
export const DEFAULT_ROLE = 'authenticated';
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
export const EMAIL_APP_METADATA = { provider: 'email', providers: ['email'] };
const RATE_WINDOW_MS = 5 * 60 * 1000;
/** bcrypt cost of new password hashes (GoTrue's default). */
const DEFAULT_PASSWORD_HASH_COST = 10;

/** Anything that runs queries: the pool or a client inside a transaction. */
export type Db = Pick<pg.Pool, 'query'>;

/** The per-IP limiters of `[auth.rate_limit]`, named after their config keys. */
export type LimiterName = 'signInSignUps' | 'tokenRefresh' | 'tokenVerifications';

export class AuthService {
  readonly pool: pg.Pool;
  readonly mailer: Mailer;
  readonly policy: PasswordPolicy;
  readonly redirectCfg: RedirectConfig;
  /** `${apiExternalUrl}/auth/v1`: the tokens' issuer and the base of mailed links. */
  readonly authExternalUrl: string;
  readonly limiters: Record<LimiterName, IpRateLimiter>;
  readonly emailBudget: EmailBudget;
  readonly log: (line: string) => void;
  private readonly hashCost: number;
  /** Compared against when the address has no account: same cost as the stored hashes. */
  readonly dummyPasswordHash: string;

  constructor(readonly opts: AuthServerOptions) {
    this.hashCost = opts.passwordHashCost ?? DEFAULT_PASSWORD_HASH_COST;
    this.dummyPasswordHash = bcrypt.hashSync(randomBytes(16).toString('hex'), this.hashCost);
    this.pool = new pg.Pool({
      connectionString: opts.dbUrl,
      max: 10,
      types: pgTypes,
      // Timestamps are rendered from their UTC text form (users.ts).
      options: '-c timezone=UTC',
      application_name: 'local-auth',
    });
    this.pool.on('error', (err) => this.log(`db pool error: ${err.message}`));
    this.mailer = new Mailer(opts.smtp);
    this.policy = makePasswordPolicy(opts.minimumPasswordLength, opts.passwordRequirements);
    this.redirectCfg = { siteUrl: opts.siteUrl, allowList: opts.additionalRedirectUrls };
    this.authExternalUrl = `${opts.apiExternalUrl.replace(/\/+$/, '')}/auth/v1`;
    this.limiters = {
      signInSignUps: new IpRateLimiter(opts.rateLimits.signInSignUps, RATE_WINDOW_MS),
      tokenRefresh: new IpRateLimiter(opts.rateLimits.tokenRefresh, RATE_WINDOW_MS),
      tokenVerifications: new IpRateLimiter(opts.rateLimits.tokenVerifications, RATE_WINDOW_MS),
    };
    this.emailBudget = new EmailBudget(opts.rateLimits.emailSent);
    this.log = opts.log ?? ((line) => process.stdout.write(`${line}\n`));
  }

  async close(): Promise<void> {
    this.mailer.close();
    await this.pool.end();
  }

  hashPassword(password: string): Promise<string> {
    return bcrypt.hash(password, this.hashCost);
  }

  /** A password nobody knows: such an account signs in through links/codes until one is set. */
  randomPasswordHash(): Promise<string> {
    return this.hashPassword(randomBytes(48).toString('base64url'));
  }

  async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('begin');
      const out = await fn(c);
      await c.query('commit');
      return out;
    } catch (e) {
      if (e instanceof CommitThenThrow) {
        await c.query('commit');
        throw e.error;
      }
      await c.query('rollback').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }
}

/** Lets a transaction commit its writes (token family revocation) and still answer with an error. */
export class CommitThenThrow extends Error {
  constructor(readonly error: AuthApiError) {
    super(error.message);
  }
}

export function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';
}

export const emailExists = () =>
  unprocessable('email_exists', 'A user with this email address has already been registered');
