// The RLS matrix's rows for offers (rls-matrix.test.ts; REQ-OFF-1, docs/decisions/0230):
// sellers and offers that admins write, and the price history and per-offer click counts that
// only triggers and count_buy_now_click write.
import { randomUUID } from 'node:crypto';
import { click, visitor } from './click-support';
import { uniqueId } from '../support/names.ts';
import {
  CATALOGUE,
  cleanups,
  clickedProduct,
  COUNTS,
  must,
  newProduct,
  newSeller,
  readAsService,
  service,
  today,
  type Row,
  type TableSpec,
} from './rls-matrix-support.ts';

export const OFFER_TABLES: Record<string, TableSpec> = {
  // REQ-OFF-1 (offers, docs/decisions/0230). Sellers: everyone reads, admins write.
  sellers: {
    expect: CATALOGUE,
    async fixture() {
      return { key: 'id', value: await newSeller() };
    },
    async newRow() {
      const name = uniqueId('Matrix New Seller');
      const site = `https://${randomUUID()}.matrix.example`;
      cleanups.push(() => service().from('sellers').delete().eq('site', site));
      return { row: { name, site }, key: 'site', value: site };
    },
    change: () => ({ column: 'network', value: 'Matrix network' }),
  },
  // Offers: everyone reads the current offers of products the storefront shows; admins write.
  offers: {
    expect: {
      anon: ['select'],
      user: ['select'],
      admin: ['select', 'insert', 'update', 'delete'],
      service_role: ['select', 'insert', 'update', 'delete'],
    },
    async fixture() {
      const [row] = await must(
        service()
          .from('offers')
          .insert({
            product_id: await newProduct(),
            seller_id: await newSeller(),
            link: 'https://seller.matrix.example/offer',
            price_gbp: 7.5,
          })
          .select('id'),
      );
      return { key: 'id', value: (row as Row).id };
    },
    async newRow() {
      const link = `https://seller.matrix.example/${randomUUID()}`;
      return {
        row: {
          product_id: await newProduct(),
          seller_id: await newSeller(),
          link,
          price_gbp: 8.25,
        },
        key: 'link',
        value: link,
      };
    },
    change: () => ({ column: 'delivery_gbp', value: 3.5 }),
  },
  // Price history (REQ-OFF-4): only the offers trigger writes it, so even the service role reads.
  offer_price_history: {
    expect: { anon: [], user: [], admin: ['select'], service_role: ['select'] },
    async fixture() {
      return { key: 'product_id', value: await newProduct() };
    },
    async newRow() {
      const productId = await newProduct();
      const offer = await readAsService('offers', 'product_id', productId);
      const price = 9000000 + Math.floor(Math.random() * 999999) / 100;
      return {
        row: {
          offer_id: offer!.id,
          product_id: productId,
          seller_id: offer!.seller_id,
          price_gbp: price,
        },
        key: 'price_gbp',
        value: price,
      };
    },
    change: () => ({ column: 'price_gbp', value: 1 }),
  },
  // Buy Now clicks per offer (REQ-OFF-2): written only by count_buy_now_click.
  buy_now_clicks_by_offer: {
    expect: COUNTS,
    async fixture() {
      const { id } = await clickedProduct();
      const offer = await readAsService('offers', 'product_id', id);
      const { data } = await click(visitor(), {
        p_product_id: id,
        p_page: '/',
        p_page_view: randomUUID(),
        p_offer_id: offer!.id as string,
      });
      if (data !== 'counted') throw new Error(`offer click not counted: ${String(data)}`);
      return { key: 'offer_id', value: offer!.id };
    },
    async newRow() {
      const offer = await readAsService('offers', 'product_id', await newProduct());
      return {
        row: { day: today(), offer_id: offer!.id, clicks: 1000 },
        key: 'offer_id',
        value: offer!.id,
      };
    },
    change: () => ({ column: 'clicks', value: 1000 }),
  },
};
