import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Button, Group, List, Stack, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { texts } from '../../../adminOwnerTexts';
import { checkPage, fetchHideBroken, saveHideBroken, type LinkStatus } from './linkHealthApi';

const t = texts.linkHealth;
const summary = texts.linkSummary;
/** The summary's order: what needs work first (REQ-PATH-15). */
const NEEDS_A_LOOK = [
  'broken',
  'unreachable',
  'timed_out',
  'redirected',
  'failing',
  'blocked',
] as const;

/** "Checked 2 products: 1 unreachable link, 1 timed-out link" (every kind that is not OK). */
function summaryOf(products: number, counts: Record<LinkStatus, number>): string {
  const parts = NEEDS_A_LOOK.filter((k) => counts[k] > 0).map((k) => summary.part[k](counts[k]));
  return `${summary.checked(products)}: ${parts.length ? parts.join(', ') : summary.allFine}`;
}
/** Products per request: each answer comes back within a few link timeouts. */
const PAGE = 20;

type Progress =
  | { state: 'idle' }
  | { state: 'running'; products: number }
  | { state: 'done'; products: number; counts: Record<LinkStatus, number> }
  | { state: 'failed' };

/**
 * "Check all links" (the link-health function, page by page, with progress) and the store-wide
 * choice to hide products with broken seller links. Loaded with the Products tab, lazily.
 */
export default function LinkHealthPanel({
  cat,
  onChecked,
}: {
  /** The table's category filter: "Check all" checks that category's products (null: all). */
  cat: string | null;
  onChecked: () => void;
}) {
  const [progress, setProgress] = useState<Progress>({ state: 'idle' });
  const [hide, setHide] = useState<boolean | null>(null);
  const [settingFailed, setSettingFailed] = useState(false);

  useEffect(() => {
    fetchHideBroken()
      .then(setHide)
      .catch((error: unknown) => {
        console.error('Loading the link health setting failed', error);
        setSettingFailed(true);
      });
  }, []);

  const checkAll = async () => {
    const counts: Record<LinkStatus, number> = {
      ok: 0,
      redirected: 0,
      failing: 0,
      broken: 0,
      blocked: 0,
      unreachable: 0,
      timed_out: 0,
    };
    let products = 0;
    let after: string | null = null;
    setProgress({ state: 'running', products });
    try {
      do {
        const answer = await checkPage(after, PAGE, cat);
        products += answer.products;
        for (const k of Object.keys(counts) as LinkStatus[]) counts[k] += answer.counts[k] ?? 0;
        after = answer.next;
        setProgress({ state: 'running', products });
        onChecked();
      } while (after);
      setProgress({ state: 'done', products, counts });
    } catch (error) {
      console.error('Checking links failed', error);
      void sessionEndedAfter(error);
      setProgress({ state: 'failed' });
      onChecked();
    }
  };

  const changeHide = async (next: boolean) => {
    const before = hide;
    setHide(next);
    setSettingFailed(false);
    try {
      await saveHideBroken(next);
    } catch (error) {
      console.error('Saving the link health setting failed', error);
      void sessionEndedAfter(error);
      setHide(before);
      setSettingFailed(true);
    }
  };

  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        <Button
          variant="default"
          size="sm"
          loading={progress.state === 'running'}
          onClick={() => void checkAll()}
        >
          {t.checkAll}
        </Button>
        <Text size="sm" role="status" c={progress.state === 'failed' ? 'red' : undefined}>
          {progress.state === 'running' && t.checking(progress.products)}
          {progress.state === 'done' && summaryOf(progress.products, progress.counts)}
          {progress.state === 'failed' && t.checkFailed}
        </Text>
      </Group>
      {/* Why each kind happens and what to do about it (REQ-PATH-15). */}
      {progress.state === 'done' && NEEDS_A_LOOK.some((k) => progress.counts[k] > 0) && (
        <List size="sm" spacing={2} aria-label={summary.adviceLabel}>
          {NEEDS_A_LOOK.filter((k) => progress.counts[k] > 0).map((k) => (
            <List.Item key={k}>{summary.advice[k]}</List.Item>
          ))}
        </List>
      )}
      <Switch
        label={t.hideBroken}
        description={t.hideBrokenHint}
        checked={hide ?? false}
        disabled={hide === null}
        onChange={(e) => void changeHide(e.currentTarget.checked)}
        error={settingFailed ? t.settingFailed : undefined}
      />
    </Stack>
  );
}
