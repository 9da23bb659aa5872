// Port choice for the local stack: a free range for a throwaway stack, and the check that the
// configured ports are free before anything starts.
import { readFileSync } from 'node:fs';
import { PORT_SPAN, type StackConfig } from './config.ts';
import { portFree } from './process.ts';

/** The kernel's ephemeral port range (outgoing connections take local ports from it). */
function ephemeralPorts(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (lo && hi) return [lo, hi];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}

/**
 * Ports that fetch refuses to connect to ("bad port", the Fetch standard's port blocking list).
 * Only those at 10000 and above matter here: throwaway stacks start there.
 */
const FETCH_BLOCKED_PORTS = [10080];

/** Whether a stack at this base would put one of its parts on a port fetch refuses. */
export function rangeHasBlockedPort(base: number): boolean {
  return FETCH_BLOCKED_PORTS.some((p) => p >= base && p <= base + PORT_SPAN);
}

/**
 * A port base whose whole range (base..base+PORT_SPAN) is free, for throwaway stacks. Chosen
 * outside the ephemeral range (so an outgoing connection cannot grab a port between this check
 * and the bind) and away from the default 54321-54340, in steps of 20 so that stacks started
 * side by side never overlap.
 */
export async function findFreePortBase(): Promise<number> {
  const [ephLo, ephHi] = ephemeralPorts();
  const above: [number, number] = [ephHi + 1, 65535 - PORT_SPAN];
  const below: [number, number] = [10000, ephLo - PORT_SPAN - 1];
  const [lo, hi] = above[1] - above[0] >= below[1] - below[0] ? above : below;
  const slots = Math.floor((hi - lo) / 20);
  if (slots < 1) throw new Error('no port range outside the ephemeral ports for a throwaway stack');
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = lo + Math.floor(Math.random() * slots) * 20;
    if (base <= 54340 && base + PORT_SPAN >= 54321) continue;
    if (rangeHasBlockedPort(base)) continue;
    let free = true;
    for (let p = base; p <= base + PORT_SPAN && free; p++) free = await portFree(p);
    if (free) return base;
  }
  throw new Error('no free port range found for a throwaway stack');
}

/** Whether every port of the stack at `base` (base..base+PORT_SPAN) is free. */
async function rangeFree(base: number): Promise<boolean> {
  for (let p = base; p <= base + PORT_SPAN; p++) if (!(await portFree(p))) return false;
  return true;
}

/**
 * A port base near the configured one whose whole range is free (steps of 100: 54421, 54521,
 * …), so the command the busy-ports message names works; null when none of 20 tries is free.
 */
export async function suggestPortBase(config: StackConfig): Promise<number | null> {
  for (let step = 1; step <= 20; step++) {
    const base = config.ports.api + step * 100;
    if (base + PORT_SPAN > 65535) break;
    if (!rangeHasBlockedPort(base) && (await rangeFree(base))) return base;
  }
  return null;
}

/**
 * What to do when ports are busy (REQ-PATH-17): stop the other stack, or start beside it with a
 * command that works as typed, and where the API and the mail catcher then are (they move with
 * the port base; the status table shows them again once started).
 */
export function busyPortsMessage(config: StackConfig, busy: string[], base: number | null): string {
  const lines = [
    `ports in use: ${busy.join(', ')}`,
    'Another local stack (or another program) is using them. Either stop it (Ctrl+C in its',
    'terminal, or `npm run stack -- stop`), or start this one beside it on other ports:',
  ];
  if (base === null) {
    lines.push('  npm start -- --port-base <n>   (n: a free port; the stack uses n to n+13)');
  } else {
    const api = config.ports.api;
    lines.push(
      `  npm start -- --port-base ${base}`,
      `  (or: npm run stack -- start --port-base ${base})`,
      `Then the API is at http://127.0.0.1:${base} and the mail catcher (Mailpit) moves to`,
      `http://127.0.0.1:${base + (config.ports.mailWeb - api)} (SMTP ${base + (config.ports.smtp - api)}).`,
    );
  }
  return lines.join('\n');
}

export async function checkPortsFree(config: StackConfig): Promise<void> {
  const busy: string[] = [];
  for (const [name, port] of Object.entries(config.ports)) {
    if (!(await portFree(port))) busy.push(`${name} ${port}`);
  }
  if (busy.length > 0) {
    throw new Error(busyPortsMessage(config, busy, await suggestPortBase(config)));
  }
}
