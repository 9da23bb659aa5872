import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { texts } from '../../../adminTexts';
import { LinkEvidence } from './LinkEvidence';
import { LinkHealthBadge } from './LinkHealthBadge';
import { recheckProducts } from './linkHealthApi';
import { useLinkChecks } from './useLinkChecks';

const t = texts.linkHealth;
const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The loaded product's link health in the form, with "Re-check" (the link-health function for
 * this one product). Part of the admin chunk.
 */
export default function LinkHealthStatus({
  productId,
  onChecked,
}: {
  productId: string;
  onChecked: () => void;
}) {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<'idle' | 'running' | 'done' | 'failed'>('idle');
  const checks = useLinkChecks([productId], version).get(productId);
  const newest = checks
    ?.map((c) => c.checked_at)
    .sort()
    .at(-1);

  const recheck = async () => {
    setState('running');
    try {
      await recheckProducts([productId]);
      setState('done');
    } catch (error) {
      console.error('Re-checking links failed', error);
      void sessionEndedAfter(error);
      setState('failed');
    }
    setVersion((v) => v + 1);
    onChecked();
  };

  return (
    <Stack gap={4} aria-label={t.column} role="group">
      <Group gap="sm" wrap="wrap">
        <Text size="sm" fw={500}>
          {t.column}
        </Text>
        <LinkHealthBadge checks={checks} />
        <Text size="xs" c="dimmed">
          {newest ? t.lastChecked(timeFormat.format(new Date(newest))) : t.notChecked}
        </Text>
        <Button
          variant="default"
          size="compact-sm"
          loading={state === 'running'}
          onClick={() => void recheck()}
        >
          {t.recheck}
        </Button>
        <Text size="xs" role="status" c={state === 'failed' ? 'red' : undefined}>
          {state === 'done' && t.rechecked}
          {state === 'failed' && t.checkFailed}
        </Text>
      </Group>
      {/* Blocked: the evidence; redirected: "Accept redirect" (REQ-OFF-6). */}
      {checks?.map((c) => (
        <LinkEvidence
          key={`${c.kind}-${c.url}`}
          check={c}
          onChanged={() => {
            setVersion((v) => v + 1);
            onChecked();
          }}
        />
      ))}
    </Stack>
  );
}
