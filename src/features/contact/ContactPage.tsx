import { Alert, Button, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMounted } from '@mantine/hooks';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { TraderDetails } from '../../lib/ui/StoreDetails';
import { notify } from '../../lib/infra/notify';
import { loadSupabase } from '../../lib/infra/loadSupabase';
import { useSubmitLock } from '../../lib/infra/useSubmitLock';
import { lazyResolver } from '../../lib/infra/lazyResolver';
import type { ContactFormInput, ContactFormValues } from './contactSchema';
import { contactLimits, contactTexts } from './contactTexts';
import { HumanCheck, turnstileSiteKey } from './HumanCheck';
import { HumanCheckError, sendContactMessage } from './sendContactMessage';

const emptyContactForm: ContactFormInput = { name: '', email: '', message: '', website: '' };

// zod and the schema arrive when the visitor starts on the form (or submits it at once).
const validation = lazyResolver(() => import('./contactResolver').then((m) => m.contactResolver));

// Off-screen rather than display:none, which some bots recognise and skip.
const honeypotStyle = {
  position: 'absolute',
  left: '-10000px',
  top: 'auto',
  width: 1,
  height: 1,
  overflow: 'hidden',
} as const;

/** /contact: Contact Us form (Name, Email, Message) sent through the `contact` edge function. */
export function ContactPage() {
  const hydrated = useMounted();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormInput, unknown, ContactFormValues>({
    resolver: validation.resolver,
    defaultValues: emptyContactForm,
  });
  const { run } = useSubmitLock();
  // The human check (docs/decisions/0203): only when a Turnstile site key was set at build time.
  const siteKey = turnstileSiteKey();
  const [token, setToken] = useState<string | null>(null);
  const [checkResets, setCheckResets] = useState(0);
  const [checkMissing, setCheckMissing] = useState(false);

  const fillAllMissing = [errors.name, errors.email, errors.message].some(
    (e) => e?.message === contactTexts.fillAll,
  );
  // Only non-"empty" problems (too long, malformed e-mail) are shown on the field itself.
  // An empty field still gets `true`: red border and aria-invalid, explained by the alert above.
  const fieldError = (message: string | undefined) =>
    message && message !== contactTexts.fillAll ? message : !!message;

  const onSubmit = handleSubmit((values) =>
    run('submit', async () => {
      if (siteKey && !token) {
        setCheckMissing(true);
        return;
      }
      try {
        await sendContactMessage(await loadSupabase(), values, token ?? undefined);
        notify.success(contactTexts.sent);
        setCheckMissing(false);
        reset(emptyContactForm);
      } catch (error) {
        console.error('Contact message failed', error);
        setCheckMissing(error instanceof HumanCheckError);
        notify.error(contactTexts.failed);
      } finally {
        // A token is accepted once: the next message needs a new one.
        if (siteKey) setCheckResets((n) => n + 1);
      }
    }),
  );

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={640} mx="auto" my="xl">
      <Stack>
        <Title order={1} size="h2">
          {contactTexts.heading}
        </Title>
        <Text c="dimmed">{contactTexts.intro}</Text>
        {fillAllMissing && (
          <Alert color="red" role="alert">
            {contactTexts.fillAll}
          </Alert>
        )}
        {/* No noValidate: the browser checks the e-mail format (type=email) before zod does.
            No `required` attributes either, so an empty field reaches zod and shows the alert. */}
        {/* supabase-js and the validation are fetched once the visitor starts on the form. */}
        <form
          onSubmit={onSubmit}
          onFocusCapture={() => {
            void loadSupabase();
            void validation.preload();
          }}
          aria-label={contactTexts.heading}
        >
          <Stack>
            <TextInput
              label={contactTexts.name}
              autoComplete="name"
              withAsterisk
              maxLength={contactLimits.name}
              error={fieldError(errors.name?.message)}
              {...register('name')}
            />
            <TextInput
              label={contactTexts.email}
              type="email"
              autoComplete="email"
              withAsterisk
              maxLength={contactLimits.email}
              error={fieldError(errors.email?.message)}
              {...register('email')}
            />
            <Textarea
              label={contactTexts.message}
              withAsterisk
              rows={6}
              resize="vertical"
              maxLength={contactLimits.message}
              error={fieldError(errors.message?.message)}
              {...register('message')}
            />
            <HumanCheck
              siteKey={siteKey}
              resetKey={checkResets}
              onToken={(t) => {
                setToken(t);
                if (t) setCheckMissing(false);
              }}
            />
            {checkMissing && (
              <Alert color="red" role="alert">
                {contactTexts.humanCheck}
              </Alert>
            )}
            <div aria-hidden="true" style={honeypotStyle}>
              <label>
                {contactTexts.honeypot}
                <input type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
              </label>
            </div>
            {/* Disabled until the app has hydrated the pre-rendered page: before that a click (or
                Enter) would submit the form natively, putting the message in the URL and losing it. */}
            <Button
              type="submit"
              loading={isSubmitting}
              disabled={isSubmitting || !hydrated}
              style={{ alignSelf: 'flex-start' }}
            >
              {contactTexts.send}
            </Button>
          </Stack>
        </form>
        {/* Who runs the shop, beside the spec's form (E-Commerce Regulations 2002 reg. 6). */}
        <TraderDetails align="left" />
      </Stack>
    </Paper>
  );
}
