import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { notify } from '../../lib/infra/notify';
import { supabase } from '../../lib/infra/supabase';
import { takeReturnPath } from '../../lib/infra/sessionDraft';
import { resetSessionEnded } from '../../lib/infra/sessionEnded';
import { useSubmitLock } from '../../lib/infra/useSubmitLock';
import { texts } from '../../formTexts';
import { useAuth } from './AuthProvider';
import { cameFromFailedEmailLink } from './emailLinks';
import { loginSchema, type LoginValues } from './schemas';
import { adminCheck, signInAdmin, type SignInOutcome } from './signIn';
import { paths } from '../../routing/paths';
// Mantine's styles for what only this area uses (decision 0258).
import '../../lib/ui/mantine-overlays.css';
import '../../lib/ui/mantine-rest.css';

// The code step after the password (REQ-MFA-1): a chunk of its own, fetched only when needed.
const CodeStep = lazy(() => import('../../lib/ui/TwoFactorCodeStep'));

/** /login: "Admin Login" with Email and Password; only confirmed store admins get in. */
export function LoginPage() {
  const navigate = useNavigate();
  const { session, adminStatus, displayName, recheckAdmin } = useAuth();
  const [refusedNotAdmin, setRefusedNotAdmin] = useState(false);
  // The password was right and the account has a verified factor: the code comes next.
  const [askCode, setAskCode] = useState(false);
  const [linkFailed] = useState(() => cameFromFailedEmailLink());
  const { run } = useSubmitLock();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(({ email, password }) =>
    run('submit', async () => {
      setRefusedNotAdmin(false);
      let outcome;
      try {
        outcome = await signInAdmin(supabase, email, password);
      } catch (error) {
        console.error('Sign-in failed', error);
        outcome = 'failed' as const;
      }
      await settle(outcome);
    }),
  );

  const settle = async (outcome: SignInOutcome) => {
    switch (outcome) {
      case 'ok':
      case 'enrol':
        // An earlier attempt's error would otherwise stay over the admin area.
        notify.clearErrors();
        notify.success(texts.login.success);
        setAskCode(false);
        resetSessionEnded();
        // Back where a session that ended left off (REQ-MFA-5), else the admin area.
        await navigate(takeReturnPath() ?? paths.admin);
        break;
      case 'code':
        notify.clearErrors();
        setAskCode(true);
        break;
      case 'verify-first':
        notify.error(texts.login.verifyFirst);
        break;
      case 'not-admin':
        // Said once, in the box that stays (an alert, so it is announced like a toast).
        setAskCode(false);
        setRefusedNotAdmin(true);
        break;
      default:
        setAskCode(false);
        notify.error(texts.login.failed);
    }
  };

  /** The code was right (the session is aal2): the database decides as after a password. */
  const afterCode = async () => {
    // The session is another one now (aal2): the admin area asks is_admin() again.
    recheckAdmin();
    let outcome: SignInOutcome;
    try {
      outcome = await adminCheck(supabase);
    } catch (error) {
      console.error('Admin status check failed', error);
      outcome = 'failed';
    }
    await settle(outcome);
  };

  // Already an admin here (e.g. signed in by a confirmation link that lands on /login): only the
  // notice and the way on, not an empty login form under it.
  const signedInAdmin = session && adminStatus === 'admin' && !isSubmitting;

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={440} mx="auto" my="xl">
      <Stack>
        <Title order={1} size="h2">
          {texts.login.heading}
        </Title>
        <Text c="dimmed" size="sm">
          {texts.login.note}
        </Text>
        {linkFailed && !session && (
          <Alert color="red" role="alert">
            {texts.login.linkFailed}
          </Alert>
        )}
        {signedInAdmin && (
          <Alert color="teal">
            <Group justify="space-between" gap="xs">
              <Text size="sm">
                {texts.login.signedInAs} {displayName ?? session.user.email}
              </Text>
              <Button component={Link} to={paths.admin} size="xs" variant="light">
                {texts.login.goToAdmin}
              </Button>
            </Group>
          </Alert>
        )}
        {refusedNotAdmin && (
          <Alert color="orange" role="alert">
            {texts.admin.notAdmin}
          </Alert>
        )}
        {askCode && (
          <Suspense fallback={null}>
            <CodeStep onVerified={afterCode} onSignedOut={() => setAskCode(false)} />
          </Suspense>
        )}
        {!signedInAdmin && !askCode && (
          <>
            <form onSubmit={onSubmit} noValidate>
              <Stack>
                <TextInput
                  label={texts.login.email}
                  type="email"
                  autoComplete="username"
                  withAsterisk
                  error={errors.email?.message}
                  {...register('email')}
                />
                <PasswordInput
                  label={texts.login.password}
                  autoComplete="current-password"
                  withAsterisk
                  error={errors.password?.message}
                  {...register('password')}
                />
                <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
                  {texts.login.submit}
                </Button>
              </Stack>
            </form>
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              {texts.passwordReset.forgotLink}
            </Anchor>
          </>
        )}
      </Stack>
    </Paper>
  );
}
