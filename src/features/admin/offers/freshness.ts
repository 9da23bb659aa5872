import type { Offer } from './offerApi';

const DAY_MS = 86_400_000;
const relative = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });

/** The store's freshness limits in days (public.store_settings, REQ-OFF-3). */
export interface FreshnessLimits {
  staleDays: number;
  hiddenDays: number;
}

/** "3 days ago", "2 hours ago", "now". */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(0, 'second');
}

/** 'stale' or 'hidden' past the store's limits (as the storefront judges it); else null. */
export function staleness(
  offer: Pick<Offer, 'price_gbp' | 'price_confirmed_at'>,
  limits: FreshnessLimits,
  now = Date.now(),
) {
  if (offer.price_gbp === null) return null;
  const age = offer.price_confirmed_at
    ? now - new Date(offer.price_confirmed_at).getTime()
    : Infinity;
  if (age > limits.hiddenDays * DAY_MS) return 'hidden';
  if (age > limits.staleDays * DAY_MS) return 'stale';
  return null;
}
