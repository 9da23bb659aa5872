import type { Session } from '@supabase/supabase-js';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { supabase } from '../../lib/supabase';

export interface AuthState {
  /** True until supabase-js has restored (or failed to restore) the stored session. */
  loading: boolean;
  session: Session | null;
  /** The admin marker of the spec: the signed-in user's display name. */
  displayName: string | null;
}

const AuthContext = createContext<AuthState>({ loading: true, session: null, displayName: null });

function displayNameOf(session: Session | null): string | null {
  const meta = session?.user.user_metadata as { name?: unknown; display_name?: unknown } | undefined;
  const name = meta?.display_name ?? meta?.name;
  return typeof name === 'string' && name.trim() ? name : null;
}

/** Tracks the supabase-js session (the spec's "auth marker") for nav, guard and heading. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ loading: true, session: null, displayName: null });

  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((_event, session) => {
      setState({ loading: false, session, displayName: displayNameOf(session) });
    });
    return () => data.subscription.unsubscribe();
  }, []);

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}
