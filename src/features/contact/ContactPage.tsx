import { Title } from '@mantine/core';
import { texts } from '../../texts';

export function ContactPage() {
  return <Title order={1}>{texts.contact.heading}</Title>;
}
