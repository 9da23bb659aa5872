// GoTrue-compatible auth service for the Docker-free local Supabase stack.
// Implements the subset of the Supabase Auth API that supabase-js uses for e-mail + password
// accounts and the service-role admin API (wire format described in README.md), storing its state
// in the `auth` schema (schema.sql) so user migrations, triggers and RLS behave as on Supabase.
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import { isIP } from 'node:net';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import {
  AuthApiError,
  badRequest,
  forbidden,
  formatError,
  internalError,
  notFound,
  resolveApiVersion,
  tooManyRequests,
  unprocessable,
} from './errors.ts';
import { JwtError, signJwt, verifyJwt, type JwtClaims } from './jwt.ts';
import { Mailer, confirmationUrl, renderMail, type MailKind } from './mailer.ts';
import { EmailBudget, IpRateLimiter, clientIp } from './rate-limit.ts';
import { chooseRedirect, type RedirectConfig } from './redirect.ts';
import {
  type IdentityRow,
  type Json,
  type UserRow,
  mergeMetadata,
  pgTypes,
  userJson,
} from './users.ts';
import {
  assertPasswordAcceptable,
  checkPasswordLength,
  checkPasswordStrength,
  isUuid,
  isValidEmail,
  makePasswordPolicy,
  normalizeEmail,
  type PasswordPolicy,
} from './validation.ts';

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
  smtp: { host: string; port: number; adminEmail: string; senderName: string };
  /** Request/diagnostic log sink; defaults to stdout. */
  log?: (line: string) => void;
  /** bcrypt cost of new password hashes; default 10 (tests use less to stay fast). */
  passwordHashCost?: number;
}

export interface AuthServerHandle {
  url: string;
  close(): Promise<void>;
}

const AUDIENCE = 'authenticated';
const DEFAULT_ROLE = 'authenticated';
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const RATE_WINDOW_MS = 5 * 60 * 1000;
/** Wrong codes an account's pending one-time codes survive; the next wrong one voids them. */
export const WRONG_CODE_LIMIT = 5;
const ONE_TIME_TOKEN_COLUMNS = [
  'confirmation_token',
  'recovery_token',
  'email_change_token_new',
  'email_change_token_current',
] as const;
const MAX_BODY_BYTES = 1024 * 1024;
const EMAIL_APP_METADATA = { provider: 'email', providers: ['email'] };
/** bcrypt cost of new password hashes (GoTrue's default). */
const DEFAULT_PASSWORD_HASH_COST = 10;

const CORS_ALLOW_HEADERS =
  'Accept, Authorization, Content-Type, X-Client-IP, X-Client-Info, X-JWT-AUD, x-use-cookie, X-Supabase-Api-Version, apikey';
const CORS_EXPOSE_HEADERS = 'X-Total-Count, Link, X-Supabase-Api-Version, x-sb-error-code';

interface PkceParams {
  challenge: string;
  method: 's256' | 'plain';
}

/** Anything that runs queries: the pool or a client inside a transaction. */
type Db = Pick<pg.Pool, 'query'>;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Ctx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  path: string;
  params: string[];
  ip: string;
  body: Json;
  /** Work done once the answer is written (mail whose timing must not show in the answer). */
  afterReply: Array<() => Promise<void>>;
}

/**
 * How a prepared one-time code is mailed: not at all (admin generate_link), now (a failure
 * fails the request) or after the answer (the answer takes as long whether or not the
 * address has an account).
 */
type MailDelivery = 'none' | 'now' | Ctx['afterReply'];

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Verified {
  userId: string;
  pkce: boolean;
  authenticationMethod: string;
  /** First of two e-mail change confirmations: nothing changed yet, no session. */
  pending?: boolean;
}

