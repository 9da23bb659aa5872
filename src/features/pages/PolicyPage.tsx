import { Title } from '@mantine/core';

export function PolicyPage() {
  return <Title order={1}>Privacy Policy</Title>;
}
