import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../app/paths';
import { loadSupabase } from '../../lib/loadSupabase';
import { notify } from '../../lib/notify';
import { changePasswordSchema, type ChangePasswordValues } from '../../lib/passwordSchemas';
import { texts } from '../../adminTexts';
import { useAuth } from '../auth/AuthProvider';
import { ConfirmDialog } from './ConfirmDialog';
import { signupSchema } from './schemas';

const t = texts.account;
const nameSchema = signupSchema.pick({ name: true });

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" maw={480} w="100%">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** Display name: supabase-js emits USER_UPDATED, so the "Admin <name>" heading follows at once. */
function DisplayNameForm() {
  const { displayName } = useAuth();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ name: string }>({
    resolver: zodResolver(nameSchema),
    defaultValues: { name: displayName ?? '' },
  });
  const onSubmit = handleSubmit(async ({ name }) => {
    const supabase = await loadSupabase();
    const { error } = await supabase.auth.updateUser({ data: { display_name: name } });
    if (error) {
      console.error('Saving the display name failed', error);
      notify.error(t.failed);
    } else notify.success(t.nameSaved);
  });
  return (
    <Section title={t.nameHeading}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t.nameIntro}
          </Text>
          <TextInput
            label={texts.signup.name}
            withAsterisk
            autoComplete="name"
            error={errors.name?.message}
            {...register('name')}
          />
          <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
            {t.saveName}
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

const noPasswords: ChangePasswordValues = { current: '', password: '', confirm: '' };

/** The current password is checked by the Auth API (`current_password`), not just here. */
function PasswordForm() {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: noPasswords,
  });
  const onSubmit = handleSubmit(async ({ current, password }) => {
    const supabase = await loadSupabase();
    const { error } = await supabase.auth.updateUser({ password, current_password: current });
    if (!error) {
      reset(noPasswords);
      notify.success(t.passwordSaved);
    } else if (error.code === 'current_password_invalid') {
      setError('current', { type: 'server', message: t.currentWrong }, { shouldFocus: true });
    } else if (error.code === 'same_password') {
      setError('password', { type: 'server', message: texts.passwordReset.samePassword });
    } else if (error.code === 'weak_password') {
      setError('password', { type: 'server', message: texts.signup.passwordTooShort });
    } else {
      console.error('Changing the password failed', error);
      notify.error(t.failed);
    }
  });
  return (
    <Section title={t.passwordHeading}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label={t.currentPassword}
            withAsterisk
            autoComplete="current-password"
            error={errors.current?.message}
            {...register('current')}
          />
          <PasswordInput
            label={texts.passwordReset.newPassword}
            withAsterisk
            autoComplete="new-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <PasswordInput
            label={texts.passwordReset.confirmPassword}
            withAsterisk
            autoComplete="new-password"
            error={errors.confirm?.message}
            {...register('confirm')}
          />
          <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
            {t.savePassword}
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

/**
 * Ends every session of the account (Auth deletes them all). The database's is_admin() needs a
 * live session, so admin writes from any other browser stop at once, not when its token expires.
 */
function SignOutEverywhere() {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    setAsking(false);
    setBusy(true);
    try {
      const supabase = await loadSupabase();
      const { error } = await supabase.auth.signOut({ scope: 'global' });
      if (error) throw error;
      notify.success(t.signedOutEverywhere);
      await navigate(paths.login);
    } catch (error) {
      console.error('Signing out everywhere failed', error);
      notify.error(t.failed);
      setBusy(false);
    }
  };
  return (
    <Section title={t.signOutHeading}>
      <Text size="sm" c="dimmed">
        {t.signOutIntro}
      </Text>
      <Button color="red" variant="light" loading={busy} onClick={() => setAsking(true)}>
        {t.signOutEverywhere}
      </Button>
      <ConfirmDialog
        opened={asking}
        title={t.signOutHeading}
        text={t.signOutConfirm}
        confirmLabel={t.signOutEverywhere}
        onConfirm={() => void signOut()}
        onCancel={() => setAsking(false)}
      />
    </Section>
  );
}

/** Account tab ("My account"): the signed-in admin's own name, password and sessions. */
export function AccountTab() {
  return (
    <Stack gap="md">
      <DisplayNameForm />
      <PasswordForm />
      <SignOutEverywhere />
    </Stack>
  );
}
