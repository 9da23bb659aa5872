import { useSyncExternalStore } from 'react';
import { supabase } from '../../../lib/infra/supabase';
import { ADMIN_MESSAGE_COLUMNS, selectList, type ContactMessage } from '../../../lib/domain/tables';
import { DbError } from '../db';

/** One page of the inbox: the newest messages. */
export const PAGE_SIZE = 200;

export type InboxView = 'inbox' | 'archived';

/**
 * `term` for PostgREST's or=(…ilike…): LIKE's own wildcards and escape taken literally, then
 * quoted so that commas, dots and brackets in what the admin typed are words, not syntax.
 */
function ilikeValue(term: string): string {
  const literal = term.replace(/[\\%_]/g, '\\$&').replace(/\*/g, '');
  return `"*${literal.replace(/[\\"]/g, '\\$&')}*"`;
}

/**
 * The newest messages of a view, optionally those whose name, address or text contain `search`.
 * RLS lets only admins read contact_messages; anyone else gets no rows.
 */
export async function loadMessages(view: InboxView, search: string): Promise<ContactMessage[]> {
  let query = supabase
    .from('contact_messages')
    .select(selectList(ADMIN_MESSAGE_COLUMNS))
    .eq('archived', view === 'archived');
  const term = search.trim();
  if (term) {
    const value = ilikeValue(term);
    query = query.or(`name.ilike.${value},email.ilike.${value},message.ilike.${value}`);
  }
  const { data, error } = await query
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(PAGE_SIZE);
  if (error) throw new DbError(error);
  return data;
}

/**
 * Marks a message read or unread, archived or back in the inbox. Admins only (RLS, a column
 * grant for these two columns): for anyone else no row changes and this throws.
 */
export async function markMessage(
  id: string,
  change: { is_read?: boolean; archived?: boolean },
): Promise<void> {
  const { data, error } = await supabase
    .from('contact_messages')
    .update(change)
    .eq('id', id)
    .select('id');
  if (error) throw new DbError(error);
  if (data.length === 0) throw new Error('The message was not changed');
  void refreshUnread();
}

// The unread count on the tab's label, shared by the label and the tab's panel.
let unread: number | null = null;
const listeners = new Set<() => void>();

/** Reads the number of unread messages in the inbox again (a failed read keeps the last one). */
export async function refreshUnread(): Promise<void> {
  const { count, error } = await supabase
    .from('contact_messages')
    .select('id', { count: 'exact', head: true })
    .eq('is_read', false)
    .eq('archived', false);
  if (error) {
    console.error('Counting unread messages failed', error);
    return;
  }
  unread = count;
  for (const listener of listeners) listener();
}

export function useUnreadCount(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => unread,
  );
}
