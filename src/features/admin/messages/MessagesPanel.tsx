import {
  Alert,
  Button,
  Group,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ContactMessage } from '../../../lib/domain/tables';
import { texts } from '../../../adminOwnerTexts';
import { useDebounced } from '../products/useAdminTablePage';
import { loadMessages, PAGE_SIZE, refreshUnread, type InboxView } from './inboxApi';
import { MessageCard } from './MessageCard';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const messagesTexts = texts.messages;
const inbox = texts.inbox;

type LoadState =
  { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; rows: ContactMessage[] };

/**
 * Admin tab "Messages" (REQ-PATH-16): the owner's inbox of messages received through the Contact
 * Us form, newest first, with their delivery status; read or unread, archived (a view of its
 * own), searched by name, address or words, and Reply in the owner's mail program.
 */
export function MessagesPanel() {
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const [view, setView] = useState<InboxView>('inbox');
  const [search, setSearch] = useState('');
  const settled = useDebounced(search, 250);
  // Answers to an earlier view or search arrive late sometimes; only the newest request counts.
  const request = useRef(0);

  const load = useCallback(async (wanted: InboxView, term: string, quiet = false) => {
    const id = ++request.current;
    if (!quiet) setState({ kind: 'loading' });
    try {
      const rows = await loadMessages(wanted, term);
      if (id === request.current) setState({ kind: 'ready', rows });
    } catch (error) {
      console.error('Loading contact messages failed', error);
      if (id === request.current) setState({ kind: 'error' });
    }
  }, []);

  useEffect(() => {
    void load(view, settled);
  }, [load, view, settled]);

  const empty = settled.trim()
    ? inbox.noMatch
    : view === 'archived'
      ? inbox.emptyArchive
      : messagesTexts.empty;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {messagesTexts.heading}
        </Title>
        <Button
          variant="light"
          size="xs"
          onClick={() => {
            void load(view, settled);
            void refreshUnread();
          }}
          loading={state.kind === 'loading'}
        >
          {messagesTexts.refresh}
        </Button>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label={inbox.viewLabel}
          value={view}
          onChange={(v) => setView(v === 'archived' ? 'archived' : 'inbox')}
          data={[
            { value: 'inbox', label: inbox.views.inbox },
            { value: 'archived', label: inbox.views.archived },
          ]}
        />
        <TextInput
          type="search"
          label={inbox.search}
          description={inbox.searchHint}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: '1 1 14rem' }}
        />
      </Group>

      {state.kind === 'loading' && <LoadingIndicator label={texts.admin.loadingMessages} />}
      {state.kind === 'error' && (
        <Alert color="red" role="alert">
          {messagesTexts.loadFailed}
        </Alert>
      )}
      {state.kind === 'ready' && state.rows.length === 0 && <Text c="dimmed">{empty}</Text>}
      {state.kind === 'ready' && state.rows.length > 0 && (
        <>
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {state.rows.map((row) => (
              <MessageCard
                key={row.id}
                row={row}
                onChanged={() => void load(view, settled, true)}
              />
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
