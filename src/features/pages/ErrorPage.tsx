import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { applyMeta } from '../../routing/RouteMeta';
import { texts } from '../../texts';

/**
 * The generic unexpected-application-error screen (ErrorBoundary) for failures (for example a lazy
 * page chunk that fails to download after a deploy). It renders outside the layout, so it
 * links back with a full page load, which also fetches fresh chunks.
 */
export function ErrorPage({ error }: { error: unknown }) {
  useEffect(() => {
    console.error('Unexpected application error', error);
    applyMeta({ title: texts.pages.errorHeading, description: texts.meta.notFound });
  }, [error]);

  return (
    <Container size="sm" py="xl">
      <Stack align="center" gap="md" role="alert">
        <Title order={1} ta="center">
          {texts.pages.errorHeading}
        </Title>
        <Text ta="center">{texts.pages.errorText}</Text>
        <Button component="a" href="/">
          {texts.pages.errorBack}
        </Button>
      </Stack>
    </Container>
  );
}
