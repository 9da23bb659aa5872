import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';

/** A bordered card of the admin area's narrow forms (SignUP, My account), with an optional heading. */
export function FormSection({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" maw={480} w="100%">
      <Stack gap="sm">
        {title && (
          <Title order={2} size="h4">
            {title}
          </Title>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

interface FormCardProps {
  title?: string;
  /** A dimmed line above the fields saying what the form does. */
  intro?: string;
  submitLabel: string;
  submitting: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The fields. */
  children: ReactNode;
}

/**
 * One form in a FormSection: the fields, then a single submit button that shows it is busy.
 * `noValidate`: the zod schema, not the browser, words the messages (the spec's texts).
 */
export function FormCard({
  title,
  intro,
  submitLabel,
  submitting,
  onSubmit,
  children,
}: FormCardProps) {
  return (
    <FormSection title={title}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
          {children}
          <Button type="submit" loading={submitting} disabled={submitting}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </FormSection>
  );
}
