// bench/run.ts's results: one table of [part, measure, value] rows, notes (Lighthouse's
// reasons, query plans) under it, printed and appended with date and machine to
// bench/RESULTS.md. Timings are figures, never a pass or fail.
import { appendFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './run-setup.ts';

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
export const ms = (n: number) => `${Math.round(n)} ms`;
export const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Result rows: [section, measure, value]. */
const rows: [string, string, string][] = [];
export const row = (section: string, measure: string, value: string) => {
  rows.push([section, measure, value]);
  log(`${section} | ${measure} | ${value}`);
};
export const notes: string[] = [];

function table(): string {
  const head: [string, string, string] = ['part', 'measure', 'value'];
  const all = [head, ...rows];
  const w = head.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(w[c]!)).join(' | ')} |`;
  return [line(head), `|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`, ...rows.map(line)].join(
    '\n',
  );
}

/** Prints the report and, unless `write` is false, appends it to bench/RESULTS.md. */
export function report({
  parts,
  started,
  write,
}: {
  parts: Iterable<string>;
  started: number;
  write: boolean;
}): void {
  const cpus = os.cpus();
  const machine = `${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.versions.node}`;
  const heading = `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (${[...parts].join(', ')})`;
  const text = [
    heading,
    '',
    `Machine: ${machine}. Took ${Math.round((Date.now() - started) / 1000)} s.`,
    '',
    table(),
    ...(notes.length
      ? [
          '',
          '<details><summary>Notes and plans</summary>',
          '',
          '```',
          ...notes,
          '```',
          '',
          '</details>',
        ]
      : []),
    '',
  ].join('\n');
  console.log(text);
  if (write) {
    const file = path.join(ROOT, 'bench', 'RESULTS.md');
    if (!existsSync(file)) {
      appendFileSync(
        file,
        '# Benchmark results\n\nAppended by `npm run bench` (bench/run.ts), newest last. Timings come from a shared, noisy machine: compare ratios within one run.\n\n',
      );
    }
    appendFileSync(file, `${text}\n`);
  }
}
