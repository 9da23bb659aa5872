import { useSyncExternalStore } from 'react';
import { loadSupabase } from './loadSupabase';
import { classifyRefusal, lacksSecondFactor, sessionGoneFrom } from './sessionRefusal';

// REQ-MFA-5: one flag for "this page's session ended" (signed out elsewhere, expired, refresh
// token revoked, or lacking the second factor). The admin area shows the notice and keeps its
// forms while it is set; a new sign-in on /login clears it.

let ended = false;
/** Set by the Logout button: a session this tab ends on purpose is not "ended" (no notice, no draft). */
let leaving = false;
const listeners = new Set<() => void>();

const emit = () => {
  for (const listener of listeners) listener();
};

export function markSessionEnded(): void {
  if (ended || leaving) return;
  ended = true;
  emit();
}

export function resetSessionEnded(): void {
  leaving = false;
  if (!ended) return;
  ended = false;
  emit();
}

/** The Logout button ends this session on purpose. */
export function signingOutOnPurpose(): void {
  leaving = true;
}

/** Whether this tab is ending its session on purpose (Logout, sign out everywhere). */
export function leavingOnPurpose(): boolean {
  return leaving;
}

export function isSessionEnded(): boolean {
  return ended;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useSessionEnded(): boolean {
  return useSyncExternalStore(subscribe, isSessionEnded, () => false);
}

/**
 * After a write failed or the database wrote nothing: whether that was because the session
 * ended. A dead session's token may still pass PostgREST (it only checks the signature and
 * expiry), and then the database refuses as it would a stranger: "not an admin", no row updated.
 * So Auth is asked (GET /user checks the session itself). True (and the flag set) only when Auth
 * says the session is gone, or PostgREST refused the token and Auth does not know this user
 * either; a network failure leaves the usual message.
 */
export async function sessionEndedAfter(error?: unknown): Promise<boolean> {
  if (ended) return true;
  const kind = classifyRefusal(error);
  if (kind === 'unanswered') return false;
  let gone: boolean | null;
  try {
    const supabase = await loadSupabase();
    // getSession refreshes an expired access token first; no session left at all means ended.
    const { data } = await supabase.auth.getSession();
    gone = data.session ? sessionGoneFrom(await supabase.auth.getUser()) : true;
    // A live session without the second factor the database asks for (REQ-MFA-2) cannot save
    // either: signing in again asks for the code (or the enrolment).
    if (gone === false) gone = lacksSecondFactor(await supabase.rpc('my_admin_access'));
  } catch (checkError) {
    console.error('Checking the session after a refused write failed', checkError);
    gone = null;
  }
  if (gone === true || (gone === null && kind === 'jwt')) {
    markSessionEnded();
    return true;
  }
  return false;
}
