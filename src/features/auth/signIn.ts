import type { SupabaseClient } from '@supabase/supabase-js';

/** What a sign-in attempt on /login ended in; each maps to one message or step. */
export type SignInOutcome = 'ok' | 'code' | 'enrol' | 'verify-first' | 'not-admin' | 'failed';

type Client = Pick<SupabaseClient, 'auth' | 'rpc'>;

/**
 * Signs in with e-mail and password and lets only confirmed store admins stay signed in.
 * - unconfirmed e-mail (`email_not_confirmed`): no session is created → 'verify-first'
 * - the account has a verified two-factor factor (aal1 now, aal2 possible): the session stays
 *   for the code step → 'code' (REQ-MFA-1)
 * - confirmed but `is_admin()` is false: signed out again → 'not-admin', unless the database says
 *   this admin must first turn on two-factor sign-in → 'enrol' (REQ-MFA-2, decision 0252)
 * - anything else that fails (wrong password, network, the admin check): signed out → 'failed'
 */
export async function signInAdmin(
  client: Client,
  email: string,
  password: string,
): Promise<SignInOutcome> {
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error) {
    if (error.code === 'email_not_confirmed') return 'verify-first';
    console.error('Sign-in failed', error);
    return 'failed';
  }
  // The spec's rule "no admin marker without a verified e-mail", should the server ever be set
  // up without confirmations.
  if (!data.user.email_confirmed_at) {
    await signOutQuietly(client);
    return 'verify-first';
  }
  try {
    // Read from the new session's token and user (no request): aal1 now, a verified factor.
    const { data: aal, error: aalError } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    if (aalError) throw aalError;
    if (aal.currentLevel === 'aal1' && aal.nextLevel === 'aal2') return 'code';
  } catch (aalFailure) {
    console.error('Reading the assurance level failed', aalFailure);
    await signOutQuietly(client);
    return 'failed';
  }
  return adminCheck(client, true);
}

/**
 * After the password (and the code, if any): whether the database lets this session in as an
 * admin. Anyone it does not is signed out again; `mayEnrol` keeps an admin whom the store
 * requires to turn on two-factor sign-in (the admin area then shows only that).
 */
export async function adminCheck(client: Client, mayEnrol = false): Promise<SignInOutcome> {
  try {
    const { data: isAdmin, error: rpcError } = await client.rpc('is_admin');
    if (rpcError) throw rpcError;
    if (isAdmin === true) return 'ok';
  } catch (rpcFailure) {
    console.error('Admin status check failed', rpcFailure);
    await signOutQuietly(client);
    return 'failed';
  }
  if (mayEnrol && (await mustEnrol(client))) return 'enrol';
  await signOutQuietly(client);
  return 'not-admin';
}

async function mustEnrol(client: Client): Promise<boolean> {
  const { data, error } = await client.rpc('my_admin_access');
  if (error) {
    console.error('Checking what admin access needs failed', error);
    return false;
  }
  const access = data as { admin?: unknown; needs?: unknown } | null;
  return access?.admin === true && access.needs === 'enrol';
}

async function signOutQuietly(client: Pick<SupabaseClient, 'auth'>): Promise<void> {
  // 'local' ends just this new session; other sessions of the account are not ours to end.
  const { error } = await client.auth.signOut({ scope: 'local' });
  if (error) console.error('Sign-out after refused login failed', error);
}
