import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { supabase } from '../../../lib/infra/supabase';
import { ADMIN_MESSAGE_COLUMNS, selectList, type ContactMessage } from '../../../lib/domain/tables';
import { texts } from '../../../adminTexts';

const messagesTexts = texts.messages;

export type DeliveryStatus = keyof typeof messagesTexts.statusLabel;

/** The database keeps the status as text; an unknown one is shown as it is, in grey. */
function knownStatus(status: string): DeliveryStatus | null {
  return Object.hasOwn(STATUS_COLOR, status) ? (status as DeliveryStatus) : null;
}

const PAGE_SIZE = 200;
const STATUS_COLOR: Record<DeliveryStatus, string> = {
  pending: 'gray',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
};
const statusColor = (status: string) => {
  const known = knownStatus(status);
  return known ? STATUS_COLOR[known] : 'gray';
};
const statusLabel = (status: string) => {
  const known = knownStatus(status);
  return known ? messagesTexts.statusLabel[known] : status;
};
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
/** E-mail addresses and messages wrap anywhere rather than widen the page. */
const wrap = { overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' } as const;

type LoadState =
  { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; rows: ContactMessage[] };

/**
 * Admin tab "Messages": messages received through the Contact Us form, newest first, with their
 * delivery status. RLS lets only admins read contact_messages; anyone else gets no rows.
 */
export function MessagesPanel() {
  const [state, setState] = useState<LoadState>({ kind: 'loading' });

  const load = useCallback(async () => {
    setState({ kind: 'loading' });
    const { data, error } = await supabase
      .from('contact_messages')
      .select(selectList(ADMIN_MESSAGE_COLUMNS))
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(PAGE_SIZE);
    if (error) {
      console.error('Loading contact messages failed', error);
      setState({ kind: 'error' });
      return;
    }
    setState({ kind: 'ready', rows: data });
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {messagesTexts.heading}
        </Title>
        <Button
          variant="light"
          size="xs"
          onClick={() => void load()}
          loading={state.kind === 'loading'}
        >
          {messagesTexts.refresh}
        </Button>
      </Group>

      {state.kind === 'loading' && <Loader aria-label={texts.admin.loadingMessages} />}
      {state.kind === 'error' && (
        <Alert color="red" role="alert">
          {messagesTexts.loadFailed}
        </Alert>
      )}
      {state.kind === 'ready' && state.rows.length === 0 && (
        <Text c="dimmed">{messagesTexts.empty}</Text>
      )}
      {state.kind === 'ready' && state.rows.length > 0 && (
        <>
          {/* Cards, not a table: at 375 px a table needed sideways scrolling and clipped the
              sender's e-mail. Every field is visible and long values wrap. */}
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {state.rows.map((row) => (
              <Paper
                key={row.id}
                component="li"
                withBorder
                p="sm"
                radius="md"
                data-testid="contact-message-row"
              >
                <Stack gap={6}>
                  <Group justify="space-between" align="flex-start" gap="xs">
                    <Box miw={0} style={{ flex: '1 1 16rem' }}>
                      <Text size="xs" c="dimmed">
                        {messagesTexts.from}
                      </Text>
                      <Text size="sm" fw={500} style={wrap}>
                        {row.name}
                      </Text>
                      <Anchor size="sm" href={`mailto:${row.email}`} style={wrap}>
                        {row.email}
                      </Anchor>
                    </Box>
                    <Box>
                      <Text size="xs" c="dimmed">
                        {messagesTexts.received}
                      </Text>
                      <Text size="sm">
                        <time dateTime={row.created_at}>
                          {dateFormat.format(new Date(row.created_at))}
                        </time>
                      </Text>
                    </Box>
                  </Group>
                  <Box>
                    <Text size="xs" c="dimmed">
                      {messagesTexts.message}
                    </Text>
                    <Text size="sm" style={wrap}>
                      {row.message}
                    </Text>
                  </Box>
                  <Group gap="xs" align="center">
                    <Text size="xs" c="dimmed">
                      {messagesTexts.status}
                    </Text>
                    <Badge color={statusColor(row.delivery_status)} variant="light">
                      {statusLabel(row.delivery_status)}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {messagesTexts.attempts(row.attempts)}
                    </Text>
                  </Group>
                  {row.delivery_status !== 'sent' && row.last_error && (
                    <Text size="xs" c="red" style={wrap}>
                      {row.last_error}
                    </Text>
                  )}
                </Stack>
              </Paper>
            ))}
          </Stack>
          {state.rows.length === PAGE_SIZE && (
            <Text size="xs" c="dimmed">
              {messagesTexts.limitNote(PAGE_SIZE)}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
