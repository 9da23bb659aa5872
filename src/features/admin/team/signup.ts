import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { env } from '../../../lib/infra/env';
import { supabase } from '../../../lib/infra/supabase';
import type { SignupValues } from './signupSchema';

/**
 * What creating an admin account ended in; 'reinstated': the address belongs to a removed admin,
 * whom the invite made an admin again at once (no new account, no e-mail).
 */
export type SignupOutcome = 'sent' | 'email-taken' | 'reinstated';

let signupClient: SupabaseClient | null = null;

/**
 * A second supabase-js client for the sign-up alone. It keeps no session in storage and never
 * refreshes, so creating another admin cannot replace the signed-in admin's own session.
 */
export function getSignupClient(): SupabaseClient {
  signupClient ??= createClient(env.supabaseUrl, env.supabaseAnonKey, {
    auth: {
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storageKey: 'mar-signup',
    },
  });
  return signupClient;
}

interface Clients {
  /** The signed-in admin's client: checks the e-mail and writes the invite. */
  admin: Pick<SupabaseClient, 'rpc' | 'from'>;
  /** The session-less client that signs the new account up. */
  signup: Pick<SupabaseClient, 'auth'>;
}

/**
 * Creates an invited admin account (SignUP tab):
 * 1. an e-mail that already has an account (`email_registered`, admins only; Auth hides such
 *    duplicates behind a fake user) gets no sign-up: the database accepts its invite only for a
 *    removed admin, who is an admin again at once, and refuses any other ("already registered");
 * 2. invite the e-mail (lower-cased): the database makes the account an admin once the e-mail is
 *    confirmed, so a stranger signing up directly gains nothing;
 * 3. sign up with the display name; Auth sends the verification e-mail whose link leads to /login.
 * When the sign-up does not go through, the open invite is withdrawn: left open, it would make a
 * stranger's later sign-up with that address an admin once the owner clicks its confirmation link.
 * Throws on anything unexpected.
 */
export async function createAdminAccount(
  values: SignupValues,
  invitedBy: string,
  redirectTo: string,
  clients: Clients = { admin: supabase, signup: getSignupClient() },
): Promise<SignupOutcome> {
  const email = values.email.trim().toLowerCase();

  const registered = await clients.admin.rpc('email_registered', { p_email: email });
  if (registered.error) throw registered.error;
  if (registered.data === true) {
    const again = await clients.admin
      .from('admin_invites')
      .insert({ email, invited_by: invitedBy });
    if (!again.error) return 'reinstated';
    if (again.error.code === '23505') return 'email-taken';
    throw again.error;
  }

  const invite = await clients.admin.from('admin_invites').insert({ email, invited_by: invitedBy });
  // An earlier invite for the same address (e.g. a sign-up that never finished) is fine.
  if (invite.error && invite.error.code !== '23505') throw invite.error;

  const signUp = async (): Promise<SignupOutcome> => {
    const { data, error } = await clients.signup.auth.signUp({
      email,
      password: values.password,
      options: { data: { display_name: values.name.trim() }, emailRedirectTo: redirectTo },
    });
    if (error) {
      if (error.code === 'user_already_exists' || error.code === 'email_exists') {
        return 'email-taken';
      }
      throw error;
    }
    // Auth answers a sign-up for a confirmed address with a look-alike user that has no identities.
    const lookAlike = Array.isArray(data.user?.identities) && data.user.identities.length === 0;
    return data.user && !lookAlike ? 'sent' : 'email-taken';
  };
  const withdrawInvite = async () => {
    const { error } = await clients.admin
      .from('admin_invites')
      .delete()
      .eq('email', email)
      .is('accepted_at', null);
    if (error) console.error('Withdrawing the invite failed', error);
  };

  try {
    const outcome = await signUp();
    if (outcome !== 'sent') await withdrawInvite();
    return outcome;
  } catch (error) {
    await withdrawInvite();
    throw error;
  }
}
