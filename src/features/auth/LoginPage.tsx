import { Title } from '@mantine/core';
import { texts } from '../../texts';

export function LoginPage() {
  return <Title order={1}>{texts.login.heading}</Title>;
}
