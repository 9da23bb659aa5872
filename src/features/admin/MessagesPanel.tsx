import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { supabase } from '../../lib/supabase';
import { ADMIN_MESSAGE_COLUMNS, selectList, type ContactMessage } from '../../lib/tables';
import { texts } from '../../texts';

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
          <ScrollArea>
            <Table striped highlightOnHover verticalSpacing="sm" miw={720}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{messagesTexts.received}</Table.Th>
                  <Table.Th>{messagesTexts.from}</Table.Th>
                  <Table.Th>{messagesTexts.message}</Table.Th>
                  <Table.Th>{messagesTexts.status}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {state.rows.map((row) => (
                  <Table.Tr key={row.id} data-testid="contact-message-row">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <time dateTime={row.created_at}>
                        {dateFormat.format(new Date(row.created_at))}
                      </time>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {row.name}
                      </Text>
                      <Anchor size="sm" href={`mailto:${row.email}`}>
                        {row.email}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {row.message}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={statusColor(row.delivery_status)} variant="light">
                        {statusLabel(row.delivery_status)}
                      </Badge>
                      <Text size="xs" c="dimmed">
                        {messagesTexts.attempts(row.attempts)}
                      </Text>
                      {row.delivery_status !== 'sent' && row.last_error && (
                        <Text
                          size="xs"
                          c="red"
                          lineClamp={2}
                          title={row.last_error}
                          maw={240}
                          style={{ overflowWrap: 'anywhere' }}
                        >
                          {row.last_error}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
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
