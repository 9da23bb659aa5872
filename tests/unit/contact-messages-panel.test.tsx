// @vitest-environment jsdom
// The admin's Messages tab with a stubbed supabase client: what it asks the database for
// (newest first) and how it shows rows, delivery status, errors and the empty state.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from './render';

type Result = { data: unknown; error: unknown };
interface Call {
  table: string;
  select?: string;
  eq: [string, unknown][];
  or?: string;
  order: [string, unknown][];
  limit?: number;
}
const calls: Call[] = [];
/** The list's reads (the unread count's head requests left out). */
const listCalls = () => calls.filter((c) => c.select !== 'id');
let nextResult: Result = { data: [], error: null };

function query(table: string) {
  const call: Call = { table, order: [], eq: [] };
  calls.push(call);
  const q = {
    select(cols: string) {
      call.select = cols;
      return q;
    },
    eq(col: string, value: unknown) {
      call.eq.push([col, value]);
      return q;
    },
    or(filter: string) {
      call.or = filter;
      return q;
    },
    // The unread count awaits its query directly.
    then(resolve: (r: unknown) => void) {
      resolve({ count: 0, error: null });
    },
    order(col: string, opts: unknown) {
      call.order.push([col, opts]);
      return q;
    },
    limit(n: number) {
      call.limit = n;
      return Promise.resolve(nextResult);
    },
  };
  return q;
}
vi.mock('../../src/lib/infra/supabase', () => ({ supabase: { from: (t: string) => query(t) } }));

const { MessagesPanel } = await import('../../src/features/admin/messages/MessagesPanel');
const { replyHref } = await import('../../src/features/admin/messages/MessageCard');

beforeEach(() => {
  calls.length = 0;
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

const rows = [
  {
    id: 'b',
    name: 'Bob Newer',
    email: 'bob@example.test',
    message: 'Second\nmessage',
    created_at: '2026-11-22T10:00:00Z',
    delivery_status: 'failed',
    attempts: 2,
    last_error: 'connect ECONNREFUSED 127.0.0.1:54325',
    sent_at: null,
    is_read: false,
    archived: false,
  },
  {
    id: 'a',
    name: 'Ann Older',
    email: 'ann@example.test',
    message: 'First message',
    created_at: '2026-11-21T09:00:00Z',
    delivery_status: 'sent',
    attempts: 1,
    last_error: null,
    sent_at: '2026-11-21T09:00:01Z',
    is_read: true,
    archived: false,
  },
];

function renderPanel() {
  return renderWithProviders(<MessagesPanel />);
}

describe('MessagesPanel', () => {
  it('asks for contact_messages newest first and lists them with their delivery status', async () => {
    nextResult = { data: rows, error: null };
    renderPanel();
    const list = await screen.findAllByTestId('contact-message-row');
    expect(listCalls()[0]).toMatchObject({
      table: 'contact_messages',
      eq: [['archived', false]],
      order: [
        ['created_at', { ascending: false }],
        ['id', { ascending: false }],
      ],
    });
    expect(listCalls()[0]!.select).toContain('delivery_status');
    expect(list).toHaveLength(2);
    expect(within(list[0]!).getByText('Bob Newer')).toBeInTheDocument();
    expect(within(list[0]!).getByText('failed')).toBeInTheDocument();
    expect(within(list[0]!).getByText('2 attempts')).toBeInTheDocument();
    expect(within(list[0]!).getByText('connect ECONNREFUSED 127.0.0.1:54325')).toBeInTheDocument();
    expect(within(list[0]!).getByRole('link', { name: 'bob@example.test' })).toHaveAttribute(
      'href',
      'mailto:bob@example.test',
    );
    expect(within(list[1]!).getByText('Ann Older')).toBeInTheDocument();
    expect(within(list[1]!).getByText('sent')).toBeInTheDocument();
    expect(within(list[1]!).getByText('First message')).toBeInTheDocument();
  });

  it('shows an empty state and reloads on Refresh', async () => {
    nextResult = { data: [], error: null };
    renderPanel();
    expect(await screen.findByText('No messages yet.')).toBeInTheDocument();
    nextResult = { data: [rows[1]], error: null };
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getAllByTestId('contact-message-row')).toHaveLength(1));
    expect(listCalls()).toHaveLength(2);
  });

  it('REQ-PATH-16: searches name, address and text with what was typed taken literally', async () => {
    nextResult = { data: [], error: null };
    renderPanel();
    await screen.findByText('No messages yet.');
    await userEvent.setup().type(screen.getByRole('searchbox'), 'a,b"50%');
    await waitFor(() => expect(listCalls().at(-1)!.or).toBeDefined());
    const value = String.raw`"*a,b\"50\\%*"`;
    expect(listCalls().at(-1)!.or).toBe(
      `name.ilike.${value},email.ilike.${value},message.ilike.${value}`,
    );
    expect(await screen.findByText('No messages match the search.')).toBeInTheDocument();
  });

  it('REQ-PATH-16: Reply is a mailto: to the sender with "Re: " and the first line', () => {
    const href = replyHref({ ...rows[0]!, message: 'Do you ship?\nTo Ireland & co' });
    const url = new URL(href);
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe('bob@example.test');
    expect(url.searchParams.get('subject')).toBe('Re: Do you ship?');
    expect(url.searchParams.get('body')).toContain('> To Ireland & co');
  });

  it('says so when the messages cannot be loaded', async () => {
    nextResult = { data: null, error: { message: 'permission denied' } };
    renderPanel();
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the messages.');
  });
});
