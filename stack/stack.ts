// The Docker-free local Supabase stack: Postgres 17, PostgREST 12, the auth service, the Deno
// functions runtime and the mail catcher as child processes, with the gateway in this process.
// `startStack` is used by the CLI (stack/cli.ts), the integration tests and the e2e set-up; it
// decides the start-up order, stack/parts.ts how each part starts, stack/supervisor.ts keeps
// track of the processes.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import path from 'node:path';
import { loadConfig, REPO_ROOT, type StackConfig } from './config.ts';
import {
  initCluster,
  isInitialised,
  osIdsForPostgres,
  postgresUrl,
  prepareDatabase,
} from './db/postgres.ts';
import { startGateway, type Gateway } from './gateway.ts';
import { DENO_DIR, PART_LAUNCHERS, type PartContext } from './parts.ts';
import { checkPortsFree } from './ports.ts';
import { groupAlive, isAlive, killGroup, sleep, waitUntilReady } from './process.ts';
import { PartSupervisor } from './supervisor.ts';

export { findFreePortBase } from './ports.ts';

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

export type PartName = 'postgres' | 'postgrest' | 'auth' | 'functions' | 'mail' | 'storage';
export const PART_NAMES: PartName[] = [
  'postgres',
  'mail',
  'postgrest',
  'auth',
  'functions',
  'storage',
];

/** bcrypt's lowest cost: what throwaway test stacks hash new passwords at (StartOptions). */
export const TEST_PASSWORD_HASH_COST = 4;

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
  /**
   * bcrypt cost of the passwords Auth hashes (default 10, GoTrue's). Throwaway test stacks hash
   * at TEST_PASSWORD_HASH_COST: no test measures the cost, and at 10 the hashing was a fifth of
   * the integration suite's CPU time.
   */
  passwordHashCost?: number;
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

/** Ends the parts of a stack whose supervisor died without stopping them. */
export async function killStaleParts(state: StackState, timeoutMs = 10_000): Promise<void> {
  const parts = Object.values(state.parts);
  for (const p of parts) killGroup(p.pid, p.stopSignal);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && parts.some((p) => groupAlive(p.pid))) await sleep(100);
  for (const p of parts) killGroup(p.pid, 'SIGKILL');
  if (state.watchdog) killGroup(state.watchdog, 'SIGKILL');
}

/** Refuses a data dir in use by a live stack; cleans up after one that died without stopping. */
async function takeOverDataDir(dataDir: string, log: (line: string) => void): Promise<void> {
  const previous = readState(dataDir);
  if (!previous) return;
  if (previous.pid !== process.pid && isAlive(previous.pid)) {
    throw new Error(
      `a stack is already running with ${dataDir} (pid ${previous.pid}); stop it first`,
    );
  }
  log(`cleaning up after a stack that did not stop (pid ${previous.pid})`);
  await killStaleParts(previous);
  rmSync(stateFile(dataDir), { force: true });
}

