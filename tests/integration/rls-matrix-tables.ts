// The RLS matrix's rows for the store's own tables (rls-matrix.test.ts): the catalogue, the
// admin tables, contact messages, the insights counts and logs, and the one-row settings. Each
// row says which role may do what and how to make the rows a cell works on.
import { productFields } from './db-test-helpers.ts';
import { uniqueId, uniqueEmail } from '../support/names.ts';
import {
  ADMIN_READS_SERVICE_WRITES,
  CATALOGUE,
  cleanups,
  clickedProduct,
  COUNTS,
  must,
  newAuthUser,
  newCategory,
  newProduct,
  PRODUCTS,
  service,
  today,
  type Row,
  type TableSpec,
} from './rls-matrix-support.ts';

export const STORE_TABLES: Record<string, TableSpec> = {
  // The search's word list: only the products' triggers write it and only the definer search
  // reads it; no API role but the service role may touch it (decision 0201: it held the words of
  // hidden products).
  catalogue_words: {
    expect: {
      anon: [],
      user: [],
      admin: [],
      service_role: ['select', 'insert', 'update', 'delete'],
    },
    async fixture() {
      const word = uniqueId('matrixword').toLowerCase();
      await must(service().from('catalogue_words').insert({ word, occurrences: 1 }));
      cleanups.push(() => service().from('catalogue_words').delete().eq('word', word));
      return { key: 'word', value: word };
    },
    async newRow() {
      const word = uniqueId('matrixnewword').toLowerCase();
      cleanups.push(() => service().from('catalogue_words').delete().eq('word', word));
      return { row: { word, occurrences: 1 }, key: 'word', value: word };
    },
    change: () => ({ column: 'occurrences', value: 7 }),
  },
  catagories: {
    expect: CATALOGUE,
    async fixture() {
      const { id } = await newCategory();
      return { key: 'id', value: id };
    },
    async newRow() {
      const title = uniqueId('Matrix New Cat');
      cleanups.push(() => service().from('catagories').delete().eq('title', title));
      return { row: { title }, key: 'title', value: title };
    },
    change: () => ({ column: 'title', value: uniqueId('Matrix Renamed') }),
  },
  products: {
    expect: PRODUCTS,
    async fixture() {
      const { title: cat } = await newCategory();
      const title = uniqueId('Matrix Product');
      const [row] = await must(
        service().from('products').insert(productFields(cat, title)).select('id'),
      );
      return { key: 'id', value: (row as Row).id };
    },
    async newRow() {
      const { title: cat } = await newCategory();
      const title = uniqueId('Matrix New Product');
      return { row: productFields(cat, title), key: 'title', value: title };
    },
    change: () => ({ column: 'price', value: '£99.99' }),
  },
  admins: {
    expect: ADMIN_READS_SERVICE_WRITES,
    async fixture() {
      const u = await newAuthUser();
      await must(service().from('admins').insert({ user_id: u.id, email: u.email }));
      return { key: 'user_id', value: u.id };
    },
    async newRow() {
      const u = await newAuthUser();
      return { row: { user_id: u.id, email: u.email }, key: 'user_id', value: u.id };
    },
    change: () => ({ column: 'email', value: uniqueEmail('changed') }),
  },
  admin_invites: {
    expect: {
      anon: [],
      user: [],
      // delete: withdrawing an open invite (a used one cannot be: admin-model.test.ts)
      admin: ['select', 'insert', 'delete'],
      service_role: ['select', 'insert', 'update', 'delete'],
    },
    async fixture() {
      const email = uniqueEmail('matrix-invite');
      await must(service().from('admin_invites').insert({ email }));
      cleanups.push(() => service().from('admin_invites').delete().eq('email', email));
      return { key: 'email', value: email };
    },
    async newRow() {
      const email = uniqueEmail('matrix-new-invite');
      cleanups.push(() => service().from('admin_invites').delete().eq('email', email));
      return { row: { email }, key: 'email', value: email };
    },
    change: () => ({ column: 'accepted_at', value: '2030-01-01T00:00:00+00:00' }),
  },
  contact_messages: {
    expect: ADMIN_READS_SERVICE_WRITES,
    async fixture() {
      const message = uniqueId('matrix fixture message');
      const [row] = await must(
        service()
          .from('contact_messages')
          .insert({ name: 'Matrix Test', email: 'matrix@example.test', message })
          .select('id'),
      );
      const id = (row as Row).id;
      cleanups.push(() => service().from('contact_messages').delete().eq('id', id));
      return { key: 'id', value: id };
    },
    async newRow() {
      const message = uniqueId('matrix new message');
      cleanups.push(() => service().from('contact_messages').delete().eq('message', message));
      return {
        row: { name: 'Matrix Test', email: 'matrix@example.test', message },
        key: 'message',
        value: message,
      };
    },
    change: () => ({ column: 'last_error', value: 'changed by the RLS matrix' }),
  },
  // REQ-INS-2: Buy Now click counts.
  buy_now_clicks_by_product: {
    expect: COUNTS,
    async fixture() {
      const { id } = await clickedProduct();
      return { key: 'product_id', value: id };
    },
    async newRow() {
      const { title: cat } = await newCategory();
      const [row] = await must(
        service()
          .from('products')
          .insert(productFields(cat, uniqueId('Matrix Forged')))
          .select('id'),
      );
      const id = (row as Row).id;
      return { row: { day: today(), product_id: id, clicks: 1000 }, key: 'product_id', value: id };
    },
    change: () => ({ column: 'clicks', value: 1000 }),
  },
  buy_now_clicks_by_page: {
    expect: COUNTS,
    async fixture() {
      const { cat } = await clickedProduct();
      return { key: 'category', value: cat };
    },
    async newRow() {
      const category = uniqueId('Matrix Forged Cat');
      return {
        row: { day: today(), category, page: '/', clicks: 1000 },
        key: 'category',
        value: category,
      };
    },
    change: () => ({ column: 'clicks', value: 1000 }),
  },
  // REQ-LOG-2 (activity log). Append-only: only the triggers write it, so even the
  // service role may only read; a fixture entry comes from a category the service role adds.
  activity_log: {
    expect: { anon: [], user: [], admin: ['select'], service_role: ['select'] },
    async fixture() {
      const { title } = await newCategory();
      const rows = await must(
        service()
          .from('activity_log')
          .select('id')
          .eq('kind', 'category_added')
          .eq('subject', title),
      );
      return { key: 'id', value: (rows as Row[])[0]?.id };
    },
    async newRow() {
      const subject = uniqueId('Matrix forged entry');
      return { row: { kind: 'admin_removed', subject }, key: 'subject', value: subject };
    },
    change: () => ({ column: 'subject', value: 'rewritten by the RLS matrix' }),
  },
  // REQ-INS-4 (link health). Results: admins read, only the service role writes (the
  // link-health function), so nobody can forge one through the API.
  link_checks: {
    expect: ADMIN_READS_SERVICE_WRITES,
    async fixture() {
      const productId = await newProduct();
      await must(
        service().from('link_checks').insert({
          product_id: productId,
          kind: 'link',
          url: 'https://shop.example.com/test',
          status: 'ok',
        }),
      );
      return { key: 'product_id', value: productId };
    },
    async newRow() {
      const productId = await newProduct();
      return {
        row: {
          product_id: productId,
          kind: 'link',
          url: 'https://shop.example.com/test',
          status: 'ok',
        },
        key: 'product_id',
        value: productId,
      };
    },
    change: () => ({ column: 'status', value: 'broken' }),
  },
  // REQ-OFF-6 (link triage): admins accept a redirect and withdraw it; nobody edits one (an
  // acceptance is replaced, not changed). Host pairs would touch every product: per link here.
  link_redirect_acceptances: {
    expect: {
      anon: [],
      user: [],
      admin: ['select', 'insert', 'delete'],
      service_role: ['select', 'insert', 'delete'],
    },
    async fixture() {
      const productId = await newProduct();
      const [row] = await must(
        service()
          .from('link_redirect_acceptances')
          .insert({
            product_id: productId,
            url: 'https://shop.example.com/test',
            to_host: 'a.example',
          })
          .select('id'),
      );
      return { key: 'id', value: (row as Row).id };
    },
    async newRow() {
      const productId = await newProduct();
      return {
        row: { product_id: productId, url: 'https://shop.example.com/test', to_host: 'b.example' },
        key: 'product_id',
        value: productId,
      };
    },
    change: () => ({ column: 'to_host', value: 'c.example' }),
  },
  // One row of store-wide settings: admins read and change it; nobody adds or removes rows.
  link_health_settings: {
    expect: {
      anon: [],
      user: [],
      admin: ['select', 'update'],
      service_role: ['select', 'update'],
    },
    async fixture() {
      cleanups.push(() =>
        service().from('link_health_settings').update({ hide_broken_links: false }).eq('id', true),
      );
      return { key: 'id', value: true };
    },
    async newRow() {
      // The one-row check refuses any second row; id false is the only other candidate.
      return { row: { id: false, hide_broken_links: true }, key: 'id', value: false };
    },
    change: () => ({ column: 'hide_broken_links', value: true }),
  },
  // The store's own details (docs/decisions/0211): one row everyone reads (the storefront, the
  // host function); only admins change it; nobody adds or removes rows.
  store_settings: {
    expect: {
      anon: ['select'],
      user: ['select'],
      admin: ['select', 'update'],
      service_role: ['select', 'update'],
    },
    async fixture() {
      const { data } = await service().from('store_settings').select('youtube_url').single();
      const before = (data as Row | null)?.youtube_url ?? null;
      cleanups.push(() =>
        service().from('store_settings').update({ youtube_url: before }).eq('id', true),
      );
      return { key: 'id', value: true };
    },
    async newRow() {
      // The one-row check refuses any second row; id false is the only other candidate.
      return { row: { id: false, store_name: 'Forged store' }, key: 'id', value: false };
    },
    change: () => ({ column: 'youtube_url', value: 'https://www.youtube.com/@matrix.test' }),
  },
  // The banner's slides and the About text (docs/decisions/0212): one row everyone reads (the
  // storefront); only admins change it; nobody adds or removes rows.
  storefront_content: {
    expect: {
      anon: ['select'],
      user: ['select'],
      admin: ['select', 'update'],
      service_role: ['select', 'update'],
    },
    async fixture() {
      const { data } = await service().from('storefront_content').select('slide_3_link').single();
      const before = (data as Row | null)?.slide_3_link ?? null;
      cleanups.push(() =>
        service().from('storefront_content').update({ slide_3_link: before }).eq('id', true),
      );
      return { key: 'id', value: true };
    },
    async newRow() {
      // The one-row check refuses any second row; id false is the only other candidate.
      return { row: { id: false, slide_1_heading: 'Forged' }, key: 'id', value: false };
    },
    change: () => ({ column: 'slide_3_link', value: '/about?matrix' }),
  },
};

