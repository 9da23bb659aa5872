import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { texts } from '../../../adminTexts';
import { acceptRedirect, linkHost, type LinkCheck } from './linkHealthApi';

const t = texts.linkHealth;

function hostOf(url: string | null): string | null {
  try {
    return url ? new URL(url).host : null;
  } catch {
    return null;
  }
}

/**
 * Why a link is where it is (REQ-OFF-6, docs/decisions/0234): for "blocked our checker" the
 * bot wall's sign, each hop's code and host and the final host; for a redirect, "Accept
 * redirect" (this link) and the seller host → final host pair. Nothing for other states.
 */
export function LinkEvidence({ check, onChanged }: { check: LinkCheck; onChanged: () => void }) {
  const [state, setState] = useState<'idle' | 'saving' | 'failed'>('idle');
  const finalHost = hostOf(check.final_url);

  if (check.status === 'ok' && check.detail === 'redirect accepted') {
    return (
      <Text size="xs" c="dimmed">
        {t.redirectAccepted}
      </Text>
    );
  }
  if (check.status === 'blocked') {
    return (
      <Stack gap={2} aria-label={t.status.blocked} role="group">
        {check.detail && <Text size="xs">{t.botWall(check.detail)}</Text>}
        {check.chain.length > 0 && (
          <Text size="xs">
            {t.chain}: {check.chain.map((h) => t.hop(h.code, h.host)).join(' → ')}
          </Text>
        )}
        {finalHost && <Text size="xs">{t.finalHost(finalHost)}</Text>}
      </Stack>
    );
  }
  if (check.status !== 'redirected' || check.kind === 'image') return null;

  const from = linkHost(check.url);
  const to = check.final_url ? linkHost(check.final_url) : null;
  const accept = async (hostPair: boolean) => {
    setState('saving');
    try {
      await acceptRedirect(check, hostPair);
      setState('idle');
      onChanged();
    } catch (error) {
      console.error('Accepting the redirect failed', error);
      void sessionEndedAfter(error);
      setState('failed');
    }
  };
  return (
    <Stack gap={4}>
      {finalHost && <Text size="xs">{t.finalHost(finalHost)}</Text>}
      <Group gap="xs" wrap="wrap">
        <Button
          size="compact-sm"
          variant="default"
          title={t.acceptRedirectHint}
          loading={state === 'saving'}
          onClick={() => void accept(false)}
        >
          {t.acceptRedirect}
        </Button>
        {from && to && (
          <Button
            size="compact-sm"
            variant="subtle"
            disabled={state === 'saving'}
            onClick={() => void accept(true)}
          >
            {t.acceptHostPair(from, to)}
          </Button>
        )}
      </Group>
      {state === 'failed' && (
        <Text size="xs" c="red" role="alert">
          {t.acceptFailed}
        </Text>
      )}
    </Stack>
  );
}
