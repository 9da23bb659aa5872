import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '../../../lib/infra/supabase';
import { DbError } from '../db';
import { getSignupClient } from './signup';

/** One admin as `admin_team()` lists it; generated types cannot tell that names may be null. */
export interface TeamMember {
  user_id: string;
  email: string;
  name: string | null;
  admin_since: string;
  invited_by_email: string | null;
  invited_by_name: string | null;
}

/** One open invitation (`open_admin_invites()`); 'unconfirmed': its e-mail can be resent. */
export interface OpenInvite {
  email: string;
  invited_at: string;
  invited_by_email: string | null;
  invited_by_name: string | null;
  account: 'none' | 'unconfirmed';
  last_sent_at: string | null;
}

export interface Team {
  admins: TeamMember[];
  invites: OpenInvite[];
}

/** Raised by remove_admin for a refused removal; the hint says which rule. */
export type RemoveRefusal = 'remove_self' | 'last_admin';

export class RemoveRefused extends Error {
  constructor(readonly rule: RemoveRefusal) {
    super(rule);
    this.name = 'RemoveRefused';
  }
}

/** Auth refused a resend because one was sent to the address moments ago. */
export class ResendTooSoon extends Error {
  constructor() {
    super('resend too soon');
    this.name = 'ResendTooSoon';
  }
}

function unwrap<T>(result: { data: T | null; error: PostgrestError | null }): T {
  if (result.error) throw new DbError(result.error);
  if (result.data === null) throw new Error('The database returned no data');
  return result.data;
}

/** Every admin and every open invitation (admins only: anyone else gets 42501). */
export async function loadTeam(): Promise<Team> {
  const [admins, invites] = await Promise.all([
    supabase.rpc('admin_team'),
    supabase.rpc('open_admin_invites'),
  ]);
  return {
    admins: unwrap(admins) as TeamMember[],
    invites: unwrap(invites) as OpenInvite[],
  };
}

/** Withdraws an open invitation and its unconfirmed account; false: there was none. */
export async function withdrawInvite(email: string): Promise<boolean> {
  return unwrap(await supabase.rpc('withdraw_admin_invite', { p_email: email }));
}

/**
 * Resends the confirmation e-mail: the database first checks (admins only) that the invitation is
 * open and its account unconfirmed and records the resend, then Auth mails a fresh link.
 * False: nothing to resend (accepted or withdrawn in the meantime).
 */
export async function resendInvite(email: string, redirectTo: string): Promise<boolean> {
  const allowed = unwrap(await supabase.rpc('resend_admin_invite', { p_email: email }));
  if (!allowed) return false;
  const { error } = await getSignupClient().auth.resend({
    type: 'signup',
    email,
    options: { emailRedirectTo: redirectTo },
  });
  if (error) {
    if (error.status === 429 || error.code === 'over_email_send_rate_limit') {
      throw new ResendTooSoon();
    }
    throw error;
  }
  return true;
}

/** Takes admin rights from another admin; false: they were no admin (any more). */
export async function removeAdmin(userId: string): Promise<boolean> {
  const result = await supabase.rpc('remove_admin', { p_user_id: userId });
  const hint = result.error?.hint;
  if (hint === 'remove_self' || hint === 'last_admin') throw new RemoveRefused(hint);
  return unwrap(result);
}

/**
 * Every admin's verified two-factor factors (REQ-MFA-2), by user id. Reads `admin_factors()`
 * (admins only), which the database does not have yet (see docs in the notes of this change):
 * until it does, or when it fails, the Admins tab shows no factors and keeps working.
 */
export async function loadFactors(): Promise<Map<string, string[]>> {
  const rows = unwrap(await supabase.rpc('admin_factors'));
  const byUser = new Map<string, string[]>();
  for (const row of rows)
    byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.factor_id]);
  return byUser;
}

/** Raised by admin_remove_colleague_factor; the hint says which rule. */
export type FactorRefusal = 'own_factor' | 'factor_not_found';

export class FactorRefused extends Error {
  constructor(readonly rule: FactorRefusal) {
    super(rule);
    this.name = 'FactorRefused';
  }
}

/** Removes another admin's factors (lost phone); the database checks and logs each. */
export async function removeColleagueFactors(factorIds: string[]): Promise<boolean> {
  for (const id of factorIds) {
    const result = await supabase.rpc('admin_remove_colleague_factor', { p_factor_id: id });
    const hint = result.error?.hint;
    if (hint === 'own_factor' || hint === 'factor_not_found') throw new FactorRefused(hint);
    unwrap(result);
  }
  return true;
}
