import { Anchor, Badge, Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ContactMessage } from '../../../lib/domain/tables';
import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { texts } from '../../../adminOwnerTexts';
import { markMessage } from './inboxApi';

const messagesTexts = texts.messages;
const inbox = texts.inbox;

export type DeliveryStatus = keyof typeof messagesTexts.statusLabel;

const STATUS_COLOR: Record<DeliveryStatus, string> = {
  pending: 'gray',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
};
/** The database keeps the status as text; an unknown one is shown as it is, in grey. */
function knownStatus(status: string): DeliveryStatus | null {
  return Object.hasOwn(STATUS_COLOR, status) ? (status as DeliveryStatus) : null;
}
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

/** The quoted original stops here: mail programs refuse very long mailto: addresses. */
const QUOTE_LIMIT = 1500;

/**
 * mailto: the sender, "Re: " and the message's first line as the subject, the message quoted
 * below (REQ-PATH-16). Parts are percent-encoded (RFC 6068), so no text can add a header.
 */
export function replyHref(row: ContactMessage): string {
  const firstLine = row.message.split('\n', 1)[0]!.trim();
  const about = firstLine.length > 60 ? `${firstLine.slice(0, 59).trimEnd()}…` : firstLine;
  const original =
    row.message.length > QUOTE_LIMIT ? `${row.message.slice(0, QUOTE_LIMIT)}…` : row.message;
  const when = dateFormat.format(new Date(row.created_at));
  const body = `\n\n${inbox.replyQuote(when, row.name)}\n${original.replace(/^/gm, '> ')}\n`;
  return (
    `mailto:${encodeURIComponent(row.email).replace(/%40/g, '@')}` +
    `?subject=${encodeURIComponent(inbox.replySubject(about))}&body=${encodeURIComponent(body)}`
  );
}

/**
 * One message as a card: sender, time, text, delivery, and the inbox's actions. Cards, not a
 * table: at 375 px a table needed sideways scrolling and clipped the sender's e-mail.
 */
export function MessageCard({
  row,
  onChanged,
}: {
  row: ContactMessage;
  /** After a change: the list reads again (the message may leave this view). */
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const change = async (what: { is_read?: boolean; archived?: boolean }) => {
    setBusy(true);
    setFailed(false);
    try {
      await markMessage(row.id, what);
      onChanged();
    } catch (error) {
      console.error('Changing the message failed', error);
      void sessionEndedAfter(error);
      setFailed(true);
    }
    setBusy(false);
  };

  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      data-testid="contact-message-row"
      data-read={row.is_read}
      style={row.is_read ? undefined : { borderLeft: '4px solid var(--mantine-color-red-filled)' }}
    >
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" gap="xs">
          <Box miw={0} style={{ flex: '1 1 16rem' }}>
            <Text size="xs" c="dimmed">
              {messagesTexts.from}
            </Text>
            <Group gap={6}>
              <Text size="sm" fw={row.is_read ? 500 : 700} style={wrap}>
                {row.name}
              </Text>
              {!row.is_read && (
                <Badge size="xs" color="red" variant="light">
                  {inbox.newBadge}
                </Badge>
              )}
            </Group>
            <Anchor size="sm" href={`mailto:${row.email}`} style={wrap}>
              {row.email}
            </Anchor>
          </Box>
          <Box>
            <Text size="xs" c="dimmed">
              {messagesTexts.received}
            </Text>
            <Text size="sm">
              <time dateTime={row.created_at}>{dateFormat.format(new Date(row.created_at))}</time>
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
        <Group gap="xs" wrap="wrap">
          <Button
            component="a"
            href={replyHref(row)}
            size="compact-sm"
            title={inbox.replyHint(row.email)}
          >
            {inbox.reply}
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            disabled={busy}
            onClick={() => void change({ is_read: !row.is_read })}
          >
            {row.is_read ? inbox.markUnread : inbox.markRead}
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            disabled={busy}
            onClick={() => void change({ archived: !row.archived })}
          >
            {row.archived ? inbox.unarchive : inbox.archive}
          </Button>
        </Group>
        {failed && (
          <Text size="xs" c="red" role="alert">
            {inbox.changeFailed}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
