import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../lib/infra/notify';
import { loadSupabase } from '../../lib/infra/loadSupabase';
import { texts } from '../../texts';
import { paths } from '../../routing/paths';

/**
 * Removes what this app keeps about a sign-in from local storage: supabase-js's session
 * (`sb-<ref>-auth-token`, its PKCE verifier) and the SignUP tab's throw-away client key. Other
 * local settings (e.g. the colour scheme) are not sign-in state and stay.
 */
export function clearStoredSession(storage: Storage = window.localStorage): void {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key && (/^sb-.*-auth-token/.test(key) || key.startsWith('mar-signup'))) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}

/**
 * Logout of the spec: ends this browser's session (scope 'local': the admin's other devices stay
 * signed in), clears the stored session, shows "Logout Successfully" and goes to /login. A failure
 * is only logged to the console and nothing is shown, as the spec says.
 */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      const supabase = await loadSupabase();
      // Ended on purpose: the admin area goes to /login without the "session ended" notice.
      // Loaded here, not imported: the Logout button is on every page, the flag only matters
      // to the admin area (the home page's byte budget).
      (await import('../../lib/infra/sessionEnded')).signingOutOnPurpose();
      const { error } = await supabase.auth.signOut({ scope: 'local' });
      if (error) throw error;
      clearStoredSession();
      notify.success(texts.logout.success);
      await navigate(paths.login);
    } catch (error) {
      console.error('Logout failed', error);
    }
  }, [navigate]);
}
