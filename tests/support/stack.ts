// The one home of helpers that talk to a throwaway local stack, for the integration tests
// (stack from tests/integration/global-setup.ts), the browser tests (e2e/global-setup.ts) and
// the benchmarks alike: its env, supabase-js clients for each role, users, and direct SQL as
// `postgres`. Every helper takes the env last and defaults it to `stackEnv()`.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { nodeClient } from '../../stack/client.ts';
import type { StackEnv } from '../../stack/stack.ts';
import { uniqueEmail } from './names.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackEnv;
  }
}

export type { StackEnv };

/**
 * The stack's env: vitest's `inject('stack')` in the integration project, else STACK_ENV_JSON,
 * else what e2e/global-setup.ts hands the browser-test workers (E2E_STACK_ENV).
 */
export function stackEnv(): StackEnv {
  let env: StackEnv | undefined;
  try {
    env = inject('stack');
  } catch {
    env = undefined; // not inside a vitest worker
  }
  if (env?.API_URL) return env;
  const raw = process.env.STACK_ENV_JSON ?? process.env.E2E_STACK_ENV;
  if (raw) return JSON.parse(raw) as StackEnv;
  throw new Error(
    'no stack env: run through the vitest "integration" project or `npm run test:e2e` (their global-setup starts the stack)',
  );
}

export function anonClient(env = stackEnv()): SupabaseClient {
  return nodeClient(env.API_URL, env.ANON_KEY);
}

export function serviceClient(env = stackEnv()): SupabaseClient {
  return nodeClient(env.API_URL, env.SERVICE_ROLE_KEY);
}

/** A client that sends `token` as its bearer (e.g. a tampered or expired JWT). */
export function clientWithToken(token: string, env = stackEnv()): SupabaseClient {
  return nodeClient(env.API_URL, env.ANON_KEY, { headers: { Authorization: `Bearer ${token}` } });
}

/** A client signed in with e-mail and password (throws when the sign-in fails). */
export async function signedInClient(
  user: { email: string; password: string },
  env = stackEnv(),
): Promise<SupabaseClient> {
  const client = anonClient(env);
  const { error } = await client.auth.signInWithPassword({
    email: user.email,
    password: user.password,
  });
  if (error) throw new Error(`sign-in as ${user.email} failed: ${error.message}`);
  return client;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/**
 * A confirmed account created through the Auth admin API (no mail is sent), with a display name
 * (`name`, 'Test User' unless given).
 */
export async function createConfirmedUser(
  {
    email = uniqueEmail(),
    password = `pw-${randomBytes(8).toString('hex')}`,
    name = 'Test User',
  }: { email?: string; password?: string; name?: string } = {},
  env = stackEnv(),
): Promise<TestUser> {
  const { data, error } = await serviceClient(env).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { display_name: name },
  });
  if (error || !data.user)
    throw new Error(`could not create ${email}: ${error?.message ?? 'no user returned'}`);
  return { id: data.user.id, email, password };
}

/**
 * An admin made the supported way: an invite (service role), then a confirmed account; throws
 * unless the account became an admin.
 */
export async function createAdmin(
  account: { email?: string; password?: string; name?: string } = {},
  env = stackEnv(),
): Promise<TestUser & { name: string }> {
  const { email = uniqueEmail('admin'), name = 'Test User' } = account;
  const service = serviceClient(env);
  const { error } = await service.from('admin_invites').insert({ email });
  if (error) throw new Error(`invite ${email} failed: ${error.message}`);
  const user = await createConfirmedUser({ email, password: account.password, name }, env);
  const { data } = await service.from('admins').select('user_id').eq('user_id', user.id);
  if (data?.length !== 1) throw new Error(`${email} did not become an admin`);
  return { ...user, name };
}

/** Runs SQL as `postgres` (the role migrations run as) on the stack's database. */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  params: unknown[] = [],
  env = stackEnv(),
): Promise<T[]> {
  const client = new pg.Client({ connectionString: env.DB_URL });
  client.on('error', () => undefined); // a stack stopped under a test (outage tests)
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Waits until PostgREST's schema cache knows `table` (DDL notifies it asynchronously through
 * the pgrst_ddl_watch event trigger). A GET is no proof: PostgREST 12 reads a table its cache
 * does not know yet, but answers a PATCH or DELETE on it with 404 until the reload, so this
 * polls the OpenAPI document, which is drawn from the cache.
 */
export async function waitForTable(
  table: string,
  env = stackEnv(),
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${env.REST_URL}/`, {
      headers: { apikey: env.SERVICE_ROLE_KEY, Authorization: `Bearer ${env.SERVICE_ROLE_KEY}` },
    });
    const known =
      res.ok &&
      Boolean(((await res.json()) as { paths?: Record<string, unknown> }).paths?.[`/${table}`]);
    if (!res.ok) await res.body?.cancel();
    if (known) return;
    if (Date.now() > deadline)
      throw new Error(`PostgREST did not pick up table ${table} (last status ${res.status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
