// Keeps track of a stack's child processes: the state file other commands read (`stop`,
// `status`, the watchdog), stopping parts, reporting a part that dies after start-up, and making
// sure no part outlives this process.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './config.ts';
import { killGroup, type ManagedProcess } from './process.ts';
import type { PartName, StackEnv, StackState } from './stack.ts';

/** Postgres: SIGINT = fast shutdown (SIGTERM would wait for every client to disconnect). */
export function stopSignal(name: PartName): NodeJS.Signals {
  return name === 'postgres' ? 'SIGINT' : 'SIGTERM';
}

export interface SupervisorOptions {
  dataDir: string;
  /** Where the state is written (stateFile(dataDir)). */
  stateFile: string;
  portBase: number;
  env: StackEnv;
  log: (line: string) => void;
  onPartExit?: (name: PartName, report: string) => void;
}

export class PartSupervisor {
  private readonly procs = new Map<PartName, ManagedProcess>();
  private readonly stopping = new Set<PartName>();
  private readonly startedAt = new Date().toISOString();
  private readonly watchdogPid: number | undefined;
  private shuttingDown = false;
  private ready = false;
  // Parts must not outlive this process: polite signals on exit, the watchdog for SIGKILL.
  private readonly onExit = () => {
    for (const [name, p] of this.procs) killGroup(p.pid, stopSignal(name));
  };

  constructor(private readonly o: SupervisorOptions) {
    // Orphan guard: ends the parts listed in the state file if this process dies without stopping.
    const watchdog = spawn(
      process.execPath,
      [path.join(REPO_ROOT, 'stack/watchdog.mjs'), String(process.pid), o.stateFile],
      { detached: true, stdio: 'ignore' },
    );
    watchdog.unref();
    this.watchdogPid = watchdog.pid;
    process.once('exit', this.onExit);
    this.writeState();
  }

  /** From now on a part that exits by itself is reported through `onPartExit`. */
  markReady(): void {
    this.ready = true;
    this.writeState();
  }

  pids(): Partial<Record<PartName, number>> {
    return Object.fromEntries([...this.procs].map(([n, p]) => [n, p.pid]));
  }

  track(name: PartName, proc: ManagedProcess): void {
    this.procs.set(name, proc);
    this.writeState();
    void proc.exited.then(() => {
      if (this.procs.get(name) !== proc) return;
      this.procs.delete(name);
      if (!this.shuttingDown) this.writeState();
      if (this.ready && !this.shuttingDown && !this.stopping.has(name)) {
        const report = `${proc.describeExit()} unexpectedly. Last lines of ${proc.opts.logFile}:\n${proc.tail()}`;
        this.o.log(`✖ ${report}`);
        this.o.onPartExit?.(name, report);
      }
    });
  }

  async stopPart(name: PartName): Promise<void> {
    const proc = this.procs.get(name);
    if (!proc) return;
    this.stopping.add(name);
    try {
      await proc.stop(stopSignal(name), name === 'postgres' ? 30_000 : 10_000);
    } finally {
      this.stopping.delete(name);
      if (this.procs.get(name) === proc) this.procs.delete(name);
      this.writeState();
    }
  }

  /** Starts the shutdown; false when it had already started. */
  beginShutdown(): boolean {
    if (this.shuttingDown) return false;
    this.shuttingDown = true;
    return true;
  }

  /** Stops every part (clients first, the database last), the watchdog and the state file. */
  async stopAll(): Promise<void> {
    await Promise.all(
      (['functions', 'storage', 'auth', 'postgrest', 'mail'] as PartName[]).map((n) =>
        this.stopPart(n),
      ),
    );
    await this.stopPart('postgres');
    if (this.watchdogPid) killGroup(this.watchdogPid, 'SIGKILL');
    rmSync(this.o.stateFile, { force: true });
    process.off('exit', this.onExit);
  }

  private writeState(): void {
    if (this.shuttingDown && this.procs.size === 0) return;
    const state: StackState = {
      pid: process.pid,
      startedAt: this.startedAt,
      portBase: this.o.portBase,
      dataDir: this.o.dataDir,
      ready: this.ready,
      env: this.o.env,
      parts: Object.fromEntries(
        [...this.procs].map(([n, p]) => [n, { pid: p.pid, stopSignal: stopSignal(n) }]),
      ),
      watchdog: this.watchdogPid,
    };
    writeFileSync(this.o.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  }
}
