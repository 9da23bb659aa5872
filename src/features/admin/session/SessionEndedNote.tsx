import { Alert, Button, Stack, Text } from '@mantine/core';
import type { CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { texts } from '../../../adminTexts';
import { useSessionEnded } from '../../../lib/infra/sessionEnded';
import { paths } from '../../../routing/paths';

/**
 * REQ-MFA-5: "Your session has ended…" and the way to /login, shown while the session is over.
 * The admin area shows it above the tabs; a dialog shows it too (its overlay hides the page).
 */
export function SessionEndedNote({ style }: { style?: CSSProperties }) {
  const ended = useSessionEnded();
  if (!ended) return null;
  return (
    <Alert color="orange" role="alert" style={style}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{texts.session.ended}</Text>
        <Button component={Link} to={paths.login} size="sm">
          {texts.session.signIn}
        </Button>
      </Stack>
    </Alert>
  );
}
