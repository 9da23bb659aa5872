import { Button, Center, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../routing/paths';
import { loadSupabase } from '../../../lib/infra/loadSupabase';
import { notify } from '../../../lib/infra/notify';
import { sessionEndedAfter, signingOutOnPurpose } from '../../../lib/infra/sessionEnded';
import {
  changePasswordSchema,
  type ChangePasswordValues,
} from '../../../lib/domain/passwordSchemas';
import { texts } from '../../../adminTexts';
import { useAuth } from '../../auth/AuthProvider';
import { ConfirmDialog } from '../editor/ConfirmDialog';
import { FormCard, FormSection } from '../editor/FormCard';
import { signupSchema } from '../team/signupSchema';
import { useSchemaForm } from '../editor/useSchemaForm';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.account;
// Two-factor sign-in (REQ-MFA-1): a chunk of its own, shared with the admin area's forced
// enrolment and the login page's code step (decision 0252).
const TwoFactorSection = lazy(() => import('./TwoFactorSection'));
const nameSchema = signupSchema.pick({ name: true });

/** Display name: supabase-js emits USER_UPDATED, so the "Admin <name>" heading follows at once. */
function DisplayNameForm() {
  const { displayName } = useAuth();
  const { register, handleSubmit, formState } = useSchemaForm(nameSchema, {
    name: displayName ?? '',
  });
  const { errors, isSubmitting } = formState;
  const onSubmit = handleSubmit(async ({ name }) => {
    const supabase = await loadSupabase();
    const { error } = await supabase.auth.updateUser({ data: { display_name: name } });
    if (error) {
      console.error('Saving the display name failed', error);
      if (!(await sessionEndedAfter(error))) notify.error(t.failed);
    } else notify.success(t.nameSaved);
  });
  return (
    <FormCard
      title={t.nameHeading}
      intro={t.nameIntro}
      submitLabel={t.saveName}
      submitting={isSubmitting}
      onSubmit={onSubmit}
    >
      <TextInput
        label={texts.signup.name}
        withAsterisk
        autoComplete="name"
        error={errors.name?.message}
        {...register('name')}
      />
    </FormCard>
  );
}

const noPasswords: ChangePasswordValues = { current: '', password: '', confirm: '' };

/** The current password is checked by the Auth API (`current_password`), not just here. */
function PasswordForm() {
  const { register, handleSubmit, reset, setError, formState } = useSchemaForm(
    changePasswordSchema,
    noPasswords,
  );
  const { errors, isSubmitting } = formState;
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
      if (!(await sessionEndedAfter(error))) notify.error(t.failed);
    }
  });
  return (
    <FormCard
      title={t.passwordHeading}
      submitLabel={t.savePassword}
      submitting={isSubmitting}
      onSubmit={onSubmit}
    >
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
    </FormCard>
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
      // This browser's session ends on purpose: no "session ended" notice here.
      signingOutOnPurpose();
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
    <FormSection title={t.signOutHeading}>
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
    </FormSection>
  );
}

/** Account tab ("My account"): the signed-in admin's own name, password, two-factor sign-in and sessions. */
export function AccountTab() {
  return (
    <Stack gap="md">
      <DisplayNameForm />
      <PasswordForm />
      <Suspense
        fallback={
          <Center py="md" maw={480}>
            <LoadingIndicator size="sm" label={texts.admin.loading} />
          </Center>
        }
      >
        <TwoFactorSection />
      </Suspense>
      <SignOutEverywhere />
    </Stack>
  );
}
