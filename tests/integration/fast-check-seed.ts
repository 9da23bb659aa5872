// fast-check takes its seed from the commit under test: a property failure seen on CI replays
// exactly on that commit (same generated inputs), while every new commit still explores new cases.
// FC_SEED=<n> replays the seed a failure printed.
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';

function seedOfCommit(): number | undefined {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return createHash('sha256').update(head).digest().readInt32LE(0);
  } catch {
    return undefined; // not a git checkout: fast-check's own random seed
  }
}

// fast-check seeds are 32-bit integers; `| 0` keeps a pasted larger number usable.
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) | 0 : seedOfCommit();
if (seed !== undefined && Number.isInteger(seed)) fc.configureGlobal({ seed });
