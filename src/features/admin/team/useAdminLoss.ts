import { useCallback } from 'react';
import { notify } from '../../../lib/infra/notify';
import { texts } from '../../../adminTexts';
import { fetchIsAdmin, useAuth } from '../../auth/AuthProvider';
import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';

/**
 * After a write the database refused: asks it whether this account is still an admin. If not
 * (another admin removed it, or its session ended), says so and lets the admin area show it too;
 * returns true then (the editors show the spec's message as well). Any doubt (the check itself
 * failed) returns false. A session that ended is not a loss of rights: the admin area says that
 * instead (REQ-MFA-5), and this returns true without the message.
 */
export function useAdminLoss(): () => Promise<boolean> {
  const { recheckAdmin } = useAuth();
  return useCallback(async () => {
    if (await sessionEndedAfter()) return true;
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
