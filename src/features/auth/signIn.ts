import type { SupabaseClient } from '@supabase/supabase-js';

/** What a sign-in attempt on /login ended in; each maps to one message of the spec. */
export type SignInOutcome = 'ok' | 'verify-first' | 'not-admin' | 'failed';

/**
 * Signs in with e-mail and password and lets only confirmed store admins stay signed in.
 * - unconfirmed e-mail (`email_not_confirmed`): no session is created → 'verify-first'
 * - confirmed but `is_admin()` is false: signed out again → 'not-admin'
 * - anything else that fails (wrong password, network, the admin check): signed out → 'failed'
 */
export async function signInAdmin(
  client: Pick<SupabaseClient, 'auth' | 'rpc'>,
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
    const { data: isAdmin, error: rpcError } = await client.rpc('is_admin');
    if (rpcError) throw rpcError;
    if (isAdmin === true) return 'ok';
    await signOutQuietly(client);
    return 'not-admin';
  } catch (rpcFailure) {
    console.error('Admin status check failed', rpcFailure);
    await signOutQuietly(client);
    return 'failed';
  }
}

async function signOutQuietly(client: Pick<SupabaseClient, 'auth'>): Promise<void> {
  // 'local' ends just this new session; other sessions of the account are not ours to end.
  const { error } = await client.auth.signOut({ scope: 'local' });
  if (error) console.error('Sign-out after refused login failed', error);
}
