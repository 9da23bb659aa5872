import { Title } from '@mantine/core';

export function AboutPage() {
  return <Title order={1}>About Us</Title>;
}
