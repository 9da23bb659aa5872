import { Title } from '@mantine/core';
import { texts } from '../../texts';

export function HomePage() {
  return <Title order={1}>{texts.home.all}</Title>;
}
