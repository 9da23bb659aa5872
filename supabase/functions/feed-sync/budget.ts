// One invocation's budget (decision 0241): CPU measured with node:process cpuUsage (hosted stops
// a function past 2 s of CPU), wall clock as the fallback and the outer bound.
import process from 'node:process';

function cpuMs(): number | null {
  try {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  } catch {
    return null;
  }
}

export class Budget {
  private readonly cpu0 = cpuMs();
  private readonly wall0 = Date.now();
  private peak = 0;
  private heapPeak = 0;

  constructor(
    private readonly cpuBudgetMs: number,
    private readonly wallBudgetMs: number,
  ) {
    this.sample();
  }

  /** CPU ms used by this invocation so far (wall clock when CPU cannot be measured). */
  cpuUsed(): number {
    const now = cpuMs();
    return now === null || this.cpu0 === null ? Date.now() - this.wall0 : now - this.cpu0;
  }

  spent(): boolean {
    this.sample();
    return this.cpuUsed() >= this.cpuBudgetMs || Date.now() - this.wall0 >= this.wallBudgetMs;
  }

  /**
   * Memory now (MB), remembered as peaks: resident size of the process, and V8's heap in use
   * plus external memory, which is what the hosted runtime holds against its limit (it reads
   * used_heap_size + external_memory, not the process's resident size).
   */
  sample(): number {
    let rss = 0;
    try {
      const m = Deno.memoryUsage();
      rss = Math.ceil(m.rss / (1024 * 1024));
      this.heapPeak = Math.max(this.heapPeak, Math.ceil((m.heapUsed + m.external) / (1024 * 1024)));
    } catch {
      // not in Deno (unit tests)
    }
    this.peak = Math.max(this.peak, rss);
    return rss;
  }

  peakRssMb(): number {
    return this.peak;
  }

  peakHeapMb(): number {
    return this.heapPeak;
  }
}
