import { Alert, Center, Paper, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { texts as adminTexts } from '../../adminTexts';
import { texts } from '../../adminTwoFactorTexts';
import { paths } from '../../routing/paths';
import TwoFactorCodeStep from '../../lib/ui/TwoFactorCodeStep';
import { fetchAdminAccess, type AdminAccess } from '../../lib/infra/twoFactor';
import TwoFactorSection from './account/TwoFactorSection';
import { LoadingIndicator } from '../../lib/ui/LoadingIndicator';

interface TwoFactorGateProps {
  /** This account was an admin earlier on this page: another admin removed its rights. */
  wasAdmin: boolean;
  /** The session may be an admin's now: asks `is_admin()` again. */
  onAdmin: () => void;
}

/**
 * The admin area when `is_admin()` said no (REQ-MFA-2, decision 0252): the database's
 * `my_admin_access()` tells whether only a code is missing (an aal1 session of an admin with a
 * factor: the code step) or the store requires two-factor sign-in and this admin has none yet
 * (only the enrolment); else the refusal. Default export: a chunk of its own, so the admin
 * chunk does not grow.
 */
export default function TwoFactorGate({ wasAdmin, onAdmin }: TwoFactorGateProps) {
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
        <LoadingIndicator size="lg" label={texts.twoFactor.loading} />
      </Center>
    );
  }
  if (access === 'error' || !access.admin || access.needs === 'none') {
    // Not for want of two-factor sign-in: the refusal, as the admin area said it before 0252.
    return (
      <Alert color="orange" role="alert" maw={560} mx="auto" my="xl">
        {wasAdmin ? adminTexts.team.rightsRemoved : adminTexts.admin.notAdmin}
      </Alert>
    );
  }
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
