import { Switch, Text } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { texts } from '../../../adminTwoFactorTexts';
import { listTotpFactors } from '../../../lib/infra/twoFactor';
import { ConfirmDialog } from '../editor/ConfirmDialog';
import { FormSection } from '../editor/FormCard';

const t = texts.requireAll;

/**
 * True when saving would turn the store-wide rule on for an admin who has no verified factor:
 * they would be led straight into enrolment (REQ-MFA-2), so the tab asks first. A failed look-up
 * asks too (the safe side).
 */
export async function wouldLockSelfIn(wasOn: boolean, turnsOn: boolean): Promise<boolean> {
  if (wasOn || !turnsOn) return false;
  try {
    return !(await listTotpFactors()).some((f) => f.status === 'verified');
  } catch (error) {
    console.error('Listing my two-factor sign-in failed', error);
    return true;
  }
}

/** The Settings tab's switch "Every admin must use two-factor sign-in" (store_settings column). */
export function RequireTwoFactorSection({ field }: { field: UseFormRegisterReturn }) {
  return (
    <FormSection title={t.heading}>
      <Text size="sm" c="dimmed" id="require-two-factor-hint">
        {t.hint}
      </Text>
      <Switch label={t.label} aria-describedby="require-two-factor-hint" {...field} />
    </FormSection>
  );
}

/** Asks before saving when the admin would lock themselves into enrolment. */
export function LockSelfInDialog(props: {
  opened: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog title={t.selfTitle} text={t.selfText} confirmLabel={t.selfConfirm} {...props} />
  );
}
