// What the deployment check knows about its target: the API and site addresses, the anon key,
// optional admin credentials, and clients built from them. Nothing here writes anything.
import type { SupabaseClient } from '@supabase/supabase-js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeClient } from '../../stack/client.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A browser's User-Agent: Buy Now counts only what a browser sends (migration …1800). */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 ' +
  'Safari/537.36 MAR-deployment-check';

export interface Options {
  api: string;
  site: string;
  anonKey: string;
  admin: { email: string; password: string } | null;
  expectAddress: string | null;
}

export class UsageError extends Error {}

export const USAGE = `Usage: npm run verify:deployment -- --api https://<ref>.supabase.co --site https://<shop>
  [--expect-address <your public IP>]
Environment: SUPABASE_ANON_KEY (or VITE_SUPABASE_ANON_KEY); optional VERIFY_ADMIN_EMAIL and
VERIFY_ADMIN_PASSWORD for the admin checks (migrations, admin RPCs, CSV import, Insights, uploads).`;

function origin(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} is not a URL: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`${flag} must be an http(s) address`);
  return url.origin;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = /^(--[a-z-]+)=(.*)$/.exec(arg);
    if (eq) values.set(eq[1]!, eq[2]!);
    else if (['--api', '--site', '--expect-address'].includes(arg) && argv[i + 1] !== undefined)
      values.set(arg, argv[++i]!);
    else throw new UsageError(`unknown argument ${arg}`);
  }
  const api = values.get('--api');
  const site = values.get('--site');
  if (!api || !site) throw new UsageError('--api and --site are required');
  const anonKey = env.SUPABASE_ANON_KEY || env.VITE_SUPABASE_ANON_KEY;
  if (!anonKey) throw new UsageError('set SUPABASE_ANON_KEY (the project’s anon key)');
  const email = env.VERIFY_ADMIN_EMAIL;
  const password = env.VERIFY_ADMIN_PASSWORD;
  return {
    api: origin(api, '--api'),
    site: origin(site, '--site'),
    anonKey,
    admin: email && password ? { email, password } : null,
    expectAddress: values.get('--expect-address') ?? null,
  };
}

/** No request of the check waits longer than this for an answer (a hung host is a failure). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** fetch with the check's timeout, unless the caller brings a signal of its own. */
export const timedFetch: typeof fetch = (input, init) =>
  fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

export function anonClient(o: Options, headers?: Record<string, string>): SupabaseClient {
  return nodeClient(o.api, o.anonKey, { ...(headers ? { headers } : {}), fetch: timedFetch });
}

/** A signed-in admin client, or the reason there is none. */
export async function adminClient(o: Options): Promise<SupabaseClient | string> {
  if (!o.admin) return 'no VERIFY_ADMIN_EMAIL / VERIFY_ADMIN_PASSWORD';
  const client = anonClient(o);
  const { error } = await client.auth.signInWithPassword(o.admin);
  if (error) return `admin sign-in failed: ${error.message}`;
  return client;
}

/** The PostgREST error code of a missing function (schema cache lookup failed). */
export const FUNCTION_MISSING = 'PGRST202';
