import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../routing/paths';
import { notify } from '../../lib/infra/notify';
import { supabase } from '../../lib/infra/supabase';
import { useSubmitLock } from '../../lib/infra/useSubmitLock';
import { texts } from '../../adminTexts';
import { useAuth } from './AuthProvider';
import { cameFromFailedEmailLink } from './emailLinks';
import { newPasswordSchema, type NewPasswordValues } from './schemas';
// Mantine's styles for what only this area uses (decision 0258).
import '../../lib/ui/mantine-overlays.css';
import '../../lib/ui/mantine-rest.css';
import { LoadingIndicator } from '../../lib/ui/LoadingIndicator';

const t = texts.passwordReset;

/** The way out of a dead link: the message and a button to ask for a new one. */
function LinkInvalid() {
  return (
    <Alert color="red" role="alert">
      <Stack gap="sm" align="flex-start">
        {t.linkInvalid}
        <Button component={Link} to={paths.forgotPassword} size="xs" variant="light">
          {t.requestNew}
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * /reset-password, where the reset e-mail's link lands: supabase-js takes the session from the
 * URL fragment (a recovery session, which may set a password without the current one), then
 * "Set a new password" and on to /admin. An expired or used link comes back with `error_code`.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const { loading, session } = useAuth();
  const [linkFailed, setLinkFailed] = useState(() => cameFromFailedEmailLink());
  const { run } = useSubmitLock();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirm: '' },
  });

  const onSubmit = handleSubmit(({ password }) =>
    run('submit', async () => {
      const { error } = await supabase.auth.updateUser({ password });
      if (!error) {
        notify.success(t.saved);
        await navigate(paths.admin, { replace: true });
        return;
      }
      if (error.code === 'same_password') {
        setError('password', { type: 'server', message: t.samePassword }, { shouldFocus: true });
      } else if (error.code === 'weak_password') {
        setError('password', { type: 'server', message: texts.signup.passwordTooShort });
      } else if (error.code === 'current_password_required') {
        // A session that did not come from a reset link (My account changes those passwords).
        setLinkFailed(true);
      } else {
        console.error('Setting the new password failed', error);
        notify.error(texts.account.failed);
      }
    }),
  );

  let body;
  if (linkFailed) body = <LinkInvalid />;
  else if (loading)
    body = (
      <Center>
        <LoadingIndicator label={t.checkingLink} />
      </Center>
    );
  else if (!session) body = <LinkInvalid />;
  else
    body = (
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <PasswordInput
            label={t.newPassword}
            autoComplete="new-password"
            withAsterisk
            error={errors.password?.message}
            {...register('password')}
          />
          <PasswordInput
            label={t.confirmPassword}
            autoComplete="new-password"
            withAsterisk
            error={errors.confirm?.message}
            {...register('confirm')}
          />
          <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
            {t.save}
          </Button>
        </Stack>
      </form>
    );

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={440} mx="auto" my="xl">
      <Stack>
        <Title order={1} size="h2">
          {t.setHeading}
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
