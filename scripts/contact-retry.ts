/**
 * Re-sends stored contact messages whose e-mail failed or never went out:
 *
 *   npm run contact:retry                       # the local stack started with `npm start`
 *   SUPABASE_URL=https://<ref>.supabase.co SUPABASE_SERVICE_ROLE_KEY=… npm run contact:retry
 *
 * It calls the contact function's retry route (POST /functions/v1/contact/retry, service role
 * key only). The function claims the undelivered rows atomically before sending each one, so two
 * retries running at once never send the same message twice. Batches repeat while they make
 * progress. Each call also sends one digest of the messages stored past the daily mail cap
 * (docs/decisions/0203). Exit code: 0 all delivered (or nothing to do), 1 some still failing, 2 set-up error.
 *
 * Options: --limit <n> messages per batch (default 25, max 500).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RetryBatch {
  claimed: number;
  sent: number;
  failed: number;
  results: { id: string; status: 'sent' | 'failed'; error?: string }[];
  /** The digest mail of this call (absent from a function older than the daily mail cap). */
  digest?: { messages: number; sent: boolean; error?: string };
}

export interface RetrySummary {
  batches: number;
  claimed: number;
  sent: number;
  failed: { id: string; error: string }[];
  /** Messages delivered in digest mails; a digest that failed is listed in `failed`. */
  digestSent: number;
}

export class SetupError extends Error {}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** URL and key: from the environment, else from the running local stack's state file. */
export function resolveTarget(env: NodeJS.ProcessEnv = process.env): { url: string; key: string } {
  const url = (env.SUPABASE_URL ?? env.API_URL)?.trim();
  const key = (env.SUPABASE_SERVICE_ROLE_KEY ?? env.SERVICE_ROLE_KEY)?.trim();
  if (url && key) return { url: url.replace(/\/+$/, ''), key };
  if (url || key) {
    throw new SetupError(
      'Set both SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (or neither, for the local stack).',
    );
  }
  const dataDir = env.STACK_DATA_DIR
    ? path.resolve(env.STACK_DATA_DIR)
    : path.join(REPO_ROOT, '.stack', 'data');
  try {
    const state = JSON.parse(readFileSync(path.join(dataDir, 'stack.json'), 'utf8')) as {
      env?: { API_URL?: string; SERVICE_ROLE_KEY?: string };
    };
    if (state.env?.API_URL && state.env.SERVICE_ROLE_KEY) {
      return { url: state.env.API_URL, key: state.env.SERVICE_ROLE_KEY };
    }
  } catch {
    // fall through to the error below
  }
  throw new SetupError(
    'No local stack is running (start it with `npm start`), and SUPABASE_URL / SUPABASE_SERVICE_ROLE_KEY are not set.',
  );
}

async function callRetry(target: { url: string; key: string }, limit: number): Promise<RetryBatch> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    apikey: target.key,
  };
  // An opaque sb_secret_ key goes in apikey only; the gateway turns it into the service JWT.
  if (!target.key.startsWith('sb_')) headers.authorization = `Bearer ${target.key}`;
  let res: Response;
  try {
    res = await fetch(`${target.url}/functions/v1/contact/retry`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ limit }),
    });
  } catch (err) {
    throw new SetupError(`Could not reach ${target.url}: ${(err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string; message?: string }).error ?? message;
    } catch {
      // not JSON: keep the text
    }
    throw new SetupError(`The contact function answered HTTP ${res.status}: ${message}`);
  }
  return JSON.parse(text) as RetryBatch;
}

export async function runRetry(
  target: { url: string; key: string },
  limit = 25,
): Promise<RetrySummary> {
  // Last outcome per message: one that failed in a batch may be delivered by a later one.
  const outcome = new Map<string, { status: 'sent' | 'failed'; error?: string }>();
  let batches = 0;
  let digestSent = 0;
  const digestFailed: { id: string; error: string }[] = [];
  for (;;) {
    const batch = await callRetry(target, limit);
    batches++;
    for (const r of batch.results) outcome.set(r.id, { status: r.status, error: r.error });
    if (batch.digest && batch.digest.messages > 0) {
      if (batch.digest.sent) digestSent += batch.digest.messages;
      else
        digestFailed.push({
          id: `digest of ${batch.digest.messages} message(s)`,
          error: batch.digest.error ?? 'unknown error',
        });
    }
    // A full batch that delivered something may have more behind it; otherwise stop, so a
    // provider that is still down does not loop over the same failing rows.
    if (batch.claimed < limit || batch.sent === 0) break;
  }
  const failed = [...outcome].filter(([, o]) => o.status === 'failed');
  return {
    batches,
    claimed: outcome.size,
    sent: outcome.size - failed.length,
    failed: [
      ...failed.map(([id, o]) => ({ id, error: o.error ?? 'unknown error' })),
      ...digestFailed,
    ],
    digestSent,
  };
}

function parseLimit(argv: string[]): number {
  let limit = 25;
  for (let i = 0; i < argv.length; i++) {
    const m = /^--limit(?:=(.*))?$/.exec(argv[i] ?? '');
    if (!m)
      throw new SetupError(
        `Unknown argument "${argv[i]}". Usage: npm run contact:retry [-- --limit <n>]`,
      );
    const value = m[1] ?? argv[++i];
    limit = Number(value);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      throw new SetupError('--limit must be an integer between 1 and 500.');
    }
  }
  return limit;
}

async function main(): Promise<void> {
  try {
    const limit = parseLimit(process.argv.slice(2));
    const target = resolveTarget();
    const summary = await runRetry(target, limit);
    if (summary.claimed === 0 && summary.digestSent === 0 && summary.failed.length === 0) {
      console.log('contact:retry: nothing to send, every stored message has been delivered.');
      return;
    }
    if (summary.claimed > 0)
      console.log(`contact:retry: ${summary.sent} of ${summary.claimed} message(s) sent.`);
    if (summary.digestSent > 0)
      console.log(`contact:retry: ${summary.digestSent} message(s) sent in a digest.`);
    for (const f of summary.failed) console.error(`  still failing: ${f.id}: ${f.error}`);
    if (summary.failed.length > 0) process.exitCode = 1;
  } catch (err) {
    console.error(`contact:retry: ${(err as Error).message}`);
    process.exitCode = err instanceof SetupError ? 2 : 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
