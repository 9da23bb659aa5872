// The local stack's command line: `npm run stack -- <command>`, `npm start` (= dev).
//   start   start every part, print the status table, run until Ctrl+C or `stop`
//   stop    stop the stack started from another terminal (pid file in the data dir)
//   status  print URLs and keys (-o json | -o env | human table)
//   reset   stop if running, wipe the data dir, start fresh (migrations + seed)
//   types   generate src/lib/infra/database.types.ts from the running database
//   dev     start the stack, then the Vite dev server pointed at it
// Options: --port-base <n> (or STACK_PORT_BASE), --data-dir <dir> (or STACK_DATA_DIR), --no-seed.
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { parsePortBase, REPO_ROOT } from './config.ts';
import { groupAlive, isAlive, portFree, sleep } from './process.ts';
import {
  DEFAULT_DATA_DIR,
  PART_NAMES,
  killStaleParts,
  readState,
  startStack,
  stateFile,
  type RunningStack,
  type StackEnv,
} from './stack.ts';
import { startTimers } from './timers.ts';

/** The demo admin created by supabase/seed.sql. */
const DEMO_ADMIN = {
  email: process.env.DEMO_ADMIN_EMAIL ?? 'admin@mar-online-store.test',
  password: process.env.DEMO_ADMIN_PASSWORD ?? 'admin123',
};
/** The demo shopper of supabase/seed.sql: signed in, but not an admin. */
const DEMO_SHOPPER = { email: 'shopper@mar-online-store.test', password: 'shopper123' };

const USAGE = `Usage: npm run stack -- <start|stop|status|reset|types|dev> [options]

  start            start the local stack and keep it running (Ctrl+C stops it)
  stop             stop a running stack
  status [-o json|env]
                   show URLs and keys of the running stack
  reset            stop, wipe the data dir, start again with migrations and seed
  types            write src/lib/infra/database.types.ts from the running database
  dev              start the stack and the Vite dev server (npm start)

Options:
  --port-base <n>  API port (default [api] port of supabase/config.toml; env STACK_PORT_BASE)
  --data-dir <dir> stack data (default .stack/data; env STACK_DATA_DIR)
  --no-seed        do not run supabase/seed.sql on a new database
`;

const c = process.stdout.isTTY && !process.env.NO_COLOR;
const bold = (s: string) => (c ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string) => (c ? `\x1b[2m${s}\x1b[0m` : s);
const red = (s: string) => (c ? `\x1b[31m${s}\x1b[0m` : s);

/** How to stop what runs in this terminal (REQ-PATH-17). */
const STOP_HINT = 'Press Ctrl+C to stop (or run `npm run stack -- stop` in another terminal).\n';

function fail(message: string, code = 1): never {
  process.stderr.write(`${red('error')}: ${message}\n`);
  process.exit(code);
}

