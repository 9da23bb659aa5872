import { useCallback } from 'react';
import { notify } from '../../lib/notify';
import { texts } from '../../adminTexts';
import { fetchIsAdmin, useAuth } from '../auth/AuthProvider';

/**
 * After a write the database refused: asks it whether this account is still an admin. If not
 * (another admin removed it, or its session ended), says so instead of a generic error and lets
 * the admin area show it too; returns true then. Any doubt (the check itself failed) returns
 * false, so the caller shows its usual message.
 */
export function useAdminLoss(): () => Promise<boolean> {
  const { recheckAdmin } = useAuth();
  return useCallback(async () => {
    let stillAdmin: boolean;
    try {
      stillAdmin = await fetchIsAdmin();
    } catch (error) {
      console.error('Re-checking admin rights failed', error);
      return false;
    }
    if (stillAdmin) return false;
    notify.error(texts.team.noLongerAdmin);
    recheckAdmin();
    return true;
  }, [recheckAdmin]);
}
