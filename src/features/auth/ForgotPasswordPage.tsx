import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { paths } from '../../routing/paths';
import { notify } from '../../lib/infra/notify';
import { supabase } from '../../lib/infra/supabase';
import { useSubmitLock } from '../../lib/infra/useSubmitLock';
import { texts } from '../../formTexts';
import { resetRequestSchema, type ResetRequestValues } from './schemas';

const t = texts.passwordReset;

/**
 * Mails a password reset link. The page says the same whether or not the address has an account
 * (the Auth API answers alike, in time too); "too soon again" for a known address is answered
 * like a sent mail, as the link sent a moment ago still works, so it tells nothing either.
 */
export async function requestPasswordReset(email: string): Promise<'sent' | 'failed'> {
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}${paths.resetPassword}`,
  });
  if (!error || error.code === 'over_email_send_rate_limit') return 'sent';
  console.error('Password reset request failed', error);
  return 'failed';
}

/** /forgot-password: "Reset your password" with one Email field. */
export function ForgotPasswordPage() {
  const [sent, setSent] = useState(false);
  const { run } = useSubmitLock();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetRequestValues>({
    resolver: zodResolver(resetRequestSchema),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(({ email }) =>
    run('submit', async () => {
      const outcome = await requestPasswordReset(email).catch((error: unknown) => {
        console.error('Password reset request failed', error);
        return 'failed' as const;
      });
      if (outcome === 'sent') setSent(true);
      else notify.error(t.sendFailed);
    }),
  );

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={440} mx="auto" my="xl">
      <Stack>
        <Title order={1} size="h2">
          {t.requestHeading}
        </Title>
        {sent ? (
          <Alert color="teal" role="status">
            {t.sent}
          </Alert>
        ) : (
          <form onSubmit={onSubmit} noValidate>
            <Stack>
              <Text size="sm" c="dimmed">
                {t.requestIntro}
              </Text>
              <TextInput
                label={texts.login.email}
                type="email"
                autoComplete="username"
                withAsterisk
                error={errors.email?.message}
                {...register('email')}
              />
              <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
                {t.send}
              </Button>
            </Stack>
          </form>
        )}
        <Anchor component={Link} to={paths.login} size="sm">
          {t.backToLogin}
        </Anchor>
      </Stack>
    </Paper>
  );
}
