// Start-up time of the local stack: 3 cold starts (new data dir: initdb, bootstrap, auth
// schema, migrations, seed) and 3 warm starts (existing data dir), each measured from
// startStack() to "ready" (every part answering, gateway listening). Prints a small table with
// the medians. Run: npx tsx bench/stack-start.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFreePortBase, startStack } from '../stack/stack.ts';

const RUNS = 3;

async function timeStart(portBase: number, dataDir: string): Promise<number> {
  const t0 = performance.now();
  const stack = await startStack({ portBase, dataDir });
  const ms = performance.now() - t0;
  // Ready means usable: one real request through the gateway before the clock is read again.
  const res = await fetch(`${stack.env.REST_URL}/`, { headers: { apikey: stack.env.ANON_KEY } });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`stack answered ${res.status} after start`);
  await stack.stop();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const root = mkdtempSync(path.join(tmpdir(), 'mar-stack-bench-'));
try {
  const portBase = await findFreePortBase();
  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = path.join(root, `cold-${i}`);
    cold.push(await timeStart(portBase, dir));
    if (i < RUNS - 1) rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`cold start ${i + 1}: ${fmt(cold[i]!)}\n`);
  }
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    warm.push(await timeStart(portBase, path.join(root, `cold-${RUNS - 1}`)));
    process.stderr.write(`warm start ${i + 1}: ${fmt(warm[i]!)}\n`);
  }
  const rows = [
    ['start', ...Array.from({ length: RUNS }, (_, i) => `run ${i + 1}`), 'median'],
    ['cold (new data dir)', ...cold.map(fmt), fmt(median(cold))],
    ['warm (existing data)', ...warm.map(fmt), fmt(median(warm))],
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  console.log(line(rows[0]!));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows.slice(1)) console.log(line(r));
} finally {
  rmSync(root, { recursive: true, force: true });
}
