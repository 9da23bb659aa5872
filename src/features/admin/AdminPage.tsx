import { Title } from '@mantine/core';
import { texts } from '../../texts';

export function AdminPage() {
  return <Title order={1}>{texts.admin.heading}</Title>;
}
