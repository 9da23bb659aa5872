import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Alert, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { texts } from '../../../adminOfferTexts';
import { notify } from '../../../lib/infra/notify';
import { ConfirmDialog } from '../editor/ConfirmDialog';
import { listSellerChoices, type SellerChoice } from '../sellers/sellerApi';
import { confirmPrice, deleteOffer, listOffers, readFreshnessLimits, type Offer } from './offerApi';
import type { FreshnessLimits } from './freshness';
import { OfferCard } from './OfferCard';
import { OfferDialog } from './OfferDialog';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.offerPanel;

interface Loaded {
  offers: Offer[];
  sellers: SellerChoice[];
  limits: FreshnessLimits;
}

/**
 * The loaded product's offers (REQ-OFF-1, REQ-OFF-3), beside the product form after Get
 * Product: each with its seller, link, price, delivery, availability, when its price was last
 * confirmed and whether it is stale; add, edit, confirm a price, delete. Every write goes to the
 * database as the admin's own (RLS), and an edit writes only the version shown (updated_at).
 */
export default function OffersPanel({
  productId,
  loaded: shown,
  onChanged,
}: {
  productId: string;
  /** The editor's loaded product: a new Get (of the same product too) reads the offers again. */
  loaded: object;
  /** After a write: the product table reads its page again (price, freshness). */
  onChanged: () => void;
}) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<{ offer: Offer | null } | null>(null);
  const [deleting, setDeleting] = useState<Offer | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [offers, sellers, limits] = await Promise.all([
        listOffers(productId),
        listSellerChoices(),
        readFreshnessLimits(),
      ]);
      setLoaded({ offers, sellers, limits });
      setFailed(false);
    } catch (error) {
      console.error('Loading the offers failed', error);
      setFailed(true);
    }
  }, [productId]);
  useEffect(() => {
    void load();
  }, [load, shown]);

  const written = async () => {
    await load();
    onChanged();
  };

  /** One quick write from a card (confirm, delete): one at a time, then the list again. */
  const act = async (offer: Offer, work: () => Promise<boolean>, done: string, fail: string) => {
    setBusy(offer.id);
    try {
      if (await work()) notify.success(done);
      else if (!(await sessionEndedAfter())) notify.error(t.changedElsewhere);
    } catch (error) {
      console.error('An offer write failed', error);
      if (!(await sessionEndedAfter(error))) notify.error(fail);
    }
    setBusy(null);
    await written();
  };

  return (
    <Paper withBorder p="md" radius="md" aria-label={t.heading} component="section">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t.heading}
          </Title>
          <Button size="compact-sm" disabled={!loaded} onClick={() => setEditing({ offer: null })}>
            {t.add}
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {t.intro}
        </Text>
        {failed && (
          <Alert color="red" role="alert">
            <Group gap="sm">
              <Text size="sm">{t.loadFailed}</Text>
              <Button size="compact-xs" variant="light" onClick={() => void load()}>
                {texts.admin.retry}
              </Button>
            </Group>
          </Alert>
        )}
        {!loaded && !failed && (
          <Center py="sm">
            <LoadingIndicator size="sm" label={t.loading} />
          </Center>
        )}
        {loaded?.offers.length === 0 && <Text c="dimmed">{t.empty}</Text>}
        {loaded?.offers.map((offer) => (
          <OfferCard
            key={offer.id}
            offer={offer}
            limits={loaded.limits}
            busy={busy === offer.id}
            onEdit={() => setEditing({ offer })}
            onConfirm={() => void act(offer, () => confirmPrice(offer), t.confirmed, t.failed)}
            onDelete={() => setDeleting(offer)}
          />
        ))}
      </Stack>
      <OfferDialog
        opened={editing !== null}
        productId={productId}
        offer={editing?.offer ?? null}
        sellers={loaded?.sellers ?? []}
        onClose={() => setEditing(null)}
        onSaved={() => void written()}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t.confirmTitle}
        text={t.confirmText(deleting?.seller?.name ?? '')}
        confirmLabel={t.delete}
        onConfirm={() => {
          const offer = deleting;
          setDeleting(null);
          if (offer) void act(offer, () => deleteOffer(offer), t.deleted, t.deleteFailed);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Paper>
  );
}