/** The seeded demo accounts that exist in the database, by e-mail (lower case). */
async function demoAccounts(
  dbUrl: string,
  emails: string[],
): Promise<Map<string, { email: string; name: string | null }>> {
  const client = new pg.Client({ connectionString: dbUrl });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ email: string; name: string | null }>(
      `select email, raw_user_meta_data ->> 'display_name' as name from auth.users where lower(email) = any($1)`,
      [emails.map((e) => e.toLowerCase())],
    );
    return new Map(rows.map((r) => [r.email.toLowerCase(), r]));
  } catch {
    return new Map();
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function printStatusTable(
  env: StackEnv,
  dataDir: string,
  parts?: Partial<Record<string, number>>,
): Promise<void> {
  const rows: [string, string][] = [
    ['API URL', env.API_URL],
    ['REST URL', env.REST_URL],
    ['Functions URL', env.FUNCTIONS_URL],
    ['DB URL', env.DB_URL],
    ['Mail inbox', `${env.MAILPIT_URL}  (REST: GET /email)`],
    ['SMTP', `${env.SMTP_HOST}:${env.SMTP_PORT}`],
    ['Publishable key', env.PUBLISHABLE_KEY],
    ['Secret key', env.SECRET_KEY],
    ['anon key', env.ANON_KEY],
    ['service_role key', env.SERVICE_ROLE_KEY],
    ['JWT secret', env.JWT_SECRET],
  ];
  const demos: [string, { email: string; password: string }][] = [
    ['Demo admin', DEMO_ADMIN],
    ['Demo shopper', DEMO_SHOPPER],
  ];
  const found = await demoAccounts(
    env.DB_URL,
    demos.map(([, d]) => d.email),
  );
  for (const [label, demo] of demos) {
    const account = found.get(demo.email.toLowerCase());
    rows.push([
      label,
      account
        ? `${account.email} / ${demo.password}${account.name ? `  (${account.name})` : ''}`
        : '(not in the database: seed not applied)',
    ]);
  }
  rows.push(['Data / logs', `${dataDir}  /  ${path.join(dataDir, 'logs')}`]);
  if (parts) {
    const list = PART_NAMES.map((name) => {
      const pid = parts[name];
      return pid !== undefined && isAlive(pid) ? `${name} ${pid}` : red(`${name} DOWN`);
    });
    rows.push(['Processes', list.join(', ')]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(`\n${bold('MAR Online Store local stack is running.')}\n\n`);
  for (const [k, v] of rows) process.stdout.write(`  ${dim(k.padStart(width))}  ${v}\n`);
  process.stdout.write('\n');
}

function printEnv(env: StackEnv, format: string): void {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(env, null, 2)}\n`);
  } else {
    for (const [k, v] of Object.entries(env)) process.stdout.write(`${k}="${String(v)}"\n`);
  }
}

interface Opts {
  portBase?: number;
  dataDir: string;
  seed: boolean;
  output?: string;
}

/** Starts the stack in the foreground; Ctrl-C, SIGTERM (`stop`) or `onStarted`'s end stop it. */
async function runForeground(
  o: Opts,
  onStarted?: (stack: RunningStack) => Promise<number>,
): Promise<never> {
  let stack: RunningStack | null = null;
  let exiting = false;
  const shutdown = async (code: number) => {
    if (exiting) return;
    exiting = true;
    process.stdout.write('\nstopping the stack…\n');
    await stack?.stop().catch((err: Error) => process.stderr.write(`${err.message}\n`));
    process.stdout.write('stopped.\n');
    process.exit(code);
  };
  // Before startStack so that Ctrl-C during start-up also ends every part started so far.
  // Ctrl-C exits 130 as shells expect; `stop` (SIGTERM) is a normal end. During start-up, exit at
  // once: the stack's exit hook signals the parts started so far and its watchdog finishes them.
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 0;
    if (stack) void shutdown(code);
    else process.exit(code);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);

  process.stdout.write(`Starting the local stack (data: ${o.dataDir})\n`);
  try {
    stack = await startStack({
      portBase: o.portBase,
      dataDir: o.dataDir,
      seed: o.seed,
      watchFunctions: true,
      log: (line) => process.stdout.write(`  ${line}\n`),
    });
  } catch (err) {
    fail((err as Error).message);
  }
  await printStatusTable(stack.env, stack.dataDir);
  // The hosted Cron jobs' local stand-ins: link checks, offer summaries, feed sync and apply
  // (stack/timers.ts; intervals STACK_*_INTERVAL_SECONDS, 0 = off).
  startTimers(stack.env, process.env, (line) => process.stdout.write(`  ${line}\n`));
  // While it runs, not after (REQ-PATH-17): `npm start` hands the terminal to Vite next.
  process.stdout.write(bold(STOP_HINT));
  if (onStarted) {
    const code = await onStarted(stack);
    await shutdown(code);
  }
  // Keep running: the gateway's server holds the event loop open.
  return new Promise<never>(() => {});
}

/**
 * Vite's port: 3000 ([auth] site_url, so e-mail links land on it), or when another `npm start`
 * holds it, the next free one (REQ-PATH-17: a second stack with --port-base starts whole).
 */
async function vitePort(): Promise<number> {
  for (let port = 3000; port < 3100; port++) if (await portFree(port)) return port;
  fail('ports 3000-3099 are all in use: stop another dev server (Ctrl+C in its terminal)');
}

/** The Vite dev server pointed at the stack; resolves with its exit code. */
async function runVite(env: StackEnv): Promise<number> {
  const port = await vitePort();
  if (port !== 3000) {
    process.stdout.write(
      `Port 3000 is in use (another dev server?): Vite runs on ${port} instead; links in the stack's e-mails still point to 3000.\n`,
    );
  }
  process.stdout.write(`Starting Vite on http://127.0.0.1:${port} …\n`);
  const vite = spawn(
    path.join(REPO_ROOT, 'node_modules/.bin/vite'),
    ['--port', String(port), '--strictPort'],
    {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, VITE_SUPABASE_URL: env.API_URL, VITE_SUPABASE_ANON_KEY: env.ANON_KEY },
    },
  );
  // Vite shares the terminal (and so receives Ctrl-C itself); whoever waits on it ends with it.
  const killVite = () => vite.kill('SIGTERM');
  process.once('SIGTERM', killVite);
  process.once('exit', killVite);
  return new Promise<number>((resolve) => vite.on('exit', (code) => resolve(code ?? 0)));
}