/** Apart from STORE_TABLES so the matrix keeps listing it after the offers' tables. */
export const SLUG_HISTORY_TABLES: Record<string, TableSpec> = {
  // REQ-FIND-4 (product pages). Old slugs of renamed products: readable as far as their
  // product is (the admins; product_page reads them past RLS, docs/decisions/0202); only the
  // rename trigger writes, the service role included.
  product_slug_history: {
    expect: { anon: [], user: [], admin: ['select'], service_role: ['select'] },
    async fixture() {
      const { title: cat } = await newCategory();
      const title = uniqueId('Matrix Slug Product');
      const [row] = await must(
        service().from('products').insert(productFields(cat, title)).select('id, slug'),
      );
      const { id, slug } = row as Row;
      await must(
        service()
          .from('products')
          .update({ title: uniqueId('Matrix Slug Renamed') })
          .eq('id', id),
      );
      return { key: 'slug', value: slug };
    },
    async newRow() {
      const { title: cat } = await newCategory();
      const [row] = await must(
        service()
          .from('products')
          .insert(productFields(cat, uniqueId('Matrix Slug Target')))
          .select('id'),
      );
      const slug = uniqueId('matrix-forged-slug').toLowerCase();
      return { row: { slug, product_id: (row as Row).id }, key: 'slug', value: slug };
    },
    change: () => ({ column: 'replaced_at', value: '2030-01-01T00:00:00+00:00' }),
  },
};
