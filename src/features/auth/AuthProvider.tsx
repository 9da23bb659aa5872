import type { Session } from '@supabase/supabase-js';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  isSessionKey,
  loadSupabase,
  mayHaveSession,
  onClientLoaded,
  peekEarlyAuth,
  takeEarlyAdminCheck,
} from '../../lib/infra/loadSupabase';

/**
 * Whether the signed-in user is a store admin, as the database decides (`is_admin()` over the
 * admins table) — never from anything the browser stores or the user can edit.
 * 'none': nobody is signed in; 'loading': the check for the current user is in flight;
 * 'error': the check failed (network, server), so the answer is unknown.
 */
export type AdminStatus = 'none' | 'loading' | 'admin' | 'not-admin' | 'error';

export interface AuthState {
  /** True until supabase-js has restored (or failed to restore) the stored session. */
  loading: boolean;
  session: Session | null;
  /** The admin marker of the spec: the signed-in user's display name. */
  displayName: string | null;
  adminStatus: AdminStatus;
  /** Asks the database again (after an 'error', or when a caller already knows the answer). */
  recheckAdmin: () => void;
}

const AuthContext = createContext<AuthState>({
  loading: true,
  session: null,
  displayName: null,
  adminStatus: 'none',
  recheckAdmin: () => {},
});

export function displayNameOf(session: Session | null): string | null {
  const meta = session?.user.user_metadata as
    { name?: unknown; display_name?: unknown } | undefined;
  const name = meta?.display_name ?? meta?.name;
  return typeof name === 'string' && name.trim() ? name.trim() : null;
}

type Client = Awaited<ReturnType<typeof loadSupabase>>;

/** Asks the database whether the current user is an admin. */
export async function fetchIsAdmin(client?: Client): Promise<boolean> {
  const supabase = client ?? (await loadSupabase());
  const { data, error } = await supabase.rpc('is_admin');
  if (error) throw error;
  return data === true;
}

interface AdminCheck {
  userId: string;
  /** Bumped by recheckAdmin so the effect runs again for the same user. */
  attempt: number;
  status: Exclude<AdminStatus, 'none' | 'loading'> | null;
}

/** Tracks the supabase-js session (the spec's "auth marker") and admin status for nav, guard and heading. */
export function AuthProvider({ children }: { children: ReactNode }) {
  // On /admin the session, and often the admin check's answer, are known before React starts
  // (features/admin/earlyStart.ts): the first render is then the admin area itself (decision 0180).
  const [early] = useState(peekEarlyAuth);
  const [auth, setAuth] = useState<{ loading: boolean; session: Session | null }>({
    loading: !early,
    session: early?.session ?? null,
  });
  const [check, setCheck] = useState<AdminCheck | null>(() =>
    early?.isAdmin === undefined
      ? null
      : {
          userId: early.session.user.id,
          attempt: 0,
          status: early.isAdmin ? 'admin' : 'not-admin',
        },
  );
  // That answer is used up by the first render; the check effect does not ask again.
  const answered = useRef(check !== null);
  const earlyToken = early?.session.access_token;
  // The loaded client; set before the first session arrives, so the admin check starts at once.
  const client = useRef<Client | null>(null);

  useEffect(() => {
    let active = true;
    let unsubscribe = () => {};
    // Subscribes as soon as the client exists, whoever loaded it (this effect, the login page).
    const stopWaiting = onClientLoaded((supabase) => {
      if (!active) return;
      client.current = supabase;
      // Only synchronous state updates here: supabase-js holds a lock while it runs these
      // callbacks, so awaiting another supabase call inside would dead-lock; the admin check
      // runs in an effect.
      const { data } = supabase.auth.onAuthStateChange((event, session) => {
        // The session the first render had already: no second render of the whole app.
        if (earlyToken && event === 'INITIAL_SESSION' && session?.access_token === earlyToken)
          return;
        setAuth({ loading: false, session });
      });
      unsubscribe = () => data.subscription.unsubscribe();
    });
    const load = () =>
      loadSupabase().catch((error: unknown) => {
        // The client code could not be fetched (offline, new deployment): treat as signed out.
        console.error('Loading the sign-in client failed', error);
        if (active) setAuth({ loading: false, session: null });
      });
    // supabase-js is only fetched when a session may exist; otherwise the visitor is signed out
    // and the storefront runs without it (the login page loads it when needed).
    if (mayHaveSession()) void load();
    else setAuth({ loading: false, session: null });
    // A sign-in in another tab stores a session: load the client to pick it up here too.
    const onStorage = (event: StorageEvent) => {
      if (event.key && isSessionKey(event.key)) void load();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      active = false;
      stopWaiting();
      unsubscribe();
      window.removeEventListener('storage', onStorage);
    };
  }, [earlyToken]);

  const userId = auth.session?.user.id ?? null;
  const attempt = check?.userId === userId ? check.attempt : 0;

  useEffect(() => {
    if (!userId) return;
    if (answered.current) {
      answered.current = false;
      void takeEarlyAdminCheck(userId);
      return;
    }
    let current = true;
    // On /admin the check may already be on its way (features/admin/earlyStart.ts).
    const earlyAnswer = attempt === 0 ? takeEarlyAdminCheck(userId) : null;
    (earlyAnswer ?? fetchIsAdmin(client.current ?? undefined))
      .then((isAdmin) => {
        if (current) setCheck({ userId, attempt, status: isAdmin ? 'admin' : 'not-admin' });
      })
      .catch((error: unknown) => {
        console.error('Admin status check failed', error);
        if (current) setCheck({ userId, attempt, status: 'error' });
      });
    return () => {
      current = false;
    };
  }, [userId, attempt]);

  const recheckAdmin = useCallback(() => {
    setCheck((prev) =>
      prev ? { userId: prev.userId, attempt: prev.attempt + 1, status: null } : prev,
    );
  }, []);

  // Derived rather than stored, so a newly signed-in user is 'loading' in the very first render
  // (no flash of the previous user's status).
  let adminStatus: AdminStatus = 'none';
  if (userId) {
    adminStatus = check?.userId === userId && check.status ? check.status : 'loading';
  }

  const value = useMemo<AuthState>(
    () => ({
      loading: auth.loading,
      session: auth.session,
      displayName: displayNameOf(auth.session),
      adminStatus,
      recheckAdmin,
    }),
    [auth, adminStatus, recheckAdmin],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}
