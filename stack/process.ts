// Child-process plumbing shared by every part of the stack: each part runs in its own process
// group (so a stop reaches its children too), writes straight into its own log file (so it
// keeps logging even if the supervisor's pipes are gone), and is reported with the tail of that
// log when it dies.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, statSync, writeSync, fstatSync } from 'node:fs';
import net from 'node:net';

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  logFile: string;
  uid?: number;
  gid?: number;
  /**
   * Own process group (default). Short-lived tools (initdb, the Supabase CLI) stay in the
   * caller's group instead, so a Ctrl-C in the terminal reaches them as well.
   */
  detached?: boolean;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ManagedProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly exited: Promise<Exit>;
  private logStart: number;
  private exitInfo: Exit | null = null;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    readonly opts: SpawnOptions,
  ) {
    const fd = openSync(opts.logFile, 'a');
    this.logStart = fstatSync(fd).size;
    writeSync(fd, `\n=== ${new Date().toISOString()} ${name}: ${command} ${args.join(' ')}\n`);
    try {
      this.child = spawn(command, args, {
        cwd: opts.cwd,
        env: opts.env,
        detached: opts.detached ?? true,
        stdio: ['ignore', fd, fd],
        uid: opts.uid,
        gid: opts.gid,
      });
    } finally {
      closeSync(fd);
    }
    if (this.child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
    this.pid = this.child.pid;
    this.exited = new Promise<Exit>((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
      this.child.once('error', () => {
        this.exitInfo ??= { code: -1, signal: null };
        resolve(this.exitInfo);
      });
    });
  }

  get running(): boolean {
    return this.exitInfo === null;
  }

  /** The last lines this process wrote to its log. */
  tail(lines = 25): string {
    return tailFile(this.opts.logFile, lines, this.logStart);
  }

  describeExit(): string {
    const e = this.exitInfo;
    if (!e) return `${this.name} is running`;
    return `${this.name} exited (${e.signal ? `signal ${e.signal}` : `code ${e.code}`})`;
  }

  /** Signals the whole process group, then SIGKILLs it after `timeoutMs`. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 10_000): Promise<void> {
    if (!this.running) {
      killGroup(this.pid, 'SIGKILL'); // leftovers of the group, if any
      return;
    }
    killGroup(this.pid, signal);
    const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeoutMs).unref());
    if ((await Promise.race([this.exited, timer])) === 'timeout') {
      killGroup(this.pid, 'SIGKILL');
      await this.exited;
    }
    killGroup(this.pid, 'SIGKILL');
  }
}

export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function tailFile(file: string, lines = 25, from = 0): string {
  try {
    const size = statSync(file).size;
    const start = Math.max(from, size - 64 * 1024);
    const buf = Buffer.alloc(size - start);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buf, 0, buf.length, start);
    } finally {
      closeSync(fd);
    }
    return buf.toString('utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it resolves true. Fails early with the log tail when the process dies,
 * and after `timeoutMs` otherwise — never hangs.
 */
export async function waitUntilReady(
  proc: ManagedProcess,
  probe: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = 50;
  while (Date.now() < deadline) {
    if (!proc.running) {
      throw new Error(
        `${proc.describeExit()} while starting. Last lines of ${proc.opts.logFile}:\n${proc.tail()}`,
      );
    }
    if (await probe().catch(() => false)) return;
    await sleep(delay);
    delay = Math.min(delay * 1.5, 250);
  }
  throw new Error(
    `${proc.name} was not ready after ${timeoutMs / 1000}s. Last lines of ${proc.opts.logFile}:\n${proc.tail()}`,
  );
}

export async function httpOk(url: string, init: RequestInit = {}): Promise<boolean> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(2000) });
  await res.body?.cancel();
  return res.ok;
}

/** True when nothing listens on 127.0.0.1:port (the port can be bound). */
export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function portListening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    const done = (v: boolean) => {
      sock.destroy();
      resolve(v);
    };
    sock.setTimeout(1000, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}
