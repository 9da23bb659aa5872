import { Stack, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { texts } from '../../texts';

export function NotFoundPage() {
  return (
    <Stack align="center" py="xl">
      <Title order={1}>{texts.notFound.title}</Title>
      <Link to="/">{texts.notFound.goBack}</Link>
    </Stack>
  );
}
