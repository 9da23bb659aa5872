import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { texts } from '../../texts';
import { paths } from '../../routing/paths';

/** Any path the router does not know. */
export function NotFoundPage() {
  return (
    <Stack align="center" py="xl" gap="md">
      <Text fz={72} fw={900} c="teal" lh={1} aria-hidden="true">
        404
      </Text>
      <Title order={1} ta="center">
        {texts.notFound.title}
      </Title>
      <Button component={Link} to={paths.home} variant="light">
        {texts.notFound.goBack}
      </Button>
    </Stack>
  );
}
