import { Center, Loader, Paper, Stack } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { texts } from '../../adminTwoFactorTexts';
import { paths } from '../../routing/paths';
import TwoFactorCodeStep from '../../lib/ui/TwoFactorCodeStep';
import { fetchAdminAccess, type AdminAccess } from '../../lib/infra/twoFactor';
import TwoFactorSection from './account/TwoFactorSection';

interface TwoFactorGateProps {
  /** What to show when two-factor sign-in is not the reason (not an admin, rights removed). */
  fallback: ReactNode;
  /** The session may be an admin's now: asks `is_admin()` again. */
  onAdmin: () => void;
}

/**
 * The admin area when `is_admin()` said no (REQ-MFA-2, decision 0252): the database's
 * `my_admin_access()` tells whether only a code is missing (an aal1 session of an admin with a
 * factor: the code step) or the store requires two-factor sign-in and this admin has none yet
 * (only the enrolment). Default export: a chunk of its own, so the admin chunk does not grow.
 */
export default function TwoFactorGate({ fallback, onAdmin }: TwoFactorGateProps) {
  const navigate = useNavigate();
  const [access, setAccess] = useState<AdminAccess | 'checking' | 'error'>('checking');
  const askedAgain = useRef(false);

  useEffect(() => {
    let current = true;
    fetchAdminAccess()
      .then((a) => current && setAccess(a))
      .catch((error: unknown) => {
        console.error('Checking what admin access needs failed', error);
        if (current) setAccess('error');
      });
    return () => {
      current = false;
    };
  }, []);

  // Nothing missing by now (e.g. the code was entered in another tab): ask is_admin() once more.
  const nothingMissing = typeof access === 'object' && access.admin && access.needs === 'none';
  useEffect(() => {
    if (nothingMissing && !askedAgain.current) {
      askedAgain.current = true;
      onAdmin();
    }
  }, [nothingMissing, onAdmin]);

  if (access === 'checking') {
    return (
      <Center mih="50vh">
        <Loader size="lg" aria-label={texts.twoFactor.loading} />
      </Center>
    );
  }
  if (access === 'error' || !access.admin || access.needs === 'none') return fallback;
  return (
    <Stack maw={480} mx="auto" my="xl">
      {access.needs === 'code' ? (
        <Paper withBorder p="md" radius="md">
          <TwoFactorCodeStep onVerified={onAdmin} onSignedOut={() => navigate(paths.login)} />
        </Paper>
      ) : (
        <TwoFactorSection required onTurnedOn={onAdmin} />
      )}
    </Stack>
  );
}
