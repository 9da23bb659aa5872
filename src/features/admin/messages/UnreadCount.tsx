import { Badge } from '@mantine/core';
import { useEffect } from 'react';
import { texts } from '../../../adminOwnerTexts';
import { refreshUnread, useUnreadCount } from './inboxApi';

/**
 * The Messages tab's unread count (REQ-PATH-16): "3 unread" beside the label, nothing when none.
 * A chunk of its own with the inbox's code, so the admin chunk carries none of it.
 */
export default function UnreadCount() {
  const unread = useUnreadCount();
  useEffect(() => {
    void refreshUnread();
  }, []);
  if (!unread) return null;
  // The space keeps the tab's accessible name "Messages 3 unread", not "Messages3 unread".
  return (
    <>
      {' '}
      <Badge component="span" size="sm" variant="light" color="red" data-testid="unread-count">
        {texts.inbox.unread(unread)}
      </Badge>
    </>
  );
}
