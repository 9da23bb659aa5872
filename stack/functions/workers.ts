// Edge functions under hosted's limits (decision 0204, stack/PLATFORM.md: Edge functions): each
// function runs in a Deno process of its own (worker.ts), as each runs in its own worker on
// hosted, and every request is held to
// - memory: the worker's V8 heap is capped (`--max-old-space-size`); running out ends it. Hosted
//   creates each worker's isolate with heap limits of (0, 256 MB), from which V8 also sizes the
//   young generation (old generation / 128, about 2 MB a semi-space); a Deno process sizes it
//   for a desktop (16 MB), which let garbage pile up to tens of MB before a scavenge. So the
//   semi-space is capped too (`--max-semi-space-size`);
// - CPU time: the worker's CPU time while the request runs (reported by the worker's own
//   measuring thread, cpu-meter.ts; time spent waiting for I/O does not count) over the limit
//   ends it;
// - wall clock: a request (its response body included) running longer ends the worker;
// - request idle timeout: no response within the limit is answered 504, the worker lives on.
// A worker ended by a limit fails its requests with hosted's 546 answer and is started afresh
// for the next request.

export interface Limits {
  memoryMb: number;
  cpuMs: number;
  wallClockMs: number;
  idleTimeoutMs: number;
}

/** Hosted's (free plan): 256 MB, 2 s CPU per request, 150 s wall clock, 150 s idle timeout. */
export const HOSTED_LIMITS: Limits = {
  memoryMb: 256,
  cpuMs: 2_000,
  wallClockMs: 150_000,
  idleTimeoutMs: 150_000,
};

/** V8's semi-space for a heap limit, as its ConfigureDefaultsFromHeapSize picks it (≥ 1 MB). */
const semiSpaceMb = (memoryMb: number) => Math.max(1, Math.round(memoryMb / 128));

/** Printed by worker.ts once the function listens, and by cpu-meter.ts with the CPU time. */
const READY_MARK = '__edge_worker_listening__';
const CPU_MARK = '__edge_worker_cpu__';
const WORKER_FILE = new URL('./worker.ts', import.meta.url).pathname;
const BOOT_TIMEOUT_MS = 60_000;

type Ending = 'cpu' | 'wall' | 'memory' | 'exit';

const ENDING_LOG: Record<Ending, string> = {
  cpu: 'CPU time exceeded',
  wall: 'wall clock duration reached',
  memory: 'Memory limit exceeded',
  exit: 'worker exited',
};

export function failure(status: number, code: string, message: string): Response {
  return Response.json(
    { code, message },
    {
      status,
      headers: { 'sb-error-code': code, 'access-control-expose-headers': 'sb-error-code' },
    },
  );
}

// Hosted's answers (the runtime's main service): 546 when a limit ended the worker, 504 when
// nothing came back within the idle timeout. Hosted named the 546 code WORKER_LIMIT until 2026.
const resourceLimit = () =>
  failure(
    546,
    'WORKER_RESOURCE_LIMIT',
    'Function failed due to not having enough compute resources (please check logs)',
  );
const workerError = () =>
  failure(500, 'WORKER_ERROR', 'Function exited due to an error (please check logs)');

async function eachLine(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void) {
  let rest = '';
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    const lines = (rest + text).split('\n');
    rest = lines.pop() ?? '';
    lines.forEach(onLine);
  }
  if (rest) onLine(rest);
}

class FunctionWorker {
  readonly ready: Promise<number>;
  readonly ended: Promise<Ending>;
  private readonly proc: Deno.ChildProcess;
  private endedFor: Ending | null = null;
  /** The worker's CPU time so far (ms), as last reported; null until the first report. */
  cpuMs: number | null = null;
  gone = false;

