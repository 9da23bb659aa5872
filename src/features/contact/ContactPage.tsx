import { Alert, Button, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMounted } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { TraderDetails } from '../../lib/ui/StoreDetails';
import { notify } from '../../lib/infra/notify';
import { loadSupabase } from '../../lib/infra/loadSupabase';
import { useSubmitLock } from '../../lib/infra/useSubmitLock';
import { lazyResolver } from '../../lib/infra/lazyResolver';
import type { ContactFormInput, ContactFormValues } from './contactSchema';
import { contactLimits, contactTexts } from './contactTexts';
import { HumanCheck, turnstileSiteKey } from './HumanCheck';
import { HumanCheckError, sendContactMessage, TooManyMessagesError } from './sendContactMessage';

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

/** After a message was sent, in place of the form until the visitor asks for a new one. */
function ThankYou({ email, onAnother }: { email: string; onAnother: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form the visitor was in is gone: focus (and a screen reader) moves to the panel.
  useEffect(() => heading.current?.focus(), []);
  return (
    // A plain box: Mantine's Alert cut a long heading or address short on a phone.
    <Paper
      withBorder
      p="md"
      bg="var(--mantine-primary-color-light)"
      style={{ overflowWrap: 'anywhere' }}
      data-testid="contact-thanks"
    >
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h3" ref={heading} tabIndex={-1}>
          {contactTexts.thanksHeading}
        </Title>
        <Text>{contactTexts.thanksText(email)}</Text>
        <Button variant="default" onClick={onAnother}>
          {contactTexts.sendAnother}
        </Button>
      </Stack>
    </Paper>
  );
}

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
  // REQ-PATH-9: the address a message was sent from (the thank-you panel shows), and whether
  // the last try was refused for too many messages.
  const [sentFrom, setSentFrom] = useState<string | null>(null);
  const [tooMany, setTooMany] = useState(false);

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
        setTooMany(false);
        reset(emptyContactForm);
        setSentFrom(values.email);
      } catch (error) {
        console.error('Contact message failed', error);
        setCheckMissing(error instanceof HumanCheckError);
        setTooMany(error instanceof TooManyMessagesError);
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
        {sentFrom !== null ? (
          <ThankYou email={sentFrom} onAnother={() => setSentFrom(null)} />
        ) : (
          <>
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
                {tooMany && (
                  <Alert color="red" role="alert" data-testid="contact-too-many">
                    {contactTexts.tooMany}
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
          </>
        )}
        {/* Who runs the shop, beside the spec's form (E-Commerce Regulations 2002 reg. 6). */}
        <TraderDetails align="left" />
      </Stack>
    </Paper>
  );
}