/** Runs one start-up step between "… name" and "✔ name (seconds)" log lines. */
async function timed<T>(
  log: (line: string) => void,
  name: string,
  fn: () => Promise<T>,
): Promise<T> {
  const t0 = Date.now();
  log(`… ${name}`);
  const result = await fn();
  log(`✔ ${name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
  return result;
}

/** Waits for every task (none is left running in the background), then throws the first error. */
async function settle(tasks: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(tasks);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

type StartPart = (name: PartName) => Promise<void>;

const bootstrappedMarker = (ctx: PartContext) => path.join(ctx.dataDir, '.bootstrapped');

/** Postgres, on a new cluster when the last initialisation did not finish. */
async function startDatabase(ctx: PartContext, isNew: boolean, startPart: StartPart) {
  if (isNew) {
    if (isInitialised(ctx.pgdata))
      ctx.log('the previous initialisation did not finish: starting the database over');
    rmSync(bootstrappedMarker(ctx), { force: true });
    await initCluster(ctx.pgdata, ctx.logFile('postgres'), ctx.osIds);
  }
  await startPart('postgres');
}

/** Bootstrap, auth schema, migrations and seed on a new database; pending migrations otherwise. */
async function migrateDatabase(ctx: PartContext, isNew: boolean, seed: boolean | undefined) {
  const { config, log } = ctx;
  await prepareDatabase({
    port: config.ports.db,
    repoRoot: REPO_ROOT,
    isNew,
    seed: seed ?? config.db.seedEnabled,
    autoExposeNewTables: config.api.autoExposeNewTables,
    migrationsEnabled: config.db.migrationsEnabled,
    logFile: ctx.logFile('migrations'),
    log: (line) => log(`  ${line}`),
  });
  if (isNew) writeFileSync(bootstrappedMarker(ctx), `${new Date().toISOString()}\n`);
}

/**
 * Start-up graph: the mail catcher and the functions runtime need nothing else, so they start
 * at once; PostgREST, auth and storage wait for the database to be migrated. Returns whether the
 * database was created.
 */
async function startProcesses(
  ctx: PartContext,
  startPart: StartPart,
  seed: boolean | undefined,
): Promise<boolean> {
  const { config, log } = ctx;
  const isNew = !isInitialised(ctx.pgdata) || !existsSync(bootstrappedMarker(ctx));
  const mail = timed(
    log,
    `mail catcher on ${config.ports.mailWeb} (SMTP ${config.ports.smtp})`,
    () => startPart('mail'),
  );
  const functions = timed(log, `functions on ${config.ports.functions}`, () =>
    startPart('functions'),
  );
  const database = (async () => {
    await timed(log, `postgres on ${config.ports.db}`, () => startDatabase(ctx, isNew, startPart));
    await timed(
      log,
      isNew ? 'database set-up (bootstrap, auth schema, migrations, seed)' : 'database migrations',
      () => migrateDatabase(ctx, isNew, seed),
    );
    await settle([
      timed(log, `PostgREST on ${config.ports.rest}`, () => startPart('postgrest')),
      timed(log, `auth on ${config.ports.auth}`, () => startPart('auth')),
      timed(log, `storage on ${config.ports.storage}`, () => startPart('storage')),
    ]);
  })();
  await settle([mail, functions, database]);
  return isNew;
}

/** The API gateway (like Kong) in this process, in front of PostgREST, auth and functions. */
function startGatewayPart({ config, log }: PartContext): Promise<Gateway> {
  return timed(log, `gateway on ${config.ports.api}`, () =>
    startGateway({
      port: config.ports.api,
      upstreams: {
        rest: `http://127.0.0.1:${config.ports.rest}`,
        auth: `http://127.0.0.1:${config.ports.auth}`,
        functions: `http://127.0.0.1:${config.ports.functions}`,
        storage: `http://127.0.0.1:${config.ports.storage}`,
      },
      keys: config.keys,
      // Uploads up to [storage] file_size_limit reach the Storage service, which answers larger
      // ones itself (hosted's body); the multipart envelope needs a little more.
      storageMaxBodyBytes: config.storage.fileSizeLimit + 1024 * 1024,
      log,
    }),
  );
}

/** Restarts the functions runtime when supabase/functions changes (debounced). */
function watchFunctions(ctx: PartContext, restart: () => Promise<void>): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  return watch(path.join(ctx.config.supabaseDir, 'functions'), { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      ctx.log('supabase/functions changed: restarting the functions runtime');
      restart().catch((err: Error) => ctx.log(`✖ functions restart failed: ${err.message}`));
    }, 300);
  });
}

export async function startStack(opts: StartOptions = {}): Promise<RunningStack> {
  const log = opts.log ?? (() => undefined);
  const config = loadConfig({ portBase: opts.portBase });
  const dataDir = path.resolve(opts.dataDir ?? DEFAULT_DATA_DIR);
  const logsDir = path.join(dataDir, 'logs');
  mkdirSync(logsDir, { recursive: true });
  mkdirSync(DENO_DIR, { recursive: true });
  const env = buildEnv(config);
  await takeOverDataDir(dataDir, log);
  await checkPortsFree(config);

  const supervisor = new PartSupervisor({
    dataDir,
    stateFile: stateFile(dataDir),
    portBase: config.ports.api,
    env,
    log,
    onPartExit: opts.onPartExit,
  });
  const ctx: PartContext = {
    config,
    env,
    dataDir,
    pgdata: path.join(dataDir, 'postgres'),
    osIds: {},
    logFile: (name) => path.join(logsDir, `${name}.log`),
    log,
    options: opts,
  };
  const startPart = async (name: PartName): Promise<void> => {
    const launched = await PART_LAUNCHERS[name](ctx);
    if (!launched) return;
    supervisor.track(name, launched.proc);
    if (launched.ready)
      await waitUntilReady(launched.proc, launched.ready.probe, launched.ready.timeoutMs);
  };
  const restartPart = async (name: PartName): Promise<void> => {
    await supervisor.stopPart(name);
    await startPart(name);
  };

  let gateway: Gateway | null = null;
  let watcher: FSWatcher | null = null;
  const stop = async (): Promise<void> => {
    if (!supervisor.beginShutdown()) return;
    watcher?.close();
    await gateway?.close().catch(() => undefined);
    await supervisor.stopAll();
  };

  let createdDatabase: boolean;
  try {
    ctx.osIds = await osIdsForPostgres();
    createdDatabase = await startProcesses(ctx, startPart, opts.seed);
    gateway = await startGatewayPart(ctx);
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  if (opts.watchFunctions) watcher = watchFunctions(ctx, () => restartPart('functions'));

  supervisor.markReady();
  return {
    env,
    config,
    dataDir,
    logsDir,
    createdDatabase,
    stop,
    stopPart: (name) => supervisor.stopPart(name),
    restartPart,
    processes: () => supervisor.pids(),
  };
}
