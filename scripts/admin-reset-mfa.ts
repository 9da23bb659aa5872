/**
 * Removes every two-factor (MFA) factor of an account, on any Supabase project (local stack or
 * hosted): the way back in for an admin who lost the phone with the authenticator app when no
 * other admin can remove the factor (REQ-MFA-1, decision 0250).
 *
 *   SUPABASE_URL=… SUPABASE_SERVICE_ROLE_KEY=… npm run admin:reset-mfa -- owner@example.com
 *
 * It goes through the Auth admin API with the service role (auth.admin.mfa.listFactors and
 * deleteFactor), as an admin's "remove a colleague's factor" does. The account's sessions that
 * reached aal2 with a removed factor drop back to aal1; its next sign-in needs no code.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeClient } from '../stack/client.ts';

export class UsageError extends Error {}

const USAGE =
  'Usage: npm run admin:reset-mfa -- <e-mail>\n' +
  'Environment: SUPABASE_URL (e.g. http://127.0.0.1:54321) and SUPABASE_SERVICE_ROLE_KEY.';

const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const PER_PAGE = 1000;

export function parseArgs(argv: string[]): string {
  const args = argv.filter((a) => a !== '--');
  if (args.length !== 1) throw new UsageError('Give exactly one e-mail address.');
  const email = args[0]!.trim().toLowerCase();
  if (!EMAIL_RE.test(email)) throw new UsageError(`"${args[0]}" is not a valid e-mail address.`);
  return email;
}

function readEnv(): { url: string; serviceRoleKey: string } {
  const url = process.env.SUPABASE_URL?.trim();
  const serviceRoleKey = process.env.SUPABASE_SERVICE_ROLE_KEY?.trim();
  if (!url || !serviceRoleKey) {
    const missing = [!url && 'SUPABASE_URL', !serviceRoleKey && 'SUPABASE_SERVICE_ROLE_KEY'];
    throw new UsageError(`Set ${missing.filter(Boolean).join(' and ')} in the environment.`);
  }
  return { url, serviceRoleKey };
}

/** The account's id, paging through the admin user list (the admin API has no exact lookup). */
async function findUserId(db: SupabaseClient, email: string): Promise<string> {
  for (let page = 1; ; page++) {
    const { data, error } = await db.auth.admin.listUsers({ page, perPage: PER_PAGE });
    if (error) throw new Error(`Could not list the accounts: ${error.message}`);
    const hit = data.users.find((u) => (u.email ?? '').toLowerCase() === email);
    if (hit) return hit.id;
    if (data.users.length < PER_PAGE) throw new Error(`No account with the e-mail ${email}.`);
  }
}

/** Removes all factors of the account; answers how many there were. */
export async function resetMfa(db: SupabaseClient, email: string): Promise<number> {
  const userId = await findUserId(db, email);
  const { data, error } = await db.auth.admin.mfa.listFactors({ userId });
  if (error) throw new Error(`Could not list the factors of ${email}: ${error.message}`);
  for (const factor of data.factors) {
    const { error: deleteError } = await db.auth.admin.mfa.deleteFactor({ userId, id: factor.id });
    if (deleteError)
      throw new Error(`Could not remove factor ${factor.id} of ${email}: ${deleteError.message}`);
  }
  return data.factors.length;
}

async function main(): Promise<void> {
  let email: string;
  let env: { url: string; serviceRoleKey: string };
  try {
    email = parseArgs(process.argv.slice(2));
    env = readEnv();
  } catch (error) {
    console.error(`admin:reset-mfa: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  try {
    const removed = await resetMfa(nodeClient(env.url, env.serviceRoleKey), email);
    console.log(
      removed === 0
        ? `${email} has no two-factor sign-in; nothing to remove.`
        : `Removed ${removed} two-factor factor(s) of ${email}. The next sign-in needs no code.`,
    );
  } catch (error) {
    console.error(`admin:reset-mfa: ${(error as Error).message}`);
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
