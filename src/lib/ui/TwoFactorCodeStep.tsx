import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { texts } from '../../adminTwoFactorTexts';
import { TwoFactorCodeForm } from './TwoFactorCodeForm';
import { signOutHere, verifyCode } from '../infra/twoFactor';

const t = texts.twoFactor;

interface CodeStepProps {
  /** The session is aal2 now: go on to where the admin was going. */
  onVerified: () => void | Promise<void>;
  /** After "Use another account" has signed this session out. */
  onSignedOut: () => void | Promise<void>;
}

/**
 * The second step of signing in (REQ-MFA-1): the password was right and the account has a
 * verified factor, so the session is aal1 until a code from the authenticator app is checked.
 * Default export: loaded as a chunk of its own by /login and the admin area (decision 0252).
 */
export default function TwoFactorCodeStep({ onVerified, onSignedOut }: CodeStepProps) {
  // The per-account limit ended every session of the account (decision 0253): no code can be
  // checked here any more, so the step says so and leads back to the password.
  const [ended, setEnded] = useState(false);
  const check = async (code: string) => {
    const outcome = await verifyCode(code);
    if (outcome === 'ok') await onVerified();
    if (outcome === 'locked') {
      await signOutHere();
      setEnded(true);
    }
    return outcome;
  };
  const otherAccount = async () => {
    await signOutHere();
    await onSignedOut();
  };
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t.heading}
      </Title>
      {ended ? (
        <Alert color="red" role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t.locked}</Text>
            <Button onClick={() => void onSignedOut()}>{t.signInAgain}</Button>
          </Stack>
        </Alert>
      ) : (
        <TwoFactorCodeForm
          submitLabel={t.verify}
          check={check}
          secondary={
            <Button variant="subtle" onClick={() => void otherAccount()}>
              {t.otherAccount}
            </Button>
          }
        >
          <Text size="sm">{t.signInIntro}</Text>
        </TwoFactorCodeForm>
      )}
    </Stack>
  );
}
