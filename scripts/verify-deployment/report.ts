// One line of the deployment check's table: what was checked, whether it holds, and for a
// failure what to change and where (docs/decisions/0205).
export type Status = 'ok' | 'FAIL' | 'skip';

export interface Line {
  status: Status;
  check: string;
  detail: string;
  /** For a failure: what to change and where (README section, dashboard setting, command). */
  fix?: string;
}

export const ok = (check: string, detail: string): Line => ({ status: 'ok', check, detail });
export const fail = (check: string, detail: string, fix: string): Line => ({
  status: 'FAIL',
  check,
  detail,
  fix,
});
export const skip = (check: string, detail: string): Line => ({ status: 'skip', check, detail });

/** Thrown inside a check to end it as a failure with a fix. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

/** Runs one check; an unexpected error becomes a failing line instead of ending the run. */
export async function guarded(
  check: string,
  fix: string,
  run: () => Promise<Line | Line[]>,
): Promise<Line[]> {
  try {
    const lines = await run();
    return Array.isArray(lines) ? lines : [lines];
  } catch (error) {
    if (error instanceof CheckFailure) return [fail(check, error.message, error.fix)];
    return [fail(check, error instanceof Error ? error.message : String(error), fix)];
  }
}

const WIDTH = 46;

/** The table: one row per check, each failure followed by what to change. */
export function formatTable(lines: Line[]): string {
  const out = [`  ${'RESULT'.padEnd(6)}  ${'CHECK'.padEnd(WIDTH)}  DETAIL`];
  for (const line of lines) {
    const detail = line.detail.replace(/\s+/g, ' ').trim();
    out.push(`  ${line.status.padEnd(6)}  ${line.check.padEnd(WIDTH)}  ${detail}`);
    if (line.status === 'FAIL' && line.fix) out.push(`  ${''.padEnd(6)}  → fix: ${line.fix}`);
  }
  const failed = lines.filter((l) => l.status === 'FAIL').length;
  const held = lines.filter((l) => l.status === 'ok').length;
  const skipped = lines.filter((l) => l.status === 'skip').length;
  out.push(
    '',
    `${held} hold, ${failed} fail, ${skipped} not checked` +
      (failed ? ': the deployment does not match the repository.' : '.'),
  );
  return out.join('\n');
}
