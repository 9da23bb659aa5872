// Storefront paging by key (public.storefront_page through the storefront's own
// fetchCardPage, as the anonymous visitor): walking "Load more" page by page gives exactly the
// order the old offset paging gave, for All and for each category, on the seed and on a catalogue
// full of equal prices and prices without a number; and the cursor's price (String(price_value))
// reads back exactly.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCategory, removeCategory, titlesInStoreOrder } from '../../e2e/support/catalogue';
import type { StoreProduct } from '../../src/lib/domain/tables';
import { serviceClient } from '../support/stack.ts';
import { startHostSite } from '../support/host-site.ts';
import { uniqueId } from '../support/names.ts';

// The storefront reads through the site's own /api/catalogue (REQ-CDN-1): the host's function
// on a local port, in front of the stack, is the page's origin.
const site = await startHostSite();
vi.stubGlobal('location', new URL(`${site.origin}/`));
const { fetchCardPage } = await import('../../src/features/storefront/catalogue');
afterAll(() => site.close());

const service = serviceClient();
const CAT_A = uniqueId('Cursor A');
const CAT_B = uniqueId('Cursor B');

/** Every title, walking pages by cursor as "Load more" does. */
async function titlesByCursor(cat: string | null): Promise<string[]> {
  const titles: string[] = [];
  let after: StoreProduct | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await fetchCardPage(cat, after);
    titles.push(...page.products.map((p) => p.title));
    if (!page.hasMore) return titles;
    after = page.products.at(-1)!;
  }
  throw new Error('paging did not end');
}

describe('storefront paging by key', () => {
  it('gives the offset order on the seed catalogue', async () => {
    const byOffset = await titlesInStoreOrder(service);
    expect(byOffset.length).toBeGreaterThan(24);
    expect(await titlesByCursor(null)).toEqual(byOffset);
    expect(await titlesByCursor('Tennis')).toEqual(await titlesInStoreOrder(service, 'Tennis'));
  });

  describe('on a catalogue of equal prices', () => {
    beforeAll(async () => {
      await createCategory(service, CAT_A);
      await createCategory(service, CAT_B);
      // 130 products at £5.00 (the title decides), 40 without a number in the price (last, by
      // title), a few prices written differently with the same value, titles that differ in
      // case, accents and spaces only.
      const rows = [];
      for (let i = 0; i < 170; i++) {
        const price = i < 130 ? ['£5.00', '5', '£5', '5.0 GBP'][i % 4]! : ['Ask us', 'POA'][i % 2]!;
        const title = `${['apple', 'Apple', 'Äpple', 'apple ', 'b', 'B'][i % 6]!.trim()} ${CAT_A} ${String(i).padStart(3, '0')}`;
        rows.push({
          title,
          cat: i % 3 === 0 ? CAT_B : CAT_A,
          price,
          com: 'Same price',
          image: '/products/match-football.svg',
          link: `https://seller.example.com/${i}`,
        });
      }
      const { error } = await service.from('products').insert(rows);
      expect(error).toBeNull();
    });

    afterAll(async () => {
      await removeCategory(service, CAT_A);
      await removeCategory(service, CAT_B);
    });

    it('gives the offset order for All and for each category', async () => {
      expect(await titlesByCursor(null)).toEqual(await titlesInStoreOrder(service));
      for (const cat of [CAT_A, CAT_B]) {
        const byOffset = await titlesInStoreOrder(service, cat);
        expect(byOffset.length).toBeGreaterThan(50);
        expect(await titlesByCursor(cat)).toEqual(byOffset);
      }
    });

    // price_value is the lowest current offer price (decision 0230), no longer the number in the
    // price text; the cursor sends it back as text (cursorPrice in storeOrder.ts).
    it('price_number reads String(price_value) back exactly, for every product', async () => {
      const { data, error } = await service
        .from('products')
        .select('price_value')
        .not('price_value', 'is', null);
      expect(error).toBeNull();
      const values = [...new Set(data!.map((r) => r.price_value as number))];
      expect(values.length).toBeGreaterThan(1);
      for (const value of values) {
        const { data: back } = await service.rpc('price_number', { p_price: String(value) });
        expect(back, String(value)).toBe(value);
      }
    });

    it('a freshly saved price text gives price_value its number (the primary offer)', async () => {
      const { data, error } = await service
        .from('products')
        .select('price, price_value')
        .in('cat', [CAT_A, CAT_B]);
      expect(error).toBeNull();
      expect(data!.length).toBe(170);
      for (const { price, price_value } of data!) {
        const { data: value } = await service.rpc('price_number', { p_price: price });
        expect(price_value, price as string).toBe(value);
      }
    });
  });
});
