import { Stack, Title } from '@mantine/core';

/** The generic unexpected-application-error screen for routing failures. */
export function ErrorPage() {
  return (
    <Stack align="center" py="xl">
      <Title order={1}>Sorry, something unexpected happened.</Title>
      <a href="/">Back to the shop</a>
    </Stack>
  );
}
