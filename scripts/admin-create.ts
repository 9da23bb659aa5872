/**
 * Creates an admin account on any Supabase project (local stack or hosted):
 *
 *   SUPABASE_URL=… SUPABASE_SERVICE_ROLE_KEY=… \
 *     npm run admin:create -- --email owner@example.com --password '…' --name 'Shop Owner'
 *
 * It goes through the same path as an admin's invite: it records an invite for the e-mail
 * (public.admin_invites, service role) and then creates the user with a confirmed e-mail through
 * the Auth admin API; the database trigger turns the confirmed, invited account into an admin.
 * Nothing here decides admin rights on its own.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeClient } from '../stack/client.ts';

export interface AdminCreateInput {
  email: string;
  password: string;
  name: string;
}

export class UsageError extends Error {}

const USAGE =
  'Usage: npm run admin:create -- --email <e-mail> --password <password> --name <display name>\n' +
  'Environment: SUPABASE_URL (e.g. http://127.0.0.1:54321) and SUPABASE_SERVICE_ROLE_KEY.';

const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const MIN_PASSWORD_LENGTH = 6; // [auth] minimum_password_length; the Auth server has the last word

export function parseArgs(argv: string[]): AdminCreateInput {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const m = /^--(email|password|name)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new UsageError(`Unknown argument "${arg}".`);
    const key = m[1] as string;
    let value = m[2];
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) {
        throw new UsageError(`--${key} needs a value.`);
      }
      i++;
    }
    values[key] = value;
  }
  const email = (values.email ?? '').trim().toLowerCase();
  const password = values.password ?? '';
  const name = (values.name ?? '').trim();
  const missing = ['email', 'password', 'name'].filter((k) => !values[k]?.trim());
  if (missing.length) throw new UsageError(`Missing ${missing.map((k) => `--${k}`).join(', ')}.`);
  if (!EMAIL_RE.test(email) || email.length > 254) {
    throw new UsageError(`"${values.email}" is not a valid e-mail address.`);
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (name.length > 100) throw new UsageError('The name must be at most 100 characters.');
  return { email, password, name };
}

function readEnv(): { url: string; serviceRoleKey: string } {
  const url = process.env.SUPABASE_URL?.trim();
  const serviceRoleKey = process.env.SUPABASE_SERVICE_ROLE_KEY?.trim();
  const missing = [!url && 'SUPABASE_URL', !serviceRoleKey && 'SUPABASE_SERVICE_ROLE_KEY'].filter(
    Boolean,
  );
  if (missing.length || !url || !serviceRoleKey) {
    throw new UsageError(`Set ${missing.join(' and ')} in the environment.`);
  }
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new UsageError(`SUPABASE_URL "${url}" is not an http(s) URL.`);
  }
  return { url, serviceRoleKey };
}

/** Records the invite; an existing, still open invite for the same e-mail is fine. */
async function ensureInvite(db: SupabaseClient, email: string): Promise<boolean> {
  const { error } = await db.from('admin_invites').insert({ email });
  if (!error) return true;
  if (/fetch failed|ECONNREFUSED|ENOTFOUND/i.test(error.message)) {
    throw new Error(`Could not reach the Supabase API: ${error.message}. Check SUPABASE_URL.`);
  }
  if (error.code === 'PGRST301' || /JWT|Invalid API key|No API key/i.test(error.message)) {
    throw new Error(`The API refused the key: ${error.message}. Check SUPABASE_SERVICE_ROLE_KEY.`);
  }
  if (error.code === 'PGRST205' || error.code === '42P01') {
    throw new Error('Table public.admin_invites not found: apply the database migrations first.');
  }
  if (error.message.includes('Email already registered')) {
    throw new Error(
      `An account with ${email} already exists. admin:create only creates new accounts; ` +
        'delete that account first or pick another e-mail.',
    );
  }
  if (error.code === '23505') {
    const { data, error: readError } = await db
      .from('admin_invites')
      .select('accepted_at')
      .eq('email', email)
      .maybeSingle();
    if (readError) throw new Error(`Could not read the existing invite: ${readError.message}`);
    if (data?.accepted_at) {
      throw new Error(`The invite for ${email} was already used; that e-mail is or was an admin.`);
    }
    return false; // an open invite from an earlier attempt
  }
  throw new Error(`Could not record the invite: ${error.message}`);
}

export async function createAdmin(
  input: AdminCreateInput,
  env: { url: string; serviceRoleKey: string },
): Promise<{ id: string; email: string }> {
  const db = nodeClient(env.url, env.serviceRoleKey);

  const createdInvite = await ensureInvite(db, input.email);

  const { data, error } = await db.auth.admin.createUser({
    email: input.email,
    password: input.password,
    email_confirm: true,
    user_metadata: { display_name: input.name },
  });
  if (error || !data.user) {
    // Leave no dangling invite behind, so a corrected retry starts clean.
    if (createdInvite) await db.from('admin_invites').delete().eq('email', input.email);
    const message = error?.message ?? 'no user returned';
    if (error?.code === 'email_exists' || /already (been )?registered/i.test(message)) {
      throw new Error(`An account with ${input.email} already exists.`);
    }
    throw new Error(`The Auth server refused to create the user: ${message}`);
  }

  const { data: admin, error: adminError } = await db
    .from('admins')
    .select('user_id')
    .eq('user_id', data.user.id)
    .maybeSingle();
  if (adminError || !admin) {
    throw new Error(
      `User ${input.email} was created but is not an admin (${adminError?.message ?? 'no admins row'}). ` +
        'Check that the migration with the on_auth_user_confirmed_grant_admin trigger is applied.',
    );
  }
  return { id: data.user.id, email: input.email };
}

async function main(): Promise<void> {
  let input: AdminCreateInput;
  let env: { url: string; serviceRoleKey: string };
  try {
    input = parseArgs(process.argv.slice(2));
    env = readEnv();
  } catch (error) {
    console.error(`admin:create: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  try {
    const admin = await createAdmin(input, env);
    console.log(`Admin created: ${admin.email} (id ${admin.id}). Sign in at /login.`);
  } catch (error) {
    console.error(`admin:create: ${(error as Error).message}`);
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
