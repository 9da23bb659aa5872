import { Alert, Button, Group, Text } from '@mantine/core';

import { useEffect, useState } from 'react';
import { texts } from '../../../adminTexts';
import { supabase } from '../../../lib/infra/supabase';
import { onFeedsChanged } from './feedEvents';

const t = texts.feedNotice;
const db = supabase;

/** How many feeds fail and how many price changes wait (head-only counts: no rows travel). */
async function counts(): Promise<{ failing: number; held: number }> {
  const [failing, held] = await Promise.all([
    db
      .from('feed_sources')
      .select('id', { count: 'exact', head: true })
      .not('failing_since', 'is', null),
    db.from('feed_held_changes').select('id', { count: 'exact', head: true }).eq('status', 'held'),
  ]);
  if (failing.error || held.error) throw failing.error ?? held.error;
  return { failing: failing.count ?? 0, held: held.count ?? 0 };
}

/**
 * Above the admin tabs (REQ-FEED-5): "N feeds failing" / "N price changes held for review" with
 * a way to the Feeds tab, where the owner looks first. Loaded lazily (the admin chunk's budget);
 * read again whenever the admin changes tab or the Feeds tab changed a count. Nothing shows
 * when all is well or the count failed.
 */
export default function FeedsNotice({ tab, onOpen }: { tab: string; onOpen: () => void }) {
  const [found, setFound] = useState<{ failing: number; held: number } | null>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => onFeedsChanged(() => setAsked((n) => n + 1)), []);
  useEffect(() => {
    let live = true;
    counts()
      .then((c) => live && setFound(c))
      .catch((error: unknown) => console.error('Counting feed problems failed', error));
    return () => {
      live = false;
    };
  }, [tab, asked]);
  if (!found || (found.failing === 0 && found.held === 0)) return null;
  const parts = [
    found.failing > 0 ? t.failing(found.failing) : null,
    found.held > 0 ? t.held(found.held) : null,
  ].filter(Boolean);
  return (
    <Alert color="orange" p="xs" data-testid="feeds-notice">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" fw={600}>
          {parts.join(' · ')}
        </Text>
        {tab !== 'feeds' && (
          <Button size="compact-sm" variant="light" color="orange" onClick={onOpen}>
            {t.open}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