async function stopCommand(o: Opts): Promise<boolean> {
  const state = readState(o.dataDir);
  if (!state) return false;
  if (isAlive(state.pid) && state.pid !== process.pid) {
    process.kill(state.pid, 'SIGTERM');
    const deadline = Date.now() + 45_000;
    while (Date.now() < deadline && (isAlive(state.pid) || existsSync(stateFile(o.dataDir))))
      await sleep(100);
  }
  // Supervisor gone (or too slow): make sure no part survives it.
  const leftovers = Object.values(state.parts).filter((p) => groupAlive(p.pid));
  if (leftovers.length > 0 || existsSync(stateFile(o.dataDir))) {
    await killStaleParts(state);
    rmSync(stateFile(o.dataDir), { force: true });
  }
  return true;
}

async function runningEnv(o: Opts): Promise<StackEnv> {
  const state = readState(o.dataDir);
  if (!state || !isAlive(state.pid))
    fail(
      `the local stack is not running (data dir ${o.dataDir}); start it with \`npm run stack -- start\``,
    );
  if (!state.ready) fail('the local stack is still starting');
  return state.env;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'port-base': { type: 'string' },
      'data-dir': { type: 'string' },
      'no-seed': { type: 'boolean', default: false },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(USAGE);
    process.exit(command || values.help ? 0 : 1);
  }
  let portBase: number | undefined;
  try {
    portBase = parsePortBase(values['port-base'] ?? process.env.STACK_PORT_BASE);
  } catch (err) {
    fail((err as Error).message);
  }
  const o: Opts = {
    portBase,
    dataDir: path.resolve(values['data-dir'] ?? process.env.STACK_DATA_DIR ?? DEFAULT_DATA_DIR),
    seed: !values['no-seed'],
    output: values.output,
  };

  switch (command) {
    case 'start':
      await runForeground(o);
      break;
    case 'stop': {
      const stopped = await stopCommand(o);
      process.stdout.write(
        stopped ? 'Stopped the local stack.\n' : 'The local stack is not running.\n',
      );
      break;
    }
    case 'status': {
      const env = await runningEnv(o);
      if (o.output === 'json' || o.output === 'env') printEnv(env, o.output);
      else if (o.output && o.output !== 'pretty' && o.output !== 'table')
        fail(`unknown output format "${o.output}" (json, env)`);
      else {
        const parts = readState(o.dataDir)?.parts ?? {};
        await printStatusTable(
          env,
          o.dataDir,
          Object.fromEntries(Object.entries(parts).map(([n, p]) => [n, p.pid])),
        );
      }
      break;
    }
    case 'reset': {
      if (await stopCommand(o)) process.stdout.write('Stopped the running stack.\n');
      rmSync(o.dataDir, { recursive: true, force: true });
      process.stdout.write(`Wiped ${o.dataDir}.\n`);
      await runForeground(o);
      break;
    }
    case 'types': {
      const env = await runningEnv(o);
      const out = path.join(REPO_ROOT, 'src/lib/infra/database.types.ts');
      const child = spawn(
        path.join(REPO_ROOT, 'node_modules/.bin/supabase'),
        [
          'gen',
          'types',
          '--lang',
          'typescript',
          `--remote=${env.DB_URL}`,
          '--schema',
          'public',
          '--workdir',
          REPO_ROOT,
        ],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
          env: { ...process.env, PGSSLMODE: 'disable', SUPABASE_TELEMETRY_DISABLED: '1' },
        },
      );
      const chunks: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => chunks.push(d));
      const code = await new Promise<number>((r) => child.on('close', (n) => r(n ?? 1)));
      if (code !== 0) fail(`supabase gen types failed (exit ${code})`);
      writeFileSync(out, Buffer.concat(chunks));
      // The CLI's output is unformatted; format it like the rest of the repo.
      const fmt = spawn(
        path.join(REPO_ROOT, 'node_modules/.bin/prettier'),
        ['--write', '--log-level', 'warn', '--ignore-path', '/dev/null', out],
        { stdio: 'inherit' },
      );
      if ((await new Promise<number>((r) => fmt.on('close', (n) => r(n ?? 1)))) !== 0)
        fail('prettier could not format the generated types');
      process.stdout.write(`Wrote ${path.relative(process.cwd(), out)}\n`);
      break;
    }
    case 'dev': {
      // A stack already running on this data dir (e.g. `stack start` in another terminal) is
      // reused; otherwise one is started here and stopped with Vite.
      const running = readState(o.dataDir);
      if (running && running.ready && isAlive(running.pid)) {
        process.stdout.write(`Using the local stack already running at ${running.env.API_URL}\n`);
        process.stdout.write(bold(STOP_HINT));
        process.once('SIGINT', () => undefined); // Vite handles Ctrl-C and then exits
        process.exit(await runVite(running.env));
      }
      await runForeground(o, (stack) => runVite(stack.env));
      break;
    }
    default:
      process.stderr.write(USAGE);
      fail(`unknown command "${command}"`);
  }
}

await main();
