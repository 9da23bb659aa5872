// Orphan guard, started detached by stack/stack.ts: when the supervising process dies without
// stopping the stack (SIGKILL, crash), this ends every part listed in the state file.
// Plain JavaScript so it starts in milliseconds without a TypeScript loader.
// Usage: node stack/watchdog.mjs <supervisor pid> <state file>
import { readFileSync, rmSync } from 'node:fs';

const [supervisor, stateFile] = [Number(process.argv[2]), process.argv[3]];

function alive(pid, group = false) {
  try {
    process.kill(group ? -pid : pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function readParts() {
  try {
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    if (state.pid !== supervisor) return null; // a newer stack owns the file now
    return Object.values(state.parts ?? {});
  } catch {
    return null;
  }
}

async function cleanUp() {
  const parts = readParts();
  if (!parts) return;
  for (const part of parts) signalGroup(part.pid, part.stopSignal ?? 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && parts.some((p) => alive(p.pid, true))) {
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const part of parts) signalGroup(part.pid, 'SIGKILL');
  rmSync(stateFile, { force: true });
}

const timer = setInterval(() => {
  if (alive(supervisor)) return;
  clearInterval(timer);
  cleanUp().finally(() => process.exit(0));
}, 500);
