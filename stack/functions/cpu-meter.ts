// Runs on a thread of its own inside an edge function's worker process (worker.ts) and reports
// the process's CPU time to the router (workers.ts) every 50 ms, so a function that keeps the
// main thread busy is still measured (decision 0204). /proc is closed to Deno without
// --allow-all; getrusage through node:process is not.
import process from 'node:process';

const CPU_MARK = '__edge_worker_cpu__';
const encoder = new TextEncoder();

setInterval(() => {
  const { user, system } = process.cpuUsage();
  Deno.stdout.writeSync(encoder.encode(`${CPU_MARK} ${Math.round((user + system) / 1000)}\n`));
}, 50);