  constructor(
    readonly name: string,
    entry: string,
    cwd: string,
    limits: Limits,
    denoArgs: string[],
  ) {
    this.proc = new Deno.Command(Deno.execPath(), {
      args: [
        'run',
        ...denoArgs,
        `--v8-flags=--max-old-space-size=${limits.memoryMb},--max-semi-space-size=${semiSpaceMb(limits.memoryMb)}`,
        WORKER_FILE,
        name,
        entry,
      ],
      cwd,
      stdin: 'piped',
      stdout: 'piped',
      stderr: 'piped',
    }).spawn();
    let outOfMemory = false;
    let listening: (port: number) => void = () => undefined;
    const port = new Promise<number>((resolve) => (listening = resolve));
    const stdout = eachLine(this.proc.stdout, (line) => {
      if (line.startsWith(CPU_MARK)) this.cpuMs = Number(line.slice(CPU_MARK.length));
      else if (line.startsWith(READY_MARK)) listening(Number(line.slice(READY_MARK.length)));
      else console.log(line);
    });
    const stderr = eachLine(this.proc.stderr, (line) => {
      if (/out of memory|heap limit/i.test(line)) outOfMemory = true;
      console.error(line);
    });
    this.ended = Promise.all([this.proc.status, stdout, stderr]).then(() => {
      this.gone = true;
      const ending = this.endedFor ?? (outOfMemory ? 'memory' : 'exit');
      console.error(`[functions] ${name}: ${ENDING_LOG[ending]}; worker stopped`);
      return ending;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.ready = Promise.race([
      port,
      this.ended.then(() => Promise.reject(new Error(`function "${name}" failed to boot`))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`function "${name}" boot timed out`)),
          BOOT_TIMEOUT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    this.ready.catch(() => this.end('exit'));
  }

  end(reason: Ending): void {
    this.endedFor ??= reason;
    try {
      this.proc.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host'];

export class WorkerPool {
  private readonly workers = new Map<string, FunctionWorker>();

  constructor(
    private readonly entryFile: (name: string) => string,
    private readonly cwd: string,
    readonly limits: Limits,
    private readonly denoArgs: string[],
  ) {}

  /** Ends every worker (the router is stopping). */
  stopAll(): void {
    for (const w of this.workers.values()) w.end('exit');
  }

  /** The function's running worker, started when there is none. */
  async worker(name: string): Promise<FunctionWorker> {
    let w = this.workers.get(name);
    if (!w || w.gone) {
      const fresh = new FunctionWorker(
        name,
        this.entryFile(name),
        this.cwd,
        this.limits,
        this.denoArgs,
      );
      this.workers.set(name, fresh);
      void fresh.ended.then(() => {
        if (this.workers.get(name) === fresh) this.workers.delete(name);
      });
      w = fresh;
    }
    await w.ready;
    return w;
  }

  async handle(name: string, req: Request): Promise<Response> {
    let w: FunctionWorker;
    let port: number;
    try {
      w = await this.worker(name);
      port = await w.ready;
    } catch (err) {
      console.error(`[functions] ${name} failed to boot:`, err);
      return failure(503, 'BOOT_ERROR', 'Worker failed to boot (please check logs)');
    }
    const { limits } = this;
    const url = new URL(req.url);
    const abort = new AbortController();
    const cpuStart = w.cpuMs ?? 0;
    const wallTimer = setTimeout(() => w.end('wall'), limits.wallClockMs);
    // After an idle timeout the handler may still be running in the worker: its CPU time keeps
    // being counted until it stops growing.
    let answered = false;
    let lastCpu = cpuStart;
    let lastGrowth = Date.now();
    const cpuWatch = setInterval(() => {
      const now = w.cpuMs ?? 0;
      if (now - cpuStart > limits.cpuMs) w.end('cpu');
      if (now > lastCpu) [lastCpu, lastGrowth] = [now, Date.now()];
      else if (answered && Date.now() - lastGrowth > 1_000) clearInterval(cpuWatch);
    }, 50);
    const done = () => {
      clearTimeout(wallTimer);
      clearInterval(cpuWatch);
    };

    const headers = new Headers(req.headers);
    HOP_BY_HOP.forEach((h) => headers.delete(h));
    const upstream = fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      body: req.body,
      redirect: 'manual',
      signal: abort.signal,
    });
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      upstream.then(
        (res) => ({ res }) as const,
        (err: unknown) => ({ err }) as const,
      ),
      w.ended.then((ending) => ({ ending }) as const),
      new Promise<{ idle: true }>((resolve) => {
        idleTimer = setTimeout(() => resolve({ idle: true }), limits.idleTimeoutMs);
      }),
    ]);
    clearTimeout(idleTimer);

    if ('idle' in outcome) {
      clearTimeout(wallTimer);
      answered = true;
      abort.abort();
      console.error(`[functions] ${name}: request idle timeout (${limits.idleTimeoutMs} ms)`);
      return failure(
        504,
        'IDLE_TIMEOUT',
        `Request idle timeout limit (${Math.round(limits.idleTimeoutMs / 1000)}s) reached`,
      );
    }
    if (!('res' in outcome)) {
      done();
      // A failed fetch is the worker ending under it, or (rarely) the worker's own error.
      const ending =
        'ending' in outcome
          ? outcome.ending
          : await Promise.race([
              w.ended,
              new Promise<null>((r) => setTimeout(() => r(null), 2_000)),
            ]);
      return ending && ending !== 'exit' ? resourceLimit() : workerError();
    }
    const { res } = outcome;
    if (!res.body) {
      done();
      return new Response(null, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    }
    // The body streams through; the limits keep watching until it ends.
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            done();
            controller.close();
          } else controller.enqueue(chunk.value);
        } catch (err) {
          done();
          controller.error(err);
        }
      },
      cancel(reason) {
        done();
        abort.abort();
        return reader.cancel(reason).catch(() => undefined);
      },
    });
    return new Response(body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  }
}
