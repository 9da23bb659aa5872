// The owner's side of offers (REQ-OFF-1, REQ-OFF-3) as the admin area's own modules call the
// database, with a real supabase-js client signed in as an admin: the admin table's "Stale prices"
// filter and "Price checked" sort (public.admin_product_page), a seller that offers use refused
// with words an admin can act on, and the offer writes of the offers panel (only the version
// shown, the primary's link and price left to the product, "Confirm price").
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import { createAdmin, serviceClient, signedInClient, type TestUser } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const session = vi.hoisted(() => ({ client: null as SupabaseClient | null }));
// The admin modules talk through the app's client module; here it holds a real signed-in client.
vi.mock('../../src/lib/infra/supabase', () => ({ supabase: session.client }));

const service = serviceClient();
const users: TestUser[] = [];
let pq: typeof import('../../src/features/admin/products/productQuery');
let offerApi: typeof import('../../src/features/admin/offers/offerApi');
let sellerApi: typeof import('../../src/features/admin/sellers/sellerApi');

const cat = uniqueId('Offers Cat');
const id = cat.split('-').slice(-2).join('').toLowerCase();
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
const title = (name: string) => `${name} ${id}`;
const hosts = ['fresh', 'stale', 'other', 'old', 'never'].map((h) => `${h}-${id}.example.com`);
const productIds = new Map<string, string>();
let otherSeller = '';

async function productId(name: string): Promise<string> {
  const { data, error } = await service.from('products').select('id').eq('title', title(name));
  expect(error).toBeNull();
  return data![0]!.id as string;
}

beforeAll(async () => {
  const admin = await createAdmin();
  users.push(admin);
  session.client = await signedInClient(admin);
  pq = await import('../../src/features/admin/products/productQuery');
  offerApi = await import('../../src/features/admin/offers/offerApi');
  sellerApi = await import('../../src/features/admin/sellers/sellerApi');
  expect((await service.from('catagories').insert({ title: cat })).error).toBeNull();
  // Each product's own link has a host of its own: its primary offer's seller.
  for (const [i, name] of ['Fresh', 'Stale', 'Other', 'Old', 'Never'].entries()) {
    const row = { ...productFields(cat, title(name), '£10.00'), link: `https://${hosts[i]}/item` };
    expect((await service.from('products').insert(row)).error).toBeNull();
    productIds.set(name, await productId(name));
  }
  const primaryConfirmed = async (name: string, at: string | null) => {
    const { error } = await service
      .from('offers')
      .update({ price_confirmed_at: at })
      .eq('product_id', productIds.get(name)!)
      .eq('is_primary', true);
    expect(error).toBeNull();
  };
  // Stale: its own price 10 days old. Old: 40 days (past the hidden limit too). Never: never
  // confirmed. Other: its own price fresh, another seller's 9 days old.
  await primaryConfirmed('Stale', daysAgo(10));
  await primaryConfirmed('Old', daysAgo(40));
  await primaryConfirmed('Never', null);
  const { data: seller } = await service.from('sellers').select('id').eq('host', hosts[0]).single();
  otherSeller = seller!.id as string;
  const { error } = await service.from('offers').insert({
    product_id: productIds.get('Other')!,
    seller_id: otherSeller,
    link: `https://${hosts[0]}/other`,
    price_gbp: 9.5,
    price_confirmed_at: daysAgo(9),
  });
  expect(error).toBeNull();
});

afterAll(async () => {
  await service.from('products').delete().eq('cat', cat);
  await service.from('catagories').delete().eq('title', cat);
  await service.from('sellers').delete().in('host', hosts);
  await deleteUsers(service, users);
});

const titles = async (
  over: Partial<import('../../src/features/admin/products/productQuery').ProductQuery>,
) =>
  (await pq.fetchAdminTablePage({ ...pq.DEFAULT_PRODUCT_QUERY, cat, ...over }, 0, 10)).map(
    (p) => p.title,
  );

