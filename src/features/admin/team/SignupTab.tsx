import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { PasswordInput, TextInput } from '@mantine/core';
import { notify } from '../../../lib/infra/notify';
import { useSubmitLock } from '../../../lib/infra/useSubmitLock';
import { texts } from '../../../adminTexts';
import { useAuth } from '../../auth/AuthProvider';
import { signupSchema, type SignupValues } from './signupSchema';
import { createAdminAccount } from './signup';
import { paths } from '../../../routing/paths';
import { FormCard } from '../editor/FormCard';
import { useSchemaForm } from '../editor/useSchemaForm';

const t = texts.signup;
const empty: SignupValues = { name: '', email: '', password: '' };

/** SignUP tab: creates another (invited) admin account; the signed-in admin stays signed in. */
export function SignupTab() {
  const { session } = useAuth();
  const { run } = useSubmitLock();
  const { register, handleSubmit, reset, setError, formState } = useSchemaForm(signupSchema, empty);
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(
    (values) =>
      run('submit', async () => {
        if (!session) return;
        try {
          const outcome = await createAdminAccount(
            values,
            session.user.id,
            `${window.location.origin}${paths.login}`,
          );
          if (outcome === 'reinstated') {
            notify.success(texts.team.reinstated);
            reset(empty);
            return;
          }
          if (outcome === 'email-taken') {
            setError('email', { type: 'server', message: t.emailTaken }, { shouldFocus: true });
            notify.error(t.emailTaken);
            return;
          }
          notify.success(t.verificationSent);
          notify.success(t.success);
          reset(empty);
        } catch (error) {
          console.error('SignUP failed', error);
          if (!(await sessionEndedAfter(error))) notify.error(texts.unexpected);
        }
      }),
    (invalid) => {
      // Messages show under the fields; the first one is toasted too, like every other error.
      const first = [invalid.name, invalid.email, invalid.password].find(Boolean);
      if (first?.message) notify.error(first.message);
    },
  );

  return (
    <FormCard intro={t.intro} submitLabel={t.submit} submitting={isSubmitting} onSubmit={onSubmit}>
      <TextInput
        label={t.name}
        withAsterisk
        autoComplete="off"
        error={errors.name?.message}
        {...register('name')}
      />
      <TextInput
        label={t.email}
        type="email"
        withAsterisk
        autoComplete="off"
        error={errors.email?.message}
        {...register('email')}
      />
      <PasswordInput
        label={t.password}
        withAsterisk
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
    </FormCard>
  );
}
