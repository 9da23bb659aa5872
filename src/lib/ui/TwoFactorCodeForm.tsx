import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { texts } from '../../adminTwoFactorTexts';
import type { CodeOutcome } from '../infra/twoFactor';

const t = texts.twoFactor;

const messages: Record<Exclude<CodeOutcome, 'ok'>, string> = {
  wrong: t.wrongCode,
  'too-many': t.tooMany,
  locked: t.locked,
  failed: t.failed,
};

interface CodeFormProps {
  submitLabel: string;
  /** Checks the code; 'ok' ends the form's part (the caller moves on). */
  check: (code: string) => Promise<CodeOutcome>;
  /** Danger colour for the submit button (removing the factor). */
  danger?: boolean;
  /** A second button beside the submit (Cancel, Use another account). */
  secondary?: ReactNode;
  /** Above the field: what to do. */
  children?: ReactNode;
}

/**
 * The 6-digit code of an authenticator app (REQ-MFA-1): digits only, offered by the phone's
 * keyboard and by password managers (`one-time-code`); a refused code is said next to the field.
 */
export function TwoFactorCodeForm({
  submitLabel,
  check,
  danger,
  secondary,
  children,
}: CodeFormProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError(t.codeInvalid);
      field.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    let outcome: CodeOutcome;
    try {
      outcome = await check(digits);
    } catch (failure) {
      console.error('Checking the code failed', failure);
      outcome = 'failed';
    }
    if (outcome === 'ok') return;
    setBusy(false);
    setError(messages[outcome]);
    setCode('');
    field.current?.focus();
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="sm">
        {children}
        <TextInput
          ref={field}
          label={t.code}
          description={t.codeHint}
          withAsterisk
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          error={error}
          errorProps={{ role: 'alert' }}
          maw={220}
          styles={{ input: { letterSpacing: '0.2em', fontVariantNumeric: 'tabular-nums' } }}
        />
        <Group gap="sm">
          <Button type="submit" loading={busy} color={danger ? 'red' : undefined}>
            {submitLabel}
          </Button>
          {secondary}
        </Group>
      </Stack>
    </form>
  );
}