const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';
const SINGLE_CONFIRMATION_BODY = { msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' };

interface AuthedUser {
  claims: JwtClaims;
  user: UserRow;
  sessionId: string | null;
}

const sha224Hex = (s: string) => createHash('sha224').update(s, 'utf8').digest('hex');

/** 6-digit zero-padded OTP (GoTrue's default otp_length). */
const generateOtp = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Classic GoTrue refresh token: 12 characters of lower-case base32. */
function generateRefreshToken(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += alphabet[b & 31];
  return out;
}

function str(body: Json, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v : '';
}

function obj(body: Json, key: string): Json | null {
  const v = body[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
}

const GO_DURATION_UNITS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/** Go duration string ("24h", "1h30m", "90s") in seconds; null when malformed. */
export function parseGoDuration(value: string): number | null {
  const s = value.trim();
  if (s === '' || s === '0') return s === '0' ? 0 : null;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  let total = 0;
  let consumed = '';
  for (const m of s.matchAll(re)) {
    total += Number(m[1]) * GO_DURATION_UNITS[m[2]!]!;
    consumed += m[0];
  }
  return consumed === s ? total : null;
}

/** Fragment/query encoding like Go's url.Values.Encode: keys sorted, form-encoded. */
function formEncode(values: Record<string, string>): string {
  return Object.keys(values)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(values[k]!).replace(/%20/g, '+')}`)
    .join('&');
}

const ERROR_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

export class AuthService {
  readonly pool: pg.Pool;
  private readonly mailer: Mailer;
  private readonly policy: PasswordPolicy;
  private readonly redirectCfg: RedirectConfig;
  private readonly issuer: string;
  private readonly authExternalUrl: string;
  private readonly limiters: { otp: IpRateLimiter; token: IpRateLimiter; verify: IpRateLimiter };
  private readonly emailBudget: EmailBudget;
  private readonly log: (line: string) => void;
  private readonly hashCost: number;
  /** Compared against when the address has no account: same cost as the stored hashes. */
  private readonly dummyPasswordHash: string;

  constructor(private readonly opts: AuthServerOptions) {
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
    const base = opts.apiExternalUrl.replace(/\/+$/, '');
    this.authExternalUrl = `${base}/auth/v1`;
    this.issuer = this.authExternalUrl;
    this.limiters = {
      otp: new IpRateLimiter(opts.rateLimits.signInSignUps, RATE_WINDOW_MS),
      token: new IpRateLimiter(opts.rateLimits.tokenRefresh, RATE_WINDOW_MS),
      verify: new IpRateLimiter(opts.rateLimits.tokenVerifications, RATE_WINDOW_MS),
    };
    this.emailBudget = new EmailBudget(opts.rateLimits.emailSent);
    this.log = opts.log ?? ((line) => process.stdout.write(`${line}\n`));
  }

  async close(): Promise<void> {
    this.mailer.close();
    await this.pool.end();
  }

  // ---------------------------------------------------------------------------------------
  // HTTP plumbing

  private readonly routes: Array<[Method, RegExp, (ctx: Ctx) => Promise<Reply>]> = [
    ['GET', /^\/health$/, async () => this.health()],
    ['GET', /^\/settings$/, async () => this.settings()],
    [
      'GET',
      /^\/\.well-known\/jwks\.json$/,
      async () => ({
        status: 200,
        body: { keys: [] },
        headers: { 'Cache-Control': 'public, max-age=600' },
      }),
    ],
    ['POST', /^\/signup$/, (c) => this.signup(c)],
    ['POST', /^\/token$/, (c) => this.token(c)],
    ['GET', /^\/verify$/, (c) => this.verifyGet(c)],
    ['POST', /^\/verify$/, (c) => this.verifyPost(c)],
    ['GET', /^\/user$/, (c) => this.getUser(c)],
    ['PUT', /^\/user$/, (c) => this.updateUser(c)],
    ['POST', /^\/logout$/, (c) => this.logout(c)],
    ['POST', /^\/resend$/, (c) => this.resend(c)],
    ['POST', /^\/recover$/, (c) => this.recover(c)],
    ['POST', /^\/otp$/, (c) => this.otp(c)],
    ['POST', /^\/invite$/, (c) => this.invite(c)],
    ['GET', /^\/admin\/users$/, (c) => this.adminListUsers(c)],
    ['POST', /^\/admin\/users$/, (c) => this.adminCreateUser(c)],
    ['GET', /^\/admin\/users\/([^/]+)$/, (c) => this.adminGetUser(c)],
    ['PUT', /^\/admin\/users\/([^/]+)$/, (c) => this.adminUpdateUser(c)],
    ['DELETE', /^\/admin\/users\/([^/]+)$/, (c) => this.adminDeleteUser(c)],
    ['POST', /^\/admin\/generate_link$/, (c) => this.adminGenerateLink(c)],
  ];

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The gateway strips /auth/v1; tolerate it for direct callers (tests, scripts).
    let path = url.pathname.replace(/^\/auth\/v1(?=\/|$)/, '') || '/';
    if (path.length > 1) path = path.replace(/\/+$/, '');
    const apiVersion = resolveApiVersion(headerValue(req, 'x-supabase-api-version'));
    this.applyCors(req, res);
    let status = 500;
    try {
      if (req.method === 'OPTIONS') {
        status = 204;
        res.writeHead(204).end();
        return;
      }
      const method = (req.method ?? 'GET').toUpperCase();
      let matched: { handler: (ctx: Ctx) => Promise<Reply>; params: string[] } | null = null;
      let pathKnown = false;
      for (const [m, re, handler] of this.routes) {
        const hit = re.exec(path);
        if (!hit) continue;
        pathKnown = true;
        if (m === method) {
          matched = { handler, params: hit.slice(1).map(safeDecode) };
          break;
        }
      }
      if (!matched) {
        throw pathKnown
          ? new AuthApiError(405, 'method_not_allowed', 'Method not allowed')
          : notFound('not_found', 'Not Found');
      }
      const body = method === 'GET' ? {} : await readJsonBody(req);
      const ctx: Ctx = {
        req,
        res,
        url,
        path,
        params: matched.params,
        ip: clientIp(req.headers['x-forwarded-for'], req.socket.remoteAddress),
        body,
        afterReply: [],
      };
      const reply = await matched.handler(ctx);
      status = reply.status;
      const headers: Record<string, string> = { ...reply.headers };
      if (reply.body === undefined) {
        res.writeHead(reply.status, headers).end();
      } else {
        headers['Content-Type'] = 'application/json';
        res.writeHead(reply.status, headers).end(JSON.stringify(reply.body));
      }
      for (const task of ctx.afterReply) await task();
    } catch (e) {
      const err = e instanceof AuthApiError ? e : null;
      if (!err)
        this.log(
          `error ${req.method} ${path}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
        );
      const apiErr = err ?? internalError('Internal Server Error');
      const formatted = formatError(apiErr, apiVersion, randomUUID());
      status = formatted.status;
      if (!res.headersSent) {
        res
          .writeHead(formatted.status, { ...formatted.headers, 'Content-Type': 'application/json' })
          .end(JSON.stringify(formatted.body));
      } else {
        res.end();
      }
    } finally {
      this.log(
        `${new Date().toISOString()} ${req.method} ${path} ${status} ${Date.now() - started}ms`,
      );
    }
  }

  private applyCors(req: http.IncomingMessage, res: http.ServerResponse): void {
    const origin = headerValue(req, 'origin');
    if (!origin) return;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Vary', 'Origin');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
      res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
      res.setHeader('Access-Control-Max-Age', '86400');
    } else {
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
    }
  }

  private rateLimit(limiter: IpRateLimiter, ip: string): void {
    if (!limiter.take(ip))
      throw tooManyRequests('over_request_rate_limit', 'Request rate limit reached');
  }

  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
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

  // ---------------------------------------------------------------------------------------
  // Data access

  private async loadUser(c: Db, id: string, lock = false): Promise<UserRow | null> {
    const r = await c.query<UserRow>(
      `select * from auth.users where id = $1${lock ? ' for update' : ''}`,
      [id],
    );
    return r.rows[0] ?? null;
  }

  private async findUserByEmail(c: Db, email: string, lock = false): Promise<UserRow | null> {
    const r = await c.query<UserRow>(
      `select * from auth.users where lower(email) = $1 and aud = $2 and is_sso_user = false
       order by created_at limit 1${lock ? ' for update' : ''}`,
      [email, AUDIENCE],
    );
    return r.rows[0] ?? null;
  }

  private async loadIdentities(c: Db, userId: string): Promise<IdentityRow[]> {
    const r = await c.query<IdentityRow>(
      'select * from auth.identities where user_id = $1 order by created_at, id',
      [userId],
    );
    return r.rows;
  }

  private async userResponse(c: Db, id: string): Promise<Json> {
    const user = await this.loadUser(c, id);
    if (!user) throw notFound('user_not_found', 'User not found');
    return userJson(user, await this.loadIdentities(c, id));
  }

  /** Inserts a user row plus its `email` identity. Triggers on auth.users run here. */
  private async insertUser(
    c: Db,
    args: {
      id?: string;
      email: string | null;
      phone?: string | null;
      passwordHash: string;
      role?: string;
      appMetadata: Json;
      userMetadata: Json;
      emailConfirmed: boolean;
      phoneConfirmed?: boolean;
      invited?: boolean;
      bannedUntilSeconds?: number | null;
    },
  ): Promise<string> {
    const id = args.id ?? randomUUID();
    try {
      await c.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
           invited_at, confirmation_token, recovery_token, email_change_token_new, email_change,
           email_change_token_current, email_change_confirm_status, raw_app_meta_data, raw_user_meta_data,
           is_super_admin, created_at, updated_at, phone, phone_confirmed_at, phone_change, phone_change_token,
           reauthentication_token, banned_until, is_sso_user, is_anonymous)
         values ($1, $2, $3, $4, $5, $6, case when $7 then now() end, case when $8 then now() end, '', '', '', '',
           '', 0, $9, $10, false, now(), now(), $11, case when $12 then now() end, '', '', '',
           case when $13::float8 is not null then now() + make_interval(secs => $13::float8) end, false, false)`,
        [
          NIL_UUID,
          id,
          AUDIENCE,
          args.role ?? DEFAULT_ROLE,
          args.email,
          args.passwordHash,
          args.emailConfirmed,
          args.invited ?? false,
          JSON.stringify(args.appMetadata),
          JSON.stringify(args.userMetadata),
          args.phone || null,
          args.phoneConfirmed ?? false,
          args.bannedUntilSeconds ?? null,
        ],
      );
      if (args.email) {
        const identityData = {
          sub: id,
          email: args.email,
          email_verified: args.emailConfirmed,
          phone_verified: false,
        };
        await c.query(
          `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
           values ($1, $2, $3, 'email', now(), now(), now())`,
          [id, id, JSON.stringify(identityData)],
        );
      }
    } catch (e) {
      if (isUniqueViolation(e)) {
        throw unprocessable(
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
      // Usually a failing trigger from a user migration; GoTrue reports it like this.
      this.log(`insert user failed: ${e instanceof Error ? e.message : String(e)}`);
      throw internalError('Database error saving new user');
    }
    return id;
  }

  private async hashPassword(password: string): Promise<string> {
    return bcrypt.hash(password, this.hashCost);
  }

  /** GoTrue-style row in auth.audit_log_entries (who did what, from which IP). */
  private async audit(
    c: Db,
    ctx: Ctx,
    actor: { id: string; email: string | null },
    action: string,
    logType: 'account' | 'token' | 'user' | 'team',
    traits?: Json,
  ): Promise<void> {
    const payload: Json = {
      actor_id: actor.id,
      actor_username: actor.email ?? '',
      actor_via_sso: false,
      log_type: logType,
      action,
    };
    if (traits) payload.traits = traits;
    await c.query(
      `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
       values ($1, $2, $3, now(), $4)`,
      [NIL_UUID, randomUUID(), JSON.stringify(payload), ctx.ip.slice(0, 64)],
    );
  }

  // ---------------------------------------------------------------------------------------
  // Sessions and tokens

  private async issueSession(
    c: Db,
    userId: string,
    method: 'password' | 'otp',
    ctx: Ctx,
  ): Promise<Json> {
    const sessionId = randomUUID();
    const ip = isIP(ctx.ip) ? ctx.ip : null;
    await c.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
       values ($1, $2, now(), now(), 'aal1', $3, $4)`,
      [sessionId, userId, headerValue(ctx.req, 'user-agent') ?? null, ip],
    );
    await c.query(
      `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
       values ($1, now(), now(), $2, $3)`,
      [sessionId, method, randomUUID()],
    );
    const refreshToken = await this.insertRefreshToken(c, userId, sessionId, null);
    await c.query(
      'update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1',
      [userId],
    );
    await c.query(
      `update auth.identities set last_sign_in_at = now(), updated_at = now() where user_id = $1 and provider = 'email'`,
      [userId],
    );
    const session = await this.sessionResponse(c, userId, sessionId, refreshToken);
    const user = session.user as Json;
    await this.audit(c, ctx, { id: userId, email: String(user.email ?? '') }, 'login', 'account', {
      provider: 'email',
    });
    return session;
  }

  private async insertRefreshToken(
    c: Db,
    userId: string,
    sessionId: string,
    parent: string | null,
  ): Promise<string> {
    const token = generateRefreshToken();
    await c.query(
      `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       values ($1, $2, $3, false, now(), now(), $4, $5)`,
      [NIL_UUID, token, userId, parent, sessionId],
    );
    return token;
  }

  private async sessionResponse(
    c: Db,
    userId: string,
    sessionId: string,
    refreshToken: string,
  ): Promise<Json> {
    const user = await this.loadUser(c, userId);
    if (!user) throw internalError('Database error finding user');
    const identities = await this.loadIdentities(c, userId);
    const amr = await c.query<{ authentication_method: string; ts: number }>(
      `select authentication_method, extract(epoch from updated_at)::bigint as ts
       from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
      [sessionId],
    );
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + this.opts.jwtExpiry;
    const claims: JwtClaims = {
      iss: this.issuer,
      sub: user.id,
      aud: user.aud ?? AUDIENCE,
      exp,
      iat,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role ?? DEFAULT_ROLE,
      aal: 'aal1',
      amr: amr.rows.map((r) => ({ method: r.authentication_method, timestamp: Number(r.ts) })),
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    };
    return {
      access_token: signJwt(claims, this.opts.jwtSecret),
      token_type: 'bearer',
      expires_in: exp - Math.floor(Date.now() / 1000),
      expires_at: exp,
      refresh_token: refreshToken,
      user: userJson(user, identities),
    };
  }

  /** Verifies the bearer token; 401 without one, 403 bad_jwt when it does not verify. */
  private parseBearer(ctx: Ctx): JwtClaims {
    const auth = headerValue(ctx.req, 'authorization') ?? '';
    const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m)
      throw new AuthApiError(
        401,
        'no_authorization',
        'This endpoint requires a valid Bearer token',
      );
    try {
      return verifyJwt(m[1]!, this.opts.jwtSecret);
    } catch (e) {
      const detail = e instanceof JwtError ? e.detail : 'token is malformed';
      throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`);
    }
  }

  /** GoTrue's requireAuthentication + loadUser + session check. */
  private async requireUser(ctx: Ctx, c: Db = this.pool): Promise<AuthedUser> {
    const claims = this.parseBearer(ctx);
    const aud = headerValue(ctx.req, 'x-jwt-aud') || AUDIENCE;
    const tokenAud = claims.aud;
    if (tokenAud !== undefined) {
      const auds = Array.isArray(tokenAud) ? tokenAud : [tokenAud];
      if (!auds.includes(aud))
        throw badRequest('validation_failed', "Token audience doesn't match request audience");
    }
    const sub = claims.sub;
    if (typeof sub !== 'string' || sub === '')
      throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
    if (!isUuid(sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
    const user = await this.loadUser(c, sub);
    if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
    let sessionId: string | null = null;
    if (
      typeof claims.session_id === 'string' &&
      claims.session_id !== '' &&
      claims.session_id !== NIL_UUID
    ) {
      if (!isUuid(claims.session_id))
        throw badRequest('bad_jwt', 'invalid claim: session_id claim must be a UUID');
      const s = await c.query('select 1 from auth.sessions where id = $1 and user_id = $2', [
        claims.session_id,
        sub,
      ]);
      if (s.rowCount === 0)
        throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
      sessionId = claims.session_id;
    }
    return { claims, user, sessionId };
  }

  private requireAdmin(ctx: Ctx): JwtClaims {
    const claims = this.parseBearer(ctx);
    if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role))
      throw forbidden('not_admin', 'User not allowed');
    return claims;
  }

  // ---------------------------------------------------------------------------------------
  // Mail

  /** Per-user max_frequency check against the last *_sent_at of this mail kind. */
  private checkMaxFrequency(lastSentAt: string | null): void {
    if (!lastSentAt) return;
    const elapsedMs = Date.now() - Date.parse(lastSentAt);
    const waitMs = this.opts.maxFrequencySeconds * 1000 - elapsedMs;
    if (waitMs > 0) {
      throw tooManyRequests(
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${Math.ceil(waitMs / 1000)} seconds.`,
      );
    }
  }

  /**
   * Sends one auth mail within the global hourly budget (reserved at once, so an exhausted
   * budget is still a 429). Sent now, a failure aborts the caller's transaction; sent after the
   * answer, a failure is only logged.
   */
  private async sendMail(
    delivery: MailDelivery,
    kind: MailKind,
    to: string,
    tokenHash: string,
    otp: string,
    redirectTo: string,
    errorMessage: string,
  ): Promise<void> {
    if (delivery === 'none') return;
    if (this.opts.enableConfirmations && !this.emailBudget.take()) {
      throw tooManyRequests('over_email_send_rate_limit', 'email rate limit exceeded');
    }
    const link = confirmationUrl(this.authExternalUrl, tokenHash, kind, redirectTo);
    const send = async () => {
      try {
        await this.mailer.send(to, renderMail(kind, link, otp));
      } catch (e) {
        if (this.opts.enableConfirmations) this.emailBudget.release();
        this.log(`mail to ${to} failed: ${e instanceof Error ? e.message : String(e)}`);
        throw internalError(errorMessage);
      }
    };
    if (delivery === 'now') await send();
    else delivery.push(() => send().catch(() => undefined));
  }

  private async storeOneTimeToken(
    c: Db,
    userId: string,
    type:
      | 'confirmation_token'
      | 'recovery_token'
      | 'email_change_token_new'
      | 'email_change_token_current',
    tokenHash: string,
    relatesTo: string,
  ): Promise<void> {
    await c.query(
      `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
       values ($1, $2, $3, $4, $5, now(), now())
       on conflict (user_id, token_type) do update
         set id = excluded.id, token_hash = excluded.token_hash, relates_to = excluded.relates_to,
             created_at = now(), updated_at = now()`,
      [randomUUID(), userId, type, tokenHash, relatesTo],
    );
    // A new code gets the full number of tries again.
    await c.query('delete from auth.one_time_token_failures where user_id = $1', [userId]);
  }

  /**
   * Counts one wrong code against each account (one atomic upsert, so parallel tries all count)
   * and voids the pending codes of an account that has reached WRONG_CODE_LIMIT.
   */
  private async countWrongCode(c: Db, userIds: string[]): Promise<void> {
    const r = await c.query<{ user_id: string; failures: number }>(
      `insert into auth.one_time_token_failures (user_id, failures, updated_at)
       select id, 1, now() from unnest($1::uuid[]) as id
       on conflict (user_id) do update
         set failures = auth.one_time_token_failures.failures + 1, updated_at = now()
       returning user_id, failures`,
      [userIds],
    );
    const exhausted = r.rows
      .filter((row) => row.failures >= WRONG_CODE_LIMIT)
      .map((row) => row.user_id);
    if (exhausted.length === 0) return;
    await c.query(
      `update auth.users set ${ONE_TIME_TOKEN_COLUMNS.map((col) => `${col} = ''`).join(', ')},
         updated_at = now() where id = any($1::uuid[])`,
      [exhausted],
    );
    await c.query(
      `delete from auth.one_time_tokens where user_id = any($1::uuid[]) and token_type = any($2::auth.one_time_token_type[])`,
      [exhausted, ONE_TIME_TOKEN_COLUMNS],
    );
    this.log(
      `one-time codes voided after ${WRONG_CODE_LIMIT} wrong tries: ${exhausted.join(', ')}`,
    );
  }

  private async clearOneTimeToken(c: Db, userId: string, type: string): Promise<void> {
    await c.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [
      userId,
      type,
    ]);
  }

  /**
   * The value stored and linked for a verification: the bare token hash (implicit flow) or, for
   * PKCE, `pkce_<hash>` plus a flow_state row whose auth code the verify redirect hands out.
   */
  private async linkToken(
    c: Db,
    userId: string,
    tokenHash: string,
    pkce: PkceParams | null,
    authenticationMethod: string,
  ): Promise<string> {
    if (!pkce) return tokenHash;
    await c.query(
      `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
         created_at, updated_at, authentication_method)
       values ($1, $2, $3, $4, $5, 'email', now(), now(), $6)`,
      [randomUUID(), userId, randomUUID(), pkce.method, pkce.challenge, authenticationMethod],
    );
    return `pkce_${tokenHash}`;
  }

  /** code_challenge / code_challenge_method of a request; null for the implicit flow. */
  private pkceParams(body: Json): PkceParams | null {
    const challenge = str(body, 'code_challenge');
    const method = str(body, 'code_challenge_method').toLowerCase();
    if (challenge === '' && method === '') return null;
    if (challenge === '' || method === '') {
      throw badRequest(
        'validation_failed',
        'PKCE flow requires code_challenge_method and code_challenge',
      );
    }
    if (method !== 's256' && method !== 'plain') {
      throw badRequest('validation_failed', `code challenge method not supported: ${method}`);
    }
    if (challenge.length < 43 || challenge.length > 128) {
      throw badRequest(
        'validation_failed',
        'code challenge has to be between 43 and 128 characters',
      );
    }
    return { challenge, method };
  }

  /** New confirmation token (+ mail unless `send` is false); the previous link stops working. */
  private async prepareConfirmation(
    c: Db,
    user: UserRow,
    redirectTo: string,
    delivery: MailDelivery,
    kind: 'signup' | 'invite' = 'signup',
    pkce: PkceParams | null = null,
  ): Promise<{ otp: string; tokenHash: string }> {
    const email = user.email ?? '';
    if (delivery !== 'none') this.checkMaxFrequency(user.confirmation_sent_at);
    const otp = generateOtp();
    const tokenHash = await this.linkToken(
      c,
      user.id,
      sha224Hex(email + otp),
      pkce,
      kind === 'invite' ? 'invite' : 'email/signup',
    );
    await c.query(
      `update auth.users set confirmation_token = $2, confirmation_sent_at = clock_timestamp(), updated_at = now()
         ${kind === 'invite' ? ', invited_at = now()' : ''} where id = $1`,
      [user.id, tokenHash],
    );
    await this.storeOneTimeToken(c, user.id, 'confirmation_token', tokenHash, email);
    await this.sendMail(
      delivery,
      kind,
      email,
      tokenHash,
      otp,
      redirectTo,
      kind === 'invite' ? 'Error sending invite email' : 'Error sending confirmation email',
    );
    return { otp, tokenHash };
  }

  private async prepareRecovery(
    c: Db,
    user: UserRow,
    redirectTo: string,
    delivery: MailDelivery,
    kind: 'recovery' | 'magiclink' = 'recovery',
    pkce: PkceParams | null = null,
  ): Promise<{ otp: string; tokenHash: string }> {
    const email = user.email ?? '';
    if (delivery !== 'none') this.checkMaxFrequency(user.recovery_sent_at);
    const otp = generateOtp();
    const tokenHash = await this.linkToken(c, user.id, sha224Hex(email + otp), pkce, kind);
    await c.query(
      'update auth.users set recovery_token = $2, recovery_sent_at = clock_timestamp(), updated_at = now() where id = $1',
      [user.id, tokenHash],
    );
    await this.storeOneTimeToken(c, user.id, 'recovery_token', tokenHash, email);
    await this.sendMail(
      delivery,
      kind,
      email,
      tokenHash,
      otp,
      redirectTo,
      kind === 'magiclink' ? 'Error sending magic link email' : 'Error sending recovery email',
    );
    return { otp, tokenHash };
  }

  /**
   * Pending e-mail change: a link to the new address and, with double_confirm_changes, one with
   * its own code to the current address too (both must be followed).
   */
  private async prepareEmailChange(
    c: Db,
    user: UserRow,
    newEmail: string,
    redirectTo: string,
    delivery: MailDelivery,
    pkce: PkceParams | null = null,
  ): Promise<{ otp: string; tokenHash: string; currentOtp: string; currentHash: string }> {
    if (delivery !== 'none') this.checkMaxFrequency(user.email_change_sent_at);
    const otp = generateOtp();
    const tokenHash = await this.linkToken(
      c,
      user.id,
      sha224Hex(newEmail + otp),
      pkce,
      'email_change',
    );
    const double = this.opts.doubleConfirmChanges !== false && !!user.email;
    const currentOtp = double ? generateOtp() : '';
    const currentHash = double ? (pkce ? 'pkce_' : '') + sha224Hex(user.email + currentOtp) : '';
    await c.query(
      `update auth.users set email_change = $2, email_change_token_new = $3, email_change_token_current = $4,
         email_change_sent_at = clock_timestamp(), email_change_confirm_status = 0, updated_at = now() where id = $1`,
      [user.id, newEmail, tokenHash, currentHash],
    );
    await this.storeOneTimeToken(c, user.id, 'email_change_token_new', tokenHash, newEmail);
    if (double) {
      await this.storeOneTimeToken(
        c,
        user.id,
        'email_change_token_current',
        currentHash,
        user.email!,
      );
      await this.sendMail(
        delivery,
        'email_change',
        user.email!,
        currentHash,
        currentOtp,
        redirectTo,
        'Error sending email change email',
      );
    } else {
      await this.clearOneTimeToken(c, user.id, 'email_change_token_current');
    }
    await this.sendMail(
      delivery,
      'email_change',
      newEmail,
      tokenHash,
      otp,
      redirectTo,
      'Error sending email change email',
    );
    return { otp, tokenHash, currentOtp, currentHash };
  }

  private redirectFor(ctx: Ctx): string {
    return chooseRedirect(
      ctx.url.searchParams.get('redirect_to'),
      headerValue(ctx.req, 'referer'),
      this.redirectCfg,
    );
  }

  // ---------------------------------------------------------------------------------------
  // Public endpoints

  private health(): Reply {
    return {
      status: 200,
      body: {
        version: 'v2.180.0-local',
        name: 'GoTrue',
        description: 'GoTrue is a user registration and authentication API',
      },
    };
  }

  private settings(): Reply {
    const external: Json = {};
    for (const p of [
      'anonymous_users',
      'apple',
      'azure',
      'bitbucket',
      'discord',
      'facebook',
      'snapchat',
      'figma',
      'fly',
      'github',
      'gitlab',
      'google',
      'keycloak',
      'kakao',
      'linkedin',
      'linkedin_oidc',
      'notion',
      'spotify',
      'slack',
      'slack_oidc',
      'workos',
      'twitch',
      'twitter',
      'email',
      'phone',
      'zoom',
    ]) {
      external[p] = p === 'email';
    }
    return {
      status: 200,
      body: {
        external,
        disable_signup: !this.opts.enableSignup,
        mailer_autoconfirm: !this.opts.enableConfirmations,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
        saml_private_key_next_configured: false,
        passkeys_enabled: false,
      },
    };
  }

  private async signup(ctx: Ctx): Promise<Reply> {
    this.rateLimit(this.limiters.otp, ctx.ip);
    const body = ctx.body;
    const rawEmail = str(body, 'email');
    const phone = str(body, 'phone');
    if (rawEmail === '' && phone === '') {
      throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    }
    if (!this.opts.enableSignup)
      throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    const password = str(body, 'password');
    if (password === '') throw badRequest('validation_failed', 'Signup requires a valid password');
    assertPasswordAcceptable(password, this.policy);
    if (rawEmail === '') throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
    const email = normalizeEmail(rawEmail);
    const data = obj(body, 'data') ?? {};
    const redirectTo = this.redirectFor(ctx);
    const pkce = this.pkceParams(body);
    // Hashed up front: keeps the transaction short and the timing alike for known addresses.
    const passwordHash = await this.hashPassword(password);

    return this.tx(async (c) => {
      const existing = await this.findUserByEmail(c, email, true);
      if (existing && existing.email_confirmed_at) {
        if (!this.opts.enableConfirmations)
          throw unprocessable('user_already_exists', 'User already registered');
        // Confirmation required: answer with an obfuscated user so the response does not reveal
        // that the address is registered (apps detect it by `identities: []`).
        const now = new Date().toISOString().replace(/(\.\d{3})Z$/, '$1000Z');
        return {
          status: 200,
          body: {
            id: randomUUID(),
            aud: AUDIENCE,
            role: '',
            email,
            phone: '',
            confirmation_sent_at: now,
            app_metadata: EMAIL_APP_METADATA,
            user_metadata: data,
            identities: [],
            created_at: now,
            updated_at: now,
            is_anonymous: false,
          },
        };
      }
      if (existing) {
        if (!this.opts.enableConfirmations) {
          // Autoconfirm: the pending account is confirmed and signed in (no password check, as GoTrue).
          await this.confirmEmail(c, existing);
          return { status: 200, body: await this.issueSession(c, existing.id, 'password', ctx) };
        }
        // Mailed after the answer, like a known confirmed address that gets no mail at all.
        await this.prepareConfirmation(c, existing, redirectTo, ctx.afterReply, 'signup', pkce);
        return { status: 200, body: await this.userResponse(c, existing.id) };
      }
      const id = randomUUID();
      const userMetadata = {
        ...data,
        sub: id,
        email,
        email_verified: false,
        phone_verified: false,
      };
      if (!this.opts.enableConfirmations) userMetadata.email_verified = true;
      await this.insertUser(c, {
        id,
        email,
        passwordHash,
        appMetadata: EMAIL_APP_METADATA,
        userMetadata,
        emailConfirmed: !this.opts.enableConfirmations,
      });
      if (!this.opts.enableConfirmations) {
        return { status: 200, body: await this.issueSession(c, id, 'password', ctx) };
      }
      const user = (await this.loadUser(c, id))!;
      await this.prepareConfirmation(c, user, redirectTo, 'now', 'signup', pkce);
      await this.audit(c, ctx, user, 'user_confirmation_requested', 'user', { provider: 'email' });
      return { status: 200, body: await this.userResponse(c, id) };
    });
  }

  /** Marks the e-mail confirmed and records it in user_metadata and the identity. */
  private async confirmEmail(c: Db, user: UserRow): Promise<void> {
    await c.query(
      `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '',
         raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb,
         updated_at = now()
       where id = $1`,
      [user.id],
    );
    await c.query(
      `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
       where user_id = $1 and provider = 'email'`,
      [user.id],
    );
    await this.clearOneTimeToken(c, user.id, 'confirmation_token');
  }

  private async token(ctx: Ctx): Promise<Reply> {
    const grantType = ctx.url.searchParams.get('grant_type') ?? '';
    this.rateLimit(this.limiters.token, ctx.ip);
    if (grantType === 'password') return this.passwordGrant(ctx);
    if (grantType === 'refresh_token') return this.refreshGrant(ctx);
    if (grantType === 'pkce') return this.pkceGrant(ctx);
    throw badRequest('invalid_credentials', 'unsupported_grant_type');
  }

  private async passwordGrant(ctx: Ctx): Promise<Reply> {
    const rawEmail = str(ctx.body, 'email');
    const phone = str(ctx.body, 'phone');
    const password = str(ctx.body, 'password');
    if (rawEmail !== '' && phone !== '') {
      throw badRequest(
        'validation_failed',
        'Only an email address or phone number should be provided on login.',
      );
    }
    if (rawEmail === '' && phone === '')
      throw badRequest('validation_failed', 'missing email or phone');
    const invalid = () => badRequest('invalid_credentials', 'Invalid login credentials');
    if (rawEmail === '') throw invalid();
    const email = rawEmail.trim().toLowerCase();
    // No stored address holds NUL (Postgres text cannot), so it cannot match; it must not reach SQL.
    const user = email.includes('\u0000') ? null : await this.findUserByEmail(this.pool, email);
    if (!user || !user.encrypted_password) {
      // Same bcrypt work as for a known address, so the answer's timing reveals nothing.
      await bcrypt.compare(password, this.dummyPasswordHash).catch(() => false);
      throw invalid();
    }
    if (user.banned_until && Date.parse(user.banned_until) > Date.now())
      throw badRequest('user_banned', 'User is banned');
    const ok = await bcrypt.compare(password, user.encrypted_password).catch(() => false);
    if (!ok) throw invalid();
    if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
    const session = await this.tx((c) => this.issueSession(c, user.id, 'password', ctx));
    const weak = checkPasswordStrength(password, this.policy);
    if (weak) session.weak_password = { message: weak.message, reasons: weak.reasons };
    return { status: 200, body: session };
  }

  /** PKCE: exchanges the auth code from the verify redirect plus the verifier for a session. */
  private async pkceGrant(ctx: Ctx): Promise<Reply> {
    const authCode = str(ctx.body, 'auth_code');
    const verifier = str(ctx.body, 'code_verifier');
    if (authCode === '' || verifier === '') {
      throw badRequest(
        'validation_failed',
        'invalid request: both auth code and code verifier should be non-empty',
      );
    }
    return this.tx(async (c) => {
      const r = await c.query<{
        id: string;
        user_id: string | null;
        code_challenge_method: 's256' | 'plain';
        code_challenge: string;
        expired: boolean;
      }>(
        `select id, user_id, code_challenge_method, code_challenge,
           (auth_code_issued_at is null or auth_code_issued_at + interval '5 minutes' < now()) as expired
         from auth.flow_state where auth_code = $1 for update`,
        [authCode],
      );
      const flow = r.rows[0];
      if (!flow || !flow.user_id) {
        throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
      }
      if (flow.expired)
        throw badRequest('flow_state_expired', 'invalid flow state, flow state has expired');
      const computed =
        flow.code_challenge_method === 's256'
          ? createHash('sha256').update(verifier).digest('base64url')
          : verifier;
      if (computed !== flow.code_challenge) {
        throw badRequest(
          'bad_code_verifier',
          'code challenge does not match previously saved code verifier',
        );
      }
      await c.query('delete from auth.flow_state where id = $1', [flow.id]);
      return { status: 200, body: await this.issueSession(c, flow.user_id, 'otp', ctx) };
    });
  }

  private async refreshGrant(ctx: Ctx): Promise<Reply> {
    const presented = str(ctx.body, 'refresh_token');
    if (presented.length < 12) throw badRequest('validation_failed', 'Refresh token is not valid');
    return this.tx(async (c) => {
      const r = await c.query<{
        id: number;
        token: string;
        user_id: string;
        revoked: boolean;
        session_id: string | null;
        updated_at: string;
        parent: string | null;
      }>('select * from auth.refresh_tokens where token = $1 for update', [presented]);
      const token = r.rows[0];
      if (!token)
        throw badRequest(
          'refresh_token_not_found',
          'Invalid Refresh Token: Refresh Token Not Found',
        );
      if (!token.session_id)
        throw badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found');
      const session = await c.query<{ id: string; not_after: string | null }>(
        'select id, not_after from auth.sessions where id = $1 for update',
        [token.session_id],
      );
      if (session.rowCount === 0)
        throw badRequest(
          'refresh_token_not_found',
          'Invalid Refresh Token: Refresh Token Not Found',
        );
      const notAfter = session.rows[0]!.not_after;
      if (notAfter && Date.parse(notAfter) <= Date.now())
        throw badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
      const user = await this.loadUser(c, token.user_id);
      if (!user)
        throw badRequest(
          'refresh_token_not_found',
          'Invalid Refresh Token: Refresh Token Not Found',
        );
      if (user.banned_until && Date.parse(user.banned_until) > Date.now()) {
        throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
      }

      let issued: string | null = null;
      if (token.revoked) {
        const active = await c.query<{ token: string; parent: string | null }>(
          `select token, parent from auth.refresh_tokens where session_id = $1 and revoked = false
           order by id desc limit 1`,
          [token.session_id],
        );
        const current = active.rows[0];
        if (current && current.parent === token.token) {
          // The client lost the previous response and retries: hand back the active child.
          issued = current.token;
        } else {
          const reuseUntil =
            Date.parse(token.updated_at) + this.opts.refreshTokenReuseInterval * 1000;
          if (Date.now() > reuseUntil) {
            if (this.opts.refreshTokenRotation) {
              // Possible token theft: the whole family (session) is revoked. updated_at stays, so
              // the reuse window of the still-active token does not restart now.
              await c.query(
                'update auth.refresh_tokens set revoked = true where session_id = $1 and revoked = false',
                [token.session_id],
              );
              await this.audit(c, ctx, user, 'token_revoked', 'token');
            }
            throw new CommitThenThrow(
              badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
            );
          }
        }
      }
      if (!issued) {
        if (this.opts.refreshTokenRotation) {
          await c.query(
            'update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1 and revoked = false',
            [token.id],
          );
          issued = await this.insertRefreshToken(c, user.id, token.session_id, token.token);
        } else {
          issued = token.token;
        }
      }
      await c.query(
        `update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1`,
        [token.session_id],
      );
      await this.audit(c, ctx, user, 'token_refreshed', 'token');
      return {
        status: 200,
        body: await this.sessionResponse(c, user.id, token.session_id, issued),
      };
    });
  }

  private async verifyGet(ctx: Ctx): Promise<Reply> {
    this.rateLimit(this.limiters.verify, ctx.ip);
    const type = ctx.url.searchParams.get('type') ?? '';
    const token = ctx.url.searchParams.get('token') ?? '';
    if (type === '') throw badRequest('validation_failed', 'Verify requires a verification type');
    if (token === '')
      throw badRequest('validation_failed', 'Verify requires a token or a token hash');
    const redirectTo = this.redirectFor(ctx);
    try {
      const outcome: { session?: Json; code?: string; pending?: Verified } = await this.tx(
        async (c) => {
          const verified = await this.verifyTokenHash(c, type, token);
          if (verified.pending) return { pending: verified };
          if (!verified.pkce)
            return { session: await this.issueSession(c, verified.userId, 'otp', ctx) };
          return {
            code: await this.issueAuthCode(c, verified.userId, verified.authenticationMethod),
          };
        },
      );
      if (outcome.pending) {
        // GoTrue puts the message in the fragment, and for PKCE links in the query too.
        const message = formEncode({ message: SINGLE_CONFIRMATION_ACCEPTED });
        const query = outcome.pending.pkce ? (redirectTo.includes('?') ? '&' : '?') + message : '';
        const fragment = formEncode({ message: SINGLE_CONFIRMATION_ACCEPTED, sb: '' });
        return { status: 303, headers: { Location: `${redirectTo}${query}#${fragment}` } };
      }
      if (outcome.code !== undefined) {
        const sep = redirectTo.includes('?') ? '&' : '?';
        return {
          status: 303,
          headers: { Location: `${redirectTo}${sep}code=${encodeURIComponent(outcome.code)}` },
        };
      }
      const session = outcome.session!;
      const fragment = formEncode({
        access_token: String(session.access_token),
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: String(session.refresh_token),
        sb: '',
        token_type: 'bearer',
        type,
      });
      return { status: 303, headers: { Location: `${redirectTo}#${fragment}` } };
    } catch (e) {
      // Browsers follow these links, so failures are reported in the redirect, not as JSON.
      if (!(e instanceof AuthApiError)) {
        this.log(`verify failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
      const err = e instanceof AuthApiError ? e : internalError('Internal Server Error');
      const fragment = formEncode({
        error: ERROR_BY_STATUS[err.status] ?? 'server_error',
        error_code: err.code,
        error_description: err.message,
        sb: '',
      });
      return { status: 303, headers: { Location: `${redirectTo}#${fragment}` } };
    }
  }

  private async verifyPost(ctx: Ctx): Promise<Reply> {
    this.rateLimit(this.limiters.verify, ctx.ip);
    const type = str(ctx.body, 'type');
    const token = str(ctx.body, 'token');
    const tokenHash = str(ctx.body, 'token_hash');
    const rawEmail = str(ctx.body, 'email');
    const phone = str(ctx.body, 'phone');
    if (type === '') throw badRequest('validation_failed', 'Verify requires a verification type');
    if ((token === '') === (tokenHash === '')) {
      throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
    }
    if (tokenHash !== '') {
      if (rawEmail !== '' || phone !== '' || ctx.url.searchParams.get('redirect_to')) {
        throw badRequest('validation_failed', 'Only the token_hash and type should be provided');
      }
      const session = await this.tx(async (c) => {
        const verified = await this.verifyTokenHash(c, type, tokenHash);
        return verified.pending ? null : this.issueSession(c, verified.userId, 'otp', ctx);
      });
      return { status: 200, body: session ?? SINGLE_CONFIRMATION_BODY };
    }
    if (phone !== '') throw forbidden('otp_expired', 'Token has expired or is invalid');
    if (rawEmail === '' || !isValidEmail(rawEmail.trim()))
      throw unprocessable('validation_failed', 'Invalid email format');
    const email = rawEmail.trim().toLowerCase();
    const session = await this.tx(async (c) => {
      const verified = await this.verifyEmailOtp(c, type, email, token);
      return verified.pending ? null : this.issueSession(c, verified.userId, 'otp', ctx);
    });
    return { status: 200, body: session ?? SINGLE_CONFIRMATION_BODY };
  }

  /** Token column and sent-at column a verification type is checked against. */
  private static readonly TYPE_COLUMNS: Record<string, Array<[string, string]>> = {
    signup: [['confirmation_token', 'confirmation_sent_at']],
    invite: [['confirmation_token', 'confirmation_sent_at']],
    recovery: [['recovery_token', 'recovery_sent_at']],
    magiclink: [['recovery_token', 'recovery_sent_at']],
    email_change: [
      ['email_change_token_new', 'email_change_sent_at'],
      ['email_change_token_current', 'email_change_sent_at'],
    ],
    email: [
      ['confirmation_token', 'confirmation_sent_at'],
      ['recovery_token', 'recovery_sent_at'],
    ],
  };

  private async verifyTokenHash(c: Db, type: string, tokenHash: string): Promise<Verified> {
    const columns = AuthService.TYPE_COLUMNS[type];
    if (!columns) throw badRequest('validation_failed', 'Unsupported verification type');
    const invalid = forbidden('otp_expired', 'Email link is invalid or has expired');
    // PKCE links carry the stored `pkce_<hash>`; a bare hash (e.g. {{ .TokenHash }}) matches both.
    const bare = tokenHash.replace(/^pkce_/, '');
    for (const [tokenCol, sentCol] of columns) {
      const r = await c.query<UserRow & { expired: boolean; stored: string }>(
        `select *, ${tokenCol} as stored,
           (${sentCol} is null or ${sentCol} + make_interval(secs => $2) < now()) as expired
         from auth.users where ${tokenCol} in ($1::text, 'pkce_' || $1::text) for update`,
        [bare, this.opts.otpExpiry],
      );
      const user = r.rows[0];
      if (!user) continue;
      if (user.expired) throw invalid;
      const pending = await this.completeVerification(c, user, tokenCol);
      return { ...this.verified(user, tokenCol, type), pending };
    }
    throw invalid;
  }

  private verified(user: UserRow & { stored: string }, tokenCol: string, type: string): Verified {
    const authenticationMethod =
      tokenCol === 'confirmation_token'
        ? type === 'invite'
          ? 'invite'
          : 'email/signup'
        : tokenCol === 'recovery_token'
          ? type === 'magiclink'
            ? 'magiclink'
            : 'recovery'
          : 'email_change';
    return { userId: user.id, pkce: user.stored.startsWith('pkce_'), authenticationMethod };
  }

  /** PKCE: the verify redirect carries the flow's auth code instead of a session. */
  private async issueAuthCode(
    c: Db,
    userId: string,
    authenticationMethod: string,
  ): Promise<string> {
    const r = await c.query<{ id: string; auth_code: string }>(
      `select id, auth_code from auth.flow_state where user_id = $1 and authentication_method = $2
       order by created_at desc limit 1 for update`,
      [userId, authenticationMethod],
    );
    const flow = r.rows[0];
    if (!flow)
      throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    await c.query(
      'update auth.flow_state set auth_code_issued_at = now(), updated_at = now() where id = $1',
      [flow.id],
    );
    return flow.auth_code;
  }

  private async verifyEmailOtp(c: Db, type: string, email: string, otp: string): Promise<Verified> {
    const columns = AuthService.TYPE_COLUMNS[type];
    if (!columns) throw badRequest('validation_failed', 'Unsupported verification type');
    const invalid = forbidden('otp_expired', 'Token has expired or is invalid');
    // The accounts this address can verify stay locked until the try is accepted or counted, so
    // tries at one account run one after the other and none slips past the limit.
    const accounts = await c.query<{ id: string }>(
      `select id from auth.users where (lower(email) = $1 or lower(email_change) = $1) and aud = $2
       order by id for update`,
      [email, AUDIENCE],
    );
    if (accounts.rowCount === 0) throw invalid;
    const hash = sha224Hex(email + otp);
    for (const [tokenCol, sentCol] of columns) {
      const addressCol = tokenCol === 'email_change_token_new' ? 'email_change' : 'email';
      const r = await c.query<UserRow & { expired: boolean; stored: string }>(
        `select *, ${tokenCol} as stored,
           (${sentCol} is null or ${sentCol} + make_interval(secs => $3) < now()) as expired
         from auth.users where lower(${addressCol}) = $1 and ${tokenCol} in ($2::text, 'pkce_' || $2::text) for update`,
        [email, hash, this.opts.otpExpiry],
      );
      const user = r.rows[0];
      if (!user) continue;
      if (user.expired) throw invalid;
      const pending = await this.completeVerification(c, user, tokenCol);
      return { ...this.verified(user, tokenCol, type), pending };
    }
    await this.countWrongCode(
      c,
      accounts.rows.map((a) => a.id),
    );
    throw new CommitThenThrow(invalid);
  }

  /**
   * Applies a verified link/OTP (the caller then signs the user in or hands out a PKCE code).
   * True when it was the first of two e-mail change confirmations (nothing else to do yet).
   */
  private async completeVerification(c: Db, user: UserRow, tokenCol: string): Promise<boolean> {
    if (user.banned_until && Date.parse(user.banned_until) > Date.now())
      throw forbidden('user_banned', 'User is banned');
    await c.query('delete from auth.one_time_token_failures where user_id = $1', [user.id]);
    if (tokenCol === 'confirmation_token') {
      await this.confirmEmail(c, user);
    } else if (tokenCol === 'recovery_token') {
      await c.query(`update auth.users set recovery_token = '', updated_at = now() where id = $1`, [
        user.id,
      ]);
      await this.clearOneTimeToken(c, user.id, 'recovery_token');
      // Following a recovery/magic link proves ownership of the address.
      if (!user.email_confirmed_at) await this.confirmEmail(c, user);
    } else {
      const newEmail = user.email_change ?? '';
      if (newEmail === '') throw forbidden('otp_expired', 'Email link is invalid or has expired');
      // Double confirmation, as hosted Auth: the first link only spends itself (status 0 -> 1).
      if (
        this.opts.enableConfirmations &&
        this.opts.doubleConfirmChanges !== false &&
        user.email_change_confirm_status === 0 &&
        user.email
      ) {
        await c.query(
          `update auth.users set ${tokenCol} = '', email_change_confirm_status = 1, updated_at = now() where id = $1`,
          [user.id],
        );
        await this.clearOneTimeToken(c, user.id, tokenCol);
        return true;
      }
      try {
        await c.query(
          `update auth.users set email = $2::text, email_change = '', email_change_token_new = '',
             email_change_token_current = '', email_change_confirm_status = 0, email_change_sent_at = null,
             email_confirmed_at = coalesce(email_confirmed_at, now()),
             raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || jsonb_build_object('email', $2::text),
             updated_at = now()
           where id = $1`,
          [user.id, newEmail],
        );
      } catch (e) {
        if (isUniqueViolation(e))
          throw unprocessable(
            'email_exists',
            'A user with this email address has already been registered',
          );
        throw e;
      }
      await c.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
         where user_id = $1 and provider = 'email'`,
        [user.id, newEmail],
      );
      await this.clearOneTimeToken(c, user.id, 'email_change_token_new');
      await this.clearOneTimeToken(c, user.id, 'email_change_token_current');
    }
    return false;
  }

  private async getUser(ctx: Ctx): Promise<Reply> {
    const { user } = await this.requireUser(ctx);
    return { status: 200, body: userJson(user, await this.loadIdentities(this.pool, user.id)) };
  }

  private async updateUser(ctx: Ctx): Promise<Reply> {
    this.rateLimit(this.limiters.otp, ctx.ip);
    const body = ctx.body;
    const authed = await this.requireUser(ctx);
    if (body.app_metadata !== undefined && body.app_metadata !== null) {
      throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
    }
    const password = typeof body.password === 'string' ? body.password : null;
    // An empty password fails the policy like any short one (422 weak_password, reason length).
    if (password !== null) assertPasswordAcceptable(password, this.policy);
    let newEmail: string | null = null;
    if (typeof body.email === 'string' && body.email !== '') newEmail = normalizeEmail(body.email);
    const pkce = this.pkceParams(body);
    const redirectTo = this.redirectFor(ctx);

    return this.tx(async (c) => {
      const user = await this.loadUser(c, authed.user.id, true);
      if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
      if (password !== null) {
        if (
          user.encrypted_password &&
          (await bcrypt.compare(password, user.encrypted_password).catch(() => false))
        ) {
          throw unprocessable(
            'same_password',
            'New password should be different from the old password.',
          );
        }
        await c.query(
          `update auth.users set encrypted_password = $2, confirmation_token = '', recovery_token = '',
             email_change_token_new = '', email_change_token_current = '', updated_at = now() where id = $1`,
          [user.id, await this.hashPassword(password)],
        );
        await c.query(
          `delete from auth.one_time_tokens where user_id = $1 and token_type in
             ('confirmation_token', 'recovery_token', 'email_change_token_new', 'email_change_token_current')`,
          [user.id],
        );
        // Other sessions end; the calling one survives.
        await c.query('delete from auth.sessions where user_id = $1 and id is distinct from $2', [
          user.id,
          authed.sessionId,
        ]);
      }
      const data = obj(body, 'data');
      if (data) {
        await c.query(
          'update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1',
          [user.id, JSON.stringify(mergeMetadata(user.raw_user_meta_data, data))],
        );
      }
      if (newEmail !== null && newEmail !== (user.email ?? '').toLowerCase()) {
        const taken = await this.findUserByEmail(c, newEmail);
        if (taken && taken.id !== user.id) {
          throw unprocessable(
            'email_exists',
            'A user with this email address has already been registered',
          );
        }
        const fresh = (await this.loadUser(c, user.id))!;
        await this.prepareEmailChange(c, fresh, newEmail, redirectTo, 'now', pkce);
      }
      await this.audit(
        c,
        ctx,
        user,
        password !== null ? 'user_updated_password' : 'user_modified',
        'user',
      );
      return { status: 200, body: await this.userResponse(c, user.id) };
    });
  }

  private async logout(ctx: Ctx): Promise<Reply> {
    const scope = ctx.url.searchParams.get('scope') ?? '';
    if (!['', 'global', 'local', 'others'].includes(scope)) {
      throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
    }
    const { user, sessionId } = await this.requireUser(ctx);
    if (sessionId === null || scope === '' || scope === 'global') {
      await this.pool.query('delete from auth.sessions where user_id = $1', [user.id]);
    } else if (scope === 'local') {
      await this.pool.query('delete from auth.sessions where id = $1', [sessionId]);
    } else {
      await this.pool.query('delete from auth.sessions where user_id = $1 and id <> $2', [
        user.id,
        sessionId,
      ]);
    }
    await this.audit(this.pool, ctx, user, 'logout', 'account');
    return { status: 204 };
  }

  private async resend(ctx: Ctx): Promise<Reply> {
    this.rateLimit(this.limiters.otp, ctx.ip);
    const type = str(ctx.body, 'type');
    if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type)) {
      throw badRequest(
        'validation_failed',
        'Missing one of these types: signup, email_change, sms, phone_change',
      );
    }
    if (type === 'sms' || type === 'phone_change')
      throw badRequest('validation_failed', 'Type provided requires a phone number');
    const email = normalizeEmail(str(ctx.body, 'email'), 'Type provided requires an email address');
    const redirectTo = this.redirectFor(ctx);
    const pkce = this.pkceParams(ctx.body);
    await this.tx(async (c) => {
      if (type === 'signup') {
        const user = await this.findUserByEmail(c, email, true);
        if (!user || user.email_confirmed_at) return;
        await this.prepareConfirmation(c, user, redirectTo, ctx.afterReply, 'signup', pkce);
      } else {
        const r = await c.query<UserRow>(
          `select * from auth.users where (lower(email) = $1 or lower(email_change) = $1) and email_change <> '' for update`,
          [email],
        );
        const user = r.rows[0];
        if (!user || !user.email_change) return;
        await this.prepareEmailChange(c, user, user.email_change, redirectTo, ctx.afterReply, pkce);
      }
    });
    return { status: 200, body: {} };
  }

  private async recover(ctx: Ctx): Promise<Reply> {
    this.rateLimit(this.limiters.otp, ctx.ip);
    const email = normalizeEmail(str(ctx.body, 'email'), 'Password recovery requires an email');
    const redirectTo = this.redirectFor(ctx);
    const pkce = this.pkceParams(ctx.body);
    await this.tx(async (c) => {
      const user = await this.findUserByEmail(c, email, true);
      if (!user) return;
      await this.prepareRecovery(c, user, redirectTo, ctx.afterReply, 'recovery', pkce);
      await this.audit(c, ctx, user, 'user_recovery_requested', 'user');
    });
    return { status: 200, body: {} };
  }

  /** signInWithOtp for e-mail: a magic link (confirmed users) or a confirmation mail. */
  private async otp(ctx: Ctx): Promise<Reply> {
    this.rateLimit(this.limiters.otp, ctx.ip);
    const body = ctx.body;
    if (str(body, 'phone') !== '')
      throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
    const email = normalizeEmail(str(body, 'email'));
    const createUser = body.create_user !== false;
    const data = obj(body, 'data') ?? {};
    const redirectTo = this.redirectFor(ctx);
    const pkce = this.pkceParams(body);
    await this.tx(async (c) => {
      let user = await this.findUserByEmail(c, email, true);
      if (!user) {
        if (!createUser) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
        if (!this.opts.enableSignup) {
          throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
        }
        const id = randomUUID();
        await this.insertUser(c, {
          id,
          email,
          // A password nobody knows: the account signs in through links/codes until one is set.
          passwordHash: await this.hashPassword(randomBytes(48).toString('base64url')),
          appMetadata: EMAIL_APP_METADATA,
          userMetadata: { ...data, sub: id, email, email_verified: false, phone_verified: false },
          emailConfirmed: false,
        });
        user = (await this.loadUser(c, id))!;
      }
      if (user.email_confirmed_at) {
        await this.prepareRecovery(c, user, redirectTo, ctx.afterReply, 'magiclink', pkce);
      } else {
        await this.prepareConfirmation(c, user, redirectTo, ctx.afterReply, 'signup', pkce);
      }
    });
    return { status: 200, body: {} };
  }

  // ---------------------------------------------------------------------------------------
  // Admin endpoints

  /** auth.admin.inviteUserByEmail: creates (or re-invites) an unconfirmed user and mails the invite. */
  private async invite(ctx: Ctx): Promise<Reply> {
    this.requireAdmin(ctx);
    const email = normalizeEmail(str(ctx.body, 'email'));
    const data = obj(ctx.body, 'data') ?? {};
    const redirectTo = this.redirectFor(ctx);
    return this.tx(async (c) => {
      let user = await this.findUserByEmail(c, email, true);
      if (user?.email_confirmed_at) {
        throw unprocessable(
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
      if (!user) {
        const id = randomUUID();
        await this.insertUser(c, {
          id,
          email,
          passwordHash: await this.hashPassword(randomBytes(48).toString('base64url')),
          appMetadata: EMAIL_APP_METADATA,
          userMetadata: data,
          emailConfirmed: false,
          invited: true,
        });
        user = (await this.loadUser(c, id))!;
      }
      await this.prepareConfirmation(c, user, redirectTo, 'now', 'invite');
      await this.audit(c, ctx, user, 'user_invited', 'team', { user_email: email });
      return { status: 200, body: await this.userResponse(c, user.id) };
    });
  }

  private adminUserId(ctx: Ctx): string {
    const id = ctx.params[0] ?? '';
    if (!isUuid(id)) throw notFound('validation_failed', 'user_id must be an UUID');
    return id.toLowerCase();
  }

  private async adminListUsers(ctx: Ctx): Promise<Reply> {
    this.requireAdmin(ctx);
    const page = Math.max(1, Number.parseInt(ctx.url.searchParams.get('page') || '1', 10) || 1);
    const perPage = Math.max(
      1,
      Number.parseInt(ctx.url.searchParams.get('per_page') || '50', 10) || 50,
    );
    const filter = ctx.url.searchParams.get('filter') ?? '';
    const sort = (ctx.url.searchParams.get('sort') ?? '').trim().toLowerCase();
    const dir = sort === 'created_at asc' ? 'asc' : 'desc';
    const where = `aud = $1 and ($2 = '' or email ilike '%' || $2 || '%' or raw_user_meta_data ->> 'full_name' ilike '%' || $2 || '%')`;
    const total = Number(
      (
        await this.pool.query<{ n: string }>(
          `select count(*) as n from auth.users where ${where}`,
          [AUDIENCE, filter],
        )
      ).rows[0]!.n,
    );
    const rows = await this.pool.query<UserRow>(
      `select * from auth.users where ${where} order by created_at ${dir}, id limit $3 offset $4`,
      [AUDIENCE, filter, perPage, (page - 1) * perPage],
    );
    const ids = rows.rows.map((u) => u.id);
    const idents = ids.length
      ? (
          await this.pool.query<IdentityRow>(
            'select * from auth.identities where user_id = any($1) order by created_at, id',
            [ids],
          )
        ).rows
      : [];
    const users = rows.rows.map((u) =>
      userJson(
        u,
        idents.filter((i) => i.user_id === u.id),
      ),
    );
    const lastPage = Math.ceil(total / perPage);
    const links: string[] = [];
    if (page < lastPage)
      links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
    return {
      status: 200,
      body: { users, aud: AUDIENCE },
      headers: { 'X-Total-Count': String(total), Link: links.join(', ') },
    };
  }

  private async adminGetUser(ctx: Ctx): Promise<Reply> {
    this.requireAdmin(ctx);
    const id = this.adminUserId(ctx);
    const user = await this.loadUser(this.pool, id);
    if (!user) throw notFound('user_not_found', 'User not found');
    return { status: 200, body: userJson(user, await this.loadIdentities(this.pool, id)) };
  }

  private banSeconds(body: Json): number | null | undefined {
    const raw = body.ban_duration;
    if (raw === undefined || raw === null || raw === '') return undefined;
    if (raw === 'none') return null;
    const secs = typeof raw === 'string' ? parseGoDuration(raw) : null;
    if (secs === null)
      throw badRequest(
        'validation_failed',
        `invalid format for ban duration: time: invalid duration "${String(raw)}"`,
      );
    return secs;
  }

  private async adminCreateUser(ctx: Ctx): Promise<Reply> {
    const admin = adminActor(this.requireAdmin(ctx));
    const body = ctx.body;
    const rawEmail = str(body, 'email');
    const phone = str(body, 'phone');
    if (rawEmail === '' && phone === '')
      throw badRequest(
        'validation_failed',
        'Cannot create a user without either an email or phone',
      );
    const email = rawEmail !== '' ? normalizeEmail(rawEmail) : null;
    if (body.id !== undefined && body.id !== null && !isUuid(body.id))
      throw badRequest('validation_failed', 'id must be a valid UUID');
    let passwordHash: string;
    const passwordHashParam = str(body, 'password_hash');
    if (passwordHashParam !== '') {
      if (!/^\$2[aby]\$\d{2}\$/.test(passwordHashParam))
        throw badRequest('validation_failed', 'Invalid password hash format');
      passwordHash = passwordHashParam;
    } else {
      const password = str(body, 'password') || randomBytes(48).toString('base64url').slice(0, 64);
      checkPasswordLength(password);
      passwordHash = await this.hashPassword(password);
    }
    const appMetadata = mergeMetadata(
      { provider: email ? 'email' : 'phone', providers: [email ? 'email' : 'phone'] },
      obj(body, 'app_metadata') ?? {},
    );
    const emailConfirmed = body.email_confirm === true;
    const userMetadata: Json = { ...(obj(body, 'user_metadata') ?? {}) };
    if (emailConfirmed) userMetadata.email_verified = true;
    const ban = this.banSeconds(body);
    return this.tx(async (c) => {
      if (email && (await this.findUserByEmail(c, email))) {
        throw unprocessable(
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
      if (phone) {
        const p = await c.query('select 1 from auth.users where phone = $1', [phone]);
        if (p.rowCount)
          throw unprocessable(
            'phone_exists',
            'A user with this phone number has already been registered',
          );
      }
      const id: string = await this.insertUser(c, {
        id: typeof body.id === 'string' ? body.id.toLowerCase() : undefined,
        email,
        phone: phone || null,
        passwordHash,
        role: str(body, 'role') || DEFAULT_ROLE,
        appMetadata,
        userMetadata,
        emailConfirmed,
        phoneConfirmed: body.phone_confirm === true,
        bannedUntilSeconds: ban ?? null,
      });
      await this.audit(c, ctx, admin, 'user_signedup', 'team', {
        user_id: id,
        user_email: email ?? '',
        user_phone: phone,
      });
      return { status: 200, body: await this.userResponse(c, id) };
    });
  }

  private async adminUpdateUser(ctx: Ctx): Promise<Reply> {
    this.requireAdmin(ctx);
    const id = this.adminUserId(ctx);
    const body = ctx.body;
    const email =
      typeof body.email === 'string' && body.email !== '' ? normalizeEmail(body.email) : null;
    const password =
      typeof body.password === 'string' && body.password !== '' ? body.password : null;
    if (password !== null) assertPasswordAcceptable(password, this.policy);
    const ban = this.banSeconds(body);
    return this.tx(async (c) => {
      const user = await this.loadUser(c, id, true);
      if (!user) throw notFound('user_not_found', 'User not found');
      const sets: string[] = [];
      const values: unknown[] = [id];
      const set = (sql: string, value?: unknown) => {
        if (value === undefined) {
          sets.push(sql);
        } else {
          values.push(value);
          sets.push(sql.replace('?', `$${values.length}`));
        }
      };
      let userMeta = user.raw_user_meta_data ?? {};
      if (email !== null && email !== user.email) {
        const taken = await this.findUserByEmail(c, email);
        if (taken && taken.id !== id)
          throw unprocessable(
            'email_exists',
            'A user with this email address has already been registered',
          );
        set('email = ?', email);
        set(`email_change = ''`);
        set(`email_change_token_new = ''`);
        set(`email_change_token_current = ''`);
        await c.query(
          `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
           where user_id = $1 and provider = 'email'`,
          [id, email],
        );
      }
      if (typeof body.phone === 'string' && body.phone !== (user.phone ?? ''))
        set('phone = ?', body.phone || null);
      if (password !== null) {
        set('encrypted_password = ?', await this.hashPassword(password));
        // An admin password change ends every session of the user.
        await c.query('delete from auth.sessions where user_id = $1', [id]);
      }
      const pwHash = str(body, 'password_hash');
      if (pwHash !== '') set('encrypted_password = ?', pwHash);
      if (body.email_confirm === true) {
        set('email_confirmed_at = coalesce(email_confirmed_at, now())');
        set(`confirmation_token = ''`);
        userMeta = { ...userMeta, email_verified: true };
      }
      if (body.phone_confirm === true)
        set('phone_confirmed_at = coalesce(phone_confirmed_at, now())');
      const um = obj(body, 'user_metadata');
      if (um) userMeta = mergeMetadata(userMeta, um);
      if (um || body.email_confirm === true)
        set('raw_user_meta_data = ?', JSON.stringify(userMeta));
      const am = obj(body, 'app_metadata');
      if (am)
        set('raw_app_meta_data = ?', JSON.stringify(mergeMetadata(user.raw_app_meta_data, am)));
      if (typeof body.role === 'string' && body.role !== '') set('role = ?', body.role);
      if (ban !== undefined) {
        if (ban === null) set('banned_until = null');
        else set('banned_until = now() + make_interval(secs => ?::float8)', ban);
      }
      if (sets.length) {
        try {
          await c.query(
            `update auth.users set ${sets.join(', ')}, updated_at = now() where id = $1`,
            values,
          );
        } catch (e) {
          if (isUniqueViolation(e))
            throw unprocessable(
              'email_exists',
              'A user with this email address has already been registered',
            );
          this.log(`admin update failed: ${e instanceof Error ? e.message : String(e)}`);
          throw internalError('Error updating user');
        }
      }
      if (body.email_confirm === true) {
        await c.query(
          `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb
           where user_id = $1 and provider = 'email'`,
          [id],
        );
      }
      return { status: 200, body: await this.userResponse(c, id) };
    });
  }

  private async adminDeleteUser(ctx: Ctx): Promise<Reply> {
    const admin = adminActor(this.requireAdmin(ctx));
    const id = this.adminUserId(ctx);
    const soft = ctx.body.should_soft_delete === true;
    await this.tx(async (c) => {
      const user = await this.loadUser(c, id, true);
      if (!user) throw notFound('user_not_found', 'User not found');
      await this.audit(c, ctx, admin, 'user_deleted', 'team', {
        user_id: user.id,
        user_email: user.email ?? '',
        user_phone: user.phone ?? '',
      });
      if (!soft) {
        await c.query('delete from auth.users where id = $1', [id]);
        return;
      }
      // Soft delete: keep the row for foreign keys but make the account unusable and anonymous.
      const obfuscate = (v: string | null) =>
        v ? createHash('sha256').update(v).digest('hex') : null;
      await c.query('delete from auth.sessions where user_id = $1', [id]);
      await c.query('delete from auth.one_time_tokens where user_id = $1', [id]);
      await c.query(
        `update auth.users set email = $2, phone = $3, encrypted_password = '', raw_user_meta_data = '{}'::jsonb,
           raw_app_meta_data = '{}'::jsonb, confirmation_token = '', recovery_token = '', email_change = '',
           email_change_token_new = '', email_change_token_current = '', deleted_at = now(), updated_at = now()
         where id = $1`,
        [id, obfuscate(user.email), obfuscate(user.phone)],
      );
      await c.query(
        `update auth.identities set provider_id = encode(sha256(convert_to(provider_id, 'utf8')), 'hex'),
           identity_data = '{}'::jsonb, updated_at = now() where user_id = $1`,
        [id],
      );
    });
    return { status: 200, body: {} };
  }

  private async adminGenerateLink(ctx: Ctx): Promise<Reply> {
    this.requireAdmin(ctx);
    const body = ctx.body;
    const type = str(body, 'type');
    const types = [
      'signup',
      'invite',
      'magiclink',
      'recovery',
      'email_change_current',
      'email_change_new',
    ];
    if (!types.includes(type))
      throw badRequest('validation_failed', 'Invalid email action link type requested');
    const email = normalizeEmail(str(body, 'email'));
    const redirectTo = this.redirectFor(ctx);
    const data = obj(body, 'data');
    const password = str(body, 'password');

    return this.tx(async (c) => {
      let user = await this.findUserByEmail(c, email, true);
      let verificationType = type;
      let tokens: { otp: string; tokenHash: string };
      const createUnconfirmed = async (pw: string, invited: boolean) => {
        const id = randomUUID();
        await this.insertUser(c, {
          id,
          email,
          passwordHash: await this.hashPassword(pw),
          appMetadata: invited ? { provider: 'email', providers: ['email'] } : EMAIL_APP_METADATA,
          userMetadata: {
            ...(data ?? {}),
            sub: id,
            email,
            email_verified: false,
            phone_verified: false,
          },
          emailConfirmed: false,
          invited,
        });
        return (await this.loadUser(c, id))!;
      };
      switch (type) {
        case 'signup': {
          if (user?.email_confirmed_at)
            throw unprocessable(
              'email_exists',
              'A user with this email address has already been registered',
            );
          if (!user) {
            if (password === '')
              throw badRequest('validation_failed', 'Signup requires a valid password');
            assertPasswordAcceptable(password, this.policy);
            user = await createUnconfirmed(password, false);
          } else if (data) {
            await c.query('update auth.users set raw_user_meta_data = $2 where id = $1', [
              user.id,
              JSON.stringify(mergeMetadata(user.raw_user_meta_data, data)),
            ]);
          }
          tokens = await this.prepareConfirmation(c, user, redirectTo, 'none');
          break;
        }
        case 'invite': {
          if (user?.email_confirmed_at)
            throw unprocessable(
              'email_exists',
              'A user with this email address has already been registered',
            );
          if (!user) user = await createUnconfirmed(randomBytes(48).toString('base64url'), true);
          tokens = await this.prepareConfirmation(c, user, redirectTo, 'none', 'invite');
          break;
        }
        case 'magiclink': {
          if (!user) {
            // Unknown addresses get a sign-up link instead, as GoTrue does.
            verificationType = 'signup';
            user = await createUnconfirmed(randomBytes(48).toString('base64url'), false);
            tokens = await this.prepareConfirmation(c, user, redirectTo, 'none');
          } else {
            tokens = await this.prepareRecovery(c, user, redirectTo, 'none', 'magiclink');
          }
          break;
        }
        case 'recovery': {
          if (!user) throw notFound('user_not_found', 'User with this email not found');
          tokens = await this.prepareRecovery(c, user, redirectTo, 'none');
          break;
        }
        default: {
          if (!user) throw notFound('user_not_found', 'User with this email not found');
          if (type === 'email_change_current' && this.opts.doubleConfirmChanges === false)
            throw badRequest(
              'validation_failed',
              'Enable secure email change to generate link for current email',
            );
          const newEmail = normalizeEmail(str(body, 'new_email'));
          const taken = await this.findUserByEmail(c, newEmail);
          if (taken)
            throw unprocessable(
              'email_exists',
              'A user with this email address has already been registered',
            );
          const t = await this.prepareEmailChange(c, user, newEmail, redirectTo, 'none');
          tokens = {
            otp: type === 'email_change_new' ? t.otp : t.currentOtp,
            tokenHash: type === 'email_change_new' ? t.tokenHash : t.currentHash,
          };
          verificationType = 'email_change';
        }
      }
      const userBody = await this.userResponse(c, user.id);
      return {
        status: 200,
        body: {
          ...userBody,
          action_link: confirmationUrl(
            this.authExternalUrl,
            tokens.tokenHash,
            verificationType,
            redirectTo,
          ),
          email_otp: tokens.otp,
          hashed_token: tokens.tokenHash,
          verification_type: verificationType,
          redirect_to: redirectTo,
        },
      };
    });
  }
}

/** Lets a transaction commit its writes (token family revocation) and still answer with an error. */
class CommitThenThrow extends Error {
  constructor(readonly error: AuthApiError) {
    super(error.message);
  }
}

/** Audit actor for admin-API calls: the key's subject, else its role (service_role keys have no sub). */
function adminActor(claims: JwtClaims): { id: string; email: string } {
  const sub = typeof claims.sub === 'string' && isUuid(claims.sub) ? claims.sub : NIL_UUID;
  return { id: sub, email: typeof claims.role === 'string' ? claims.role : '' };
}

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';
}

/** Path segments that are not valid percent-encoding are taken literally (and then fail validation). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function readJsonBody(req: http.IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES)
      throw new AuthApiError(413, 'request_too_large', 'Request body too large');
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('bad_json', 'Could not parse request body as JSON: expected a JSON object');
  }
  return parsed as Json;
}

export async function startAuthServer(opts: AuthServerOptions): Promise<AuthServerHandle> {
  const service = new AuthService(opts);
  // Fail fast when the database or the auth schema is not there.
  await service.pool.query('select 1 from auth.users limit 1');
  const server = http.createServer((req, res) => {
    void service.handle(req, res);
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
