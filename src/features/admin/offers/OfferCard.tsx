import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { texts } from '../../../adminOfferTexts';
import { ago, staleness, type FreshnessLimits } from './freshness';
import { priceHistory, type Offer, type PricePoint } from './offerApi';

const t = texts.offerPanel;
const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

interface OfferCardProps {
  offer: Offer;
  limits: FreshnessLimits;
  busy: boolean;
  onEdit: () => void;
  onConfirm: () => void;
  onDelete: () => void;
}

/** One offer: what shoppers see of it, how fresh its price is, and what the admin can do. */
export function OfferCard({ offer, limits, busy, onEdit, onConfirm, onDelete }: OfferCardProps) {
  const [history, setHistory] = useState<PricePoint[] | 'loading' | 'failed' | null>(null);
  const stale = staleness(offer, limits);
  const delivery =
    offer.delivery_gbp === null
      ? null
      : offer.delivery_gbp === 0
        ? t.freeDelivery
        : t.plusDelivery(gbp.format(offer.delivery_gbp));
  const source = t.sourceLabel[offer.price_source as keyof typeof t.sourceLabel];

  const toggleHistory = async () => {
    if (history !== null) {
      setHistory(null);
      return;
    }
    setHistory('loading');
    try {
      setHistory(await priceHistory(offer.id));
    } catch (error) {
      console.error('Loading the price history failed', error);
      setHistory('failed');
    }
  };

  return (
    <Paper withBorder p="sm" radius="sm" data-testid="offer" component="article">
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Text fw={700}>{offer.seller?.name ?? ''}</Text>
          {offer.is_primary && (
            <Badge variant="light" style={{ textTransform: 'none' }}>
              {t.primary}
            </Badge>
          )}
          {stale && (
            <Badge color={stale === 'hidden' ? 'red' : 'orange'} style={{ textTransform: 'none' }}>
              {stale === 'hidden' ? t.hidden : t.stale}
            </Badge>
          )}
        </Group>
        <Anchor
          href={offer.link}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
          style={{ overflowWrap: 'anywhere' }}
        >
          {offer.link}
        </Anchor>
        <Text size="sm">
          <Text span fw={700}>
            {offer.price_gbp === null ? t.noPrice : gbp.format(offer.price_gbp)}
          </Text>
          {delivery && ` ${delivery}`}
          {offer.availability &&
            ` · ${t.availabilityLabel[offer.availability as keyof typeof t.availabilityLabel]}`}
        </Text>
        <Text size="xs" c="dimmed">
          {offer.price_confirmed_at ? t.checked(ago(offer.price_confirmed_at)) : t.neverChecked}
          {source && ` · ${t.source}: ${source}`}
        </Text>
        {offer.is_primary && (
          <Text size="xs" c="dimmed">
            {t.primaryHint}
          </Text>
        )}
        <Group gap={6} mt={4} wrap="wrap">
          <Button size="compact-sm" variant="light" onClick={onEdit} disabled={busy}>
            {t.edit}
          </Button>
          {offer.price_gbp !== null && (
            <Button size="compact-sm" variant="light" onClick={onConfirm} loading={busy}>
              {t.confirmPrice}
            </Button>
          )}
          <Button size="compact-sm" variant="subtle" onClick={() => void toggleHistory()}>
            {t.history}
          </Button>
          {!offer.is_primary && (
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              onClick={onDelete}
              disabled={busy}
            >
              {t.delete}
            </Button>
          )}
        </Group>
        {history !== null && <History history={history} />}
      </Stack>
    </Paper>
  );
}

function History({ history }: { history: PricePoint[] | 'loading' | 'failed' }) {
  if (history === 'loading') return <Text size="xs">{t.loading}</Text>;
  if (history === 'failed')
    return (
      <Text size="xs" c="red">
        {t.loadFailed}
      </Text>
    );
  if (history.length === 0) return <Text size="xs">{t.historyEmpty}</Text>;
  return (
    <Stack gap={0} component="ol" m={0} pl="md" aria-label={t.history} data-testid="price-history">
      {history.map((p) => (
        <Text component="li" size="xs" key={p.changed_at}>
          {dateFormat.format(new Date(p.changed_at))}:{' '}
          {p.price_gbp === null ? t.noPrice : gbp.format(p.price_gbp)}
        </Text>
      ))}
    </Stack>
  );
}