describe('REQ-OFF-3 stale prices first in the admin table', () => {
  it('"Stale prices" lists every product with an offer past the stale limit, oldest check first', async () => {
    // Never confirmed is the oldest of all; Other's own price is fresh, so its check is newest.
    expect(await titles({ prices: 'stale', sort: 'price_checked' })).toEqual([
      title('Never'),
      title('Old'),
      title('Stale'),
      title('Other'),
    ]);
    expect(await pq.countProducts({ ...pq.DEFAULT_PRODUCT_QUERY, cat, prices: 'stale' })).toEqual({
      total: 4,
      exact: true,
    });
  });

  it('"Prices hidden on the store" lists those past the hidden limit only', async () => {
    expect(await titles({ prices: 'hidden', sort: 'price_checked' })).toEqual([
      title('Never'),
      title('Old'),
    ]);
  });

  it('sorts by Price checked both ways, never confirmed first when ascending, last descending', async () => {
    const ascending = await titles({ sort: 'price_checked' });
    expect(ascending.slice(0, 3)).toEqual([title('Never'), title('Old'), title('Stale')]);
    const descending = await titles({ sort: 'price_checked', ascending: false });
    expect(descending).toEqual([...ascending].reverse());
  });

  it('refuses an unknown price filter', async () => {
    await expect(titles({ prices: 'cheap' as never })).rejects.toMatchObject({ code: '22023' });
  });
});

describe('REQ-OFF-1 sellers and offers as the Sellers tab and the offers panel write them', () => {
  it('refuses to delete a seller that offers use, saying how many and what to do', async () => {
    await expect(sellerApi.deleteSeller(otherSeller)).rejects.toMatchObject({
      code: '23503',
      message: expect.stringMatching(/still the seller of 2 offers/),
    });
    const { count } = await service
      .from('sellers')
      .select('id', { count: 'exact', head: true })
      .eq('id', otherSeller);
    expect(count).toBe(1);
  });

  it('lists sellers with their number of offers', async () => {
    const sellers = await sellerApi.listSellers();
    expect(sellers.find((s) => s.id === otherSeller)?.offers).toBe(2);
  });

  it("writes only the version shown, leaves the primary offer's price to the product, confirms a price", async () => {
    const offers = await offerApi.listOffers(productIds.get('Other')!);
    expect(offers.map((o) => o.is_primary)).toEqual([true, false]);
    const [primary, other] = offers as [(typeof offers)[0], (typeof offers)[0]];
    const values = {
      seller_id: other.seller_id,
      link: other.link,
      price_gbp: '8.75',
      delivery_gbp: '0',
      availability: 'in_stock' as const,
    };
    expect(await offerApi.updateOffer(other, values)).toBe(true);
    // The version the panel showed is gone now: a second save of it writes nothing.
    expect(await offerApi.updateOffer(other, { ...values, price_gbp: '1' })).toBe(false);
    const [, saved] = await offerApi.listOffers(productIds.get('Other')!);
    expect(saved).toMatchObject({ price_gbp: 8.75, delivery_gbp: 0, price_source: 'admin' });
    // The primary: delivery and availability only, whatever the form says of link and price.
    expect(
      await offerApi.updateOffer(primary, {
        ...values,
        seller_id: primary.seller_id,
        link: 'https://elsewhere.example.com/x',
        price_gbp: '1',
        availability: 'preorder',
      }),
    ).toBe(true);
    const [own] = await offerApi.listOffers(productIds.get('Other')!);
    expect(own).toMatchObject({ link: primary.link, price_gbp: 10, availability: 'preorder' });

    // "Confirm price" on the stale product's own offer: current again, no new price recorded.
    const [stale] = await offerApi.listOffers(productIds.get('Stale')!);
    const before = await offerApi.priceHistory(stale!.id);
    expect(await offerApi.confirmPrice(stale!)).toBe(true);
    const [confirmed] = await offerApi.listOffers(productIds.get('Stale')!);
    expect(Date.now() - new Date(confirmed!.price_confirmed_at!).getTime()).toBeLessThan(60_000);
    expect(await offerApi.priceHistory(stale!.id)).toEqual(before);
    expect(await titles({ prices: 'stale', sort: 'price_checked' })).not.toContain(title('Stale'));
  });
});
