import { Alert, Button, CopyButton, Image, Text, Textarea } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { texts } from '../../../adminTwoFactorTexts';
import { notify } from '../../../lib/infra/notify';
import { TwoFactorCodeForm } from '../../../lib/ui/TwoFactorCodeForm';
import {
  listTotpFactors,
  removeFactor,
  startEnrolment,
  verifyCode,
  type CodeOutcome,
  type Enrolment,
  type TotpFactor,
} from '../../../lib/infra/twoFactor';
import { FormSection } from '../editor/FormCard';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.twoFactor;

type View =
  | { kind: 'loading' }
  | { kind: 'error' }
  | { kind: 'off' }
  | { kind: 'enrolling'; enrolment: Enrolment }
  | { kind: 'on'; factor: TotpFactor }
  | { kind: 'removing'; factor: TotpFactor };

/** Last use as far as Auth records it: the last challenge, else a change after enrolment. */
function lastUsed(factor: TotpFactor): string | null {
  if (factor.last_challenged_at) return factor.last_challenged_at;
  return factor.updated_at !== factor.created_at ? factor.updated_at : null;
}

interface TwoFactorSectionProps {
  /** The store requires two-factor sign-in and this admin has none yet (forced enrolment). */
  required?: boolean;
  /** Called once a factor is verified (the session is aal2 now). */
  onTurnedOn?: () => void;
}

/**
 * "Two-factor sign-in" on the Account tab (REQ-MFA-1, decision 0252): turn on with a QR code or
 * the key as text, see since when it is on, remove it with a current code (Auth removes a
 * verified factor only for an aal2 session). Default export: a chunk of its own.
 */
export default function TwoFactorSection({ required, onTurnedOn }: TwoFactorSectionProps) {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const verified = (await listTotpFactors()).find((f) => f.status === 'verified');
      setView(verified ? { kind: 'on', factor: verified } : { kind: 'off' });
    } catch (error) {
      console.error('Loading the two-factor factors failed', error);
      setView({ kind: 'error' });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const turnOn = async () => {
    setBusy(true);
    try {
      setView({ kind: 'enrolling', enrolment: await startEnrolment(t.friendlyName) });
    } catch (error) {
      console.error('Starting two-factor enrolment failed', error);
      notify.error(t.failed);
    }
    setBusy(false);
  };

  /** Cancel: the unverified factor is removed, so nothing half-made stays on the account. */
  const cancel = async (factorId: string) => {
    setBusy(true);
    try {
      await removeFactor(factorId);
    } catch (error) {
      console.error('Removing the unfinished factor failed', error);
    }
    setBusy(false);
    setView({ kind: 'off' });
  };

  const confirm = async (factorId: string, code: string): Promise<CodeOutcome> => {
    const outcome = await verifyCode(code, factorId);
    if (outcome === 'ok') {
      notify.success(t.turnedOn);
      await load();
      onTurnedOn?.();
    }
    return outcome;
  };

  const remove = async (factor: TotpFactor, code: string): Promise<CodeOutcome> => {
    const outcome = await verifyCode(code, factor.id);
    if (outcome !== 'ok') return outcome;
    try {
      await removeFactor(factor.id);
    } catch (error) {
      console.error('Removing two-factor sign-in failed', error);
      return 'failed';
    }
    notify.success(t.removed);
    setView({ kind: 'off' });
    return 'ok';
  };

  return (
    <FormSection title={t.heading}>
      {view.kind === 'loading' && <LoadingIndicator size="sm" label={t.loading} />}
      {view.kind === 'error' && (
        <Alert color="red" role="alert">
          {t.loadFailed}
        </Alert>
      )}
      {view.kind === 'off' && (
        <>
          {required && (
            <Alert color="orange" role="alert">
              {t.required}
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            {t.offIntro}
          </Text>
          <Button loading={busy} onClick={() => void turnOn()} style={{ alignSelf: 'flex-start' }}>
            {t.turnOn}
          </Button>
        </>
      )}
      {view.kind === 'enrolling' && (
        <TwoFactorCodeForm
          submitLabel={t.confirm}
          check={(code) => confirm(view.enrolment.factorId, code)}
          secondary={
            <Button
              variant="default"
              loading={busy}
              onClick={() => void cancel(view.enrolment.factorId)}
            >
              {t.cancel}
            </Button>
          }
        >
          <Text size="sm">{t.scanStep}</Text>
          <Image
            src={view.enrolment.qrCode}
            alt={t.qrAlt}
            w={200}
            h={200}
            bg="white"
            p={8}
            radius="sm"
          />
          {/* Wraps rather than scrolls: the whole key in sight on a phone. */}
          <Textarea
            label={t.secretLabel}
            description={t.secretStep}
            value={view.enrolment.secret}
            readOnly
            autosize
            minRows={1}
            onFocus={(e) => e.currentTarget.select()}
            styles={{
              input: {
                fontFamily: 'var(--mantine-font-family-monospace)',
                wordBreak: 'break-all',
              },
            }}
          />
          <CopyButton value={view.enrolment.secret}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy} style={{ alignSelf: 'flex-start' }}>
                {copied ? t.copied : t.copy}
              </Button>
            )}
          </CopyButton>
          <Text size="sm">{t.codeStep}</Text>
        </TwoFactorCodeForm>
      )}
      {view.kind === 'on' && (
        <>
          <Text size="sm" fw={500}>
            {t.onSince(view.factor.created_at)}
          </Text>
          {lastUsed(view.factor) && (
            <Text size="sm" c="dimmed">
              {t.lastUsed(lastUsed(view.factor)!)}
            </Text>
          )}
          <Button
            color="red"
            variant="light"
            onClick={() => setView({ kind: 'removing', factor: view.factor })}
            style={{ alignSelf: 'flex-start' }}
          >
            {t.remove}
          </Button>
        </>
      )}
      {view.kind === 'removing' && (
        <TwoFactorCodeForm
          submitLabel={t.removeConfirm}
          danger
          check={(code) => remove(view.factor, code)}
          secondary={
            <Button variant="default" onClick={() => setView({ kind: 'on', factor: view.factor })}>
              {t.keep}
            </Button>
          }
        >
          <Text size="sm">{t.removeIntro}</Text>
        </TwoFactorCodeForm>
      )}
    </FormSection>
  );
}
