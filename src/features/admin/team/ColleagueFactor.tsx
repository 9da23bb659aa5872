import { Button, Text } from '@mantine/core';
import { texts } from '../../../adminTwoFactorTexts';
import { FactorRefused } from './teamApi';

/**
 * A colleague's two-factor sign-in on the Admins tab (REQ-MFA-2, lost phone): the line that says
 * it is on, its Remove button, the dialog's words and the messages for the database's answers.
 */
const tf = texts.colleague;

export function TwoFactorOn() {
  return (
    <Text size="sm" data-testid="team-admin-two-factor">
      {tf.on}
    </Text>
  );
}

export function RemoveFactorButton(props: {
  loading: boolean;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <Button size="xs" variant="light" {...props}>
      {tf.remove}
    </Button>
  );
}

export function factorDialog(email: string) {
  return { title: tf.removeTitle, text: tf.removeText(email), confirmLabel: tf.remove };
}

export const factorRemoved = (email: string) => tf.removed(email);

/**
 * The message for a refused removal: the database's rules (hints), or a 42501 from an admin
 * whose session lacks the code (aal2) the rule asks for; null: not a refusal of this kind.
 */
export function factorRefusalText(error: unknown, privilegeRefused: boolean): string | null {
  if (error instanceof FactorRefused) {
    return error.rule === 'own_factor' ? tf.ownFactor : tf.notFound;
  }
  return privilegeRefused ? tf.needsCode : null;
}
