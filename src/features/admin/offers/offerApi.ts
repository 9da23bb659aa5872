import { supabase } from '../../../lib/infra/supabase';
import { selectList, type Row } from '../../../lib/domain/tables';
import { check, DbError } from '../db';
import { addSeller, findSellerByHost } from '../sellers/sellerApi';
import type { FreshnessLimits } from './freshness';
import { amountValue, linkHost, NEW_SELLER, type OfferValues } from './offerSchema';

const OFFER_COLUMNS = [
  'id',
  'seller_id',
  'is_primary',
  'link',
  'price_gbp',
  'delivery_gbp',
  'availability',
  'price_confirmed_at',
  'price_source',
  'updated_at',
] as const;
const COLUMNS = `${selectList(OFFER_COLUMNS)},seller:sellers(name)` as const;

export type Offer = Pick<Row<'offers'>, (typeof OFFER_COLUMNS)[number]> & {
  seller: { name: string } | null;
};

/** The product's offers: its own (primary) first, then in the order they were added. */
export async function listOffers(productId: string): Promise<Offer[]> {
  return check(
    await supabase
      .from('offers')
      .select(COLUMNS)
      .eq('product_id', productId)
      .order('is_primary', { ascending: false })
      .order('created_at', { ascending: true })
      .retry(false),
  );
}

export async function readFreshnessLimits(): Promise<FreshnessLimits> {
  const { data: row, error } = await supabase
    .from('store_settings')
    .select('price_stale_after_days,price_hidden_after_days')
    .single();
  if (error) throw new DbError(error);
  return { staleDays: row.price_stale_after_days, hiddenDays: row.price_hidden_after_days };
}

/**
 * The seller the form chose, or for "new seller from this link's site" the seller of the link's
 * host: found, or added with the host as its name and the link's origin as its site.
 */
async function sellerFor(values: OfferValues): Promise<string> {
  if (values.seller_id !== NEW_SELLER) return values.seller_id;
  const host = linkHost(values.link);
  if (!host) throw new Error('The link has no host');
  const found = await findSellerByHost(host);
  if (found) return found.id;
  const site = new URL(values.link.trim()).origin;
  const added = await addSeller({
    name: host,
    site,
    logo: '',
    network: '',
    affiliate_param: '',
    affiliate_value: '',
  });
  return added.id;
}

const editable = (values: OfferValues) => ({
  delivery_gbp: amountValue(values.delivery_gbp),
  availability: values.availability === '' ? null : values.availability,
});

export async function addOffer(productId: string, values: OfferValues): Promise<void> {
  const sellerId = await sellerFor(values);
  check(
    await supabase
      .from('offers')
      .insert({
        product_id: productId,
        seller_id: sellerId,
        link: values.link.trim(),
        price_gbp: amountValue(values.price_gbp),
        ...editable(values),
      })
      .select('id'),
  );
}

/** Runs an update of the version the panel showed: false when it changed or went since. */
async function updateLoaded(offer: Offer, columns: Partial<Row<'offers'>>): Promise<boolean> {
  const { data, error } = await supabase
    .from('offers')
    .update(columns)
    .eq('id', offer.id)
    .eq('updated_at', offer.updated_at)
    .select('id');
  if (error) throw new DbError(error);
  return data.length > 0;
}

/**
 * Saves the form: the primary offer's link and price follow the product (the database refuses
 * them here), so only its delivery and availability are written. A new price is confirmed now
 * (the database sets price_confirmed_at when price_gbp changes).
 */
export async function updateOffer(offer: Offer, values: OfferValues): Promise<boolean> {
  if (offer.is_primary) return updateLoaded(offer, editable(values));
  const price = amountValue(values.price_gbp);
  return updateLoaded(offer, {
    seller_id: await sellerFor(values),
    link: values.link.trim(),
    price_gbp: price,
    // A price the admin typed is the admin's (a feed's price stays the feed's until then).
    ...(price !== offer.price_gbp ? { price_source: 'admin' } : {}),
    ...editable(values),
  });
}

/**
 * "Confirm price": the admin checked that the seller shows this price now (the database refuses
 * a confirmation more than 5 minutes ahead of its clock).
 */
export async function confirmPrice(offer: Offer): Promise<boolean> {
  return updateLoaded(offer, {
    price_confirmed_at: new Date().toISOString(),
    price_source: 'admin',
  });
}

/** False when nothing was deleted (already gone). */
export async function deleteOffer(offer: Offer): Promise<boolean> {
  const rows = check(await supabase.from('offers').delete().eq('id', offer.id).select('id'));
  return rows.length > 0;
}

export type PricePoint = Pick<Row<'offer_price_history'>, 'changed_at' | 'price_gbp'>;

/** The offer's recorded prices, newest first (public.offer_price_history, REQ-OFF-4). */
export async function priceHistory(offerId: string): Promise<PricePoint[]> {
  return check(
    await supabase
      .from('offer_price_history')
      .select('changed_at,price_gbp')
      .eq('offer_id', offerId)
      .order('changed_at', { ascending: false })
      .limit(20),
  );
}
