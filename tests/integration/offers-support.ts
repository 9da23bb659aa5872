// Shared set-up for the offers tests (REQ-OFF-1..4, docs/decisions/0230): a category of the
// file's own, products and sellers with hosts nobody else uses, and their clean-up. Writes go
// through supabase-js over HTTP; the service role is the observer.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { serviceClient } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

export const service = serviceClient();

export interface Offer {
  id: string;
  product_id: string;
  seller_id: string;
  is_primary: boolean;
  link: string;
  price_gbp: number | null;
  delivery_gbp: number | null;
  availability: string | null;
  price_confirmed_at: string | null;
  price_source: string;
  updated_at: string;
}

export interface Summary {
  price_value: number | null;
  offer_count: number;
  price_checked_at: string | null;
  price_fresh_until: string | null;
  buy_offer_id: string | null;
  buy_link: string | null;
  buy_seller: string | null;
  updated_at: string;
}

/** A host nobody else uses (its seller is created by the first link to it). */
export const newHost = () => `${randomUUID().slice(0, 8)}.offers.example`;

export class OfferFixtures {
  readonly cat = uniqueId('Offers Cat');
  private sellers: string[] = [];

  async setUp(): Promise<void> {
    const { error } = await service.from('catagories').insert({ title: this.cat });
    if (error) throw new Error(error.message);
  }

  async tearDown(): Promise<void> {
    await service.from('products').delete().eq('cat', this.cat);
    await service.from('catagories').delete().eq('title', this.cat);
    const hosts = this.sellers;
    if (hosts.length) await service.from('sellers').delete().in('id', hosts);
    await service.from('sellers').delete().like('host', '%.offers.example');
  }

  /** A product written by `client` (default: the service role) straight into the table. */
  async product(
    fields: { price?: string; link?: string; title?: string } = {},
    client: SupabaseClient = service,
  ): Promise<{ id: string; link: string; updated_at: string }> {
    const link = fields.link ?? `https://${newHost()}/item`;
    const { data, error } = await client
      .from('products')
      .insert({
        title: fields.title ?? uniqueId('Offers Product'),
        cat: this.cat,
        price: fields.price ?? '£50.00',
        com: 'Offers test product',
        image: '/products/match-football.svg',
        link,
      })
      .select('id, link, updated_at')
      .single();
    if (error) throw new Error(error.message);
    return data as { id: string; link: string; updated_at: string };
  }

  /** A seller of its own (removed at tear-down). */
  async seller(
    fields: { affiliate_param?: string; affiliate_value?: string; name?: string } = {},
  ): Promise<{ id: string; host: string; name: string }> {
    const host = newHost();
    const { data, error } = await service
      .from('sellers')
      .insert({
        name: fields.name ?? uniqueId('Offers Seller'),
        site: `https://${host}`,
        ...fields,
      })
      .select('id, host, name')
      .single();
    if (error) throw new Error(error.message);
    this.sellers.push(data.id as string);
    return data as { id: string; host: string; name: string };
  }

  /** A non-primary offer, written by the service role. */
  async offer(
    productId: string,
    fields: Partial<Omit<Offer, 'id' | 'product_id'>> = {},
  ): Promise<Offer> {
    const seller = fields.seller_id ?? (await this.seller()).id;
    const { data, error } = await service
      .from('offers')
      .insert({
        product_id: productId,
        seller_id: seller,
        link: `https://${newHost()}/offer`,
        price_gbp: 20,
        ...fields,
      })
      .select('*')
      .single();
    if (error) throw new Error(error.message);
    return data as Offer;
  }
}

export async function offersOf(productId: string): Promise<Offer[]> {
  const { data, error } = await service
    .from('offers')
    .select('*')
    .eq('product_id', productId)
    .order('is_primary', { ascending: false })
    .order('created_at');
  if (error) throw new Error(error.message);
  return data as Offer[];
}

export async function primaryOf(productId: string): Promise<Offer> {
  const offers = (await offersOf(productId)).filter((o) => o.is_primary);
  expect(offers, 'exactly one primary offer').toHaveLength(1);
  return offers[0]!;
}

export async function summaryOf(productId: string): Promise<Summary> {
  const { data, error } = await service
    .from('products')
    .select(
      'price_value, offer_count, price_checked_at, price_fresh_until, buy_offer_id, buy_link, buy_seller, updated_at',
    )
    .eq('id', productId)
    .single();
  if (error) throw new Error(error.message);
  return data as Summary;
}

export async function historyOf(offerId: string): Promise<{ price_gbp: number | null }[]> {
  const { data, error } = await service
    .from('offer_price_history')
    .select('price_gbp, changed_at')
    .eq('offer_id', offerId)
    .order('id');
  if (error) throw new Error(error.message);
  return data as { price_gbp: number | null }[];
}

/** Moves an offer's confirmation into the past (the service role, as a price check would). */
export async function confirmedAgo(offerId: string, ms: number): Promise<void> {
  const { error } = await service
    .from('offers')
    .update({ price_confirmed_at: new Date(Date.now() - ms).toISOString() })
    .eq('id', offerId);
  if (error) throw new Error(error.message);
}

export const DAY = 24 * 3600 * 1000;
