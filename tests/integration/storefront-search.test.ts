// Storefront search and sort (REQ-FIND-1, REQ-FIND-2) through the storefront's own fetchSearchPage,
// as the anonymous visitor, against the real database: typos, accents and case, search with a
// category, the three sorts walked page by page by cursor (with many equal prices) compared with
// the database's own ORDER BY through PostgREST, bad input refused with a clear error, and the word
// list behind typo correction kept current when products change and closed to the API roles.
import { PostgrestClient } from '@supabase/postgrest-js';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCategory, insertProducts, removeCategory } from '../../e2e/support/catalogue';
import type { StoreView } from '../../src/features/storefront/storeView';
import { deleteUsers } from './db-test-helpers.ts';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

vi.mock('../../src/lib/infra/catalogueDb', () => ({
  catalogueDb: () =>
    new PostgrestClient(`${stackEnv().API_URL}/rest/v1`, {
      headers: { apikey: stackEnv().ANON_KEY, Authorization: `Bearer ${stackEnv().ANON_KEY}` },
    }),
}));
const { fetchSearchPage } = await import('../../src/features/storefront/searchPage');
type Found = Awaited<ReturnType<typeof fetchSearchPage>>['products'][number];

const service = serviceClient();
const CAT_A = uniqueId('Search A');
const CAT_B = uniqueId('Search B');
/** A made-up word of letters only, new to this run's catalogue (so its typo has one answer). */
const letters = (n: number) =>
  Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');
const WORD = `vexol${letters(4)}`;
/** The word with one letter left out: what a hurried shopper types. */
const TYPO = WORD.slice(0, 3) + WORD.slice(4);
const NEW_WORD = `quorin${letters(4)}`;

const view = (over: Partial<StoreView>): StoreView => ({
  q: '',
  cat: null,
  sort: 'price-asc',
  ...over,
});

/** Every product of a view, walking "Load more" by cursor as the storefront does. */
async function walk(v: StoreView): Promise<Found[]> {
  const all: Found[] = [];
  let after: Found | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const page = await fetchSearchPage(v, after);
    all.push(...(page.products as Found[]));
    if (!page.hasMore) return all;
    after = all.at(-1)!;
  }
  throw new Error('paging did not end');
}
const titles = (rows: { title: string }[]) => rows.map((r) => r.title);

/** The same products in an order the database gives through PostgREST (the oracle). */
async function oracle(sort: StoreView['sort'], cat?: string): Promise<string[]> {
  let q = service.from('products').select('title').like('search_text', `%${WORD}%`);
  if (cat) q = q.eq('cat', cat);
  q =
    sort === 'newest'
      ? q.order('created_at', { ascending: false }).order('id', { ascending: false })
      : q
          .order('price_value', { ascending: sort === 'price-asc', nullsFirst: false })
          .order('title', { ascending: sort === 'price-asc' })
          .order('id', { ascending: sort === 'price-asc' });
  const { data, error } = await q;
  if (error) throw new Error(error.message);
  return titles(data);
}

const product = (cat: string, title: string, price: string, com = 'Search test product') => ({
  title,
  cat,
  price,
  com,
  image: '/products/tennis-racket.svg',
  link: 'https://shop.example.com/search-test',
});

beforeAll(async () => {
  await createCategory(service, CAT_A);
  await createCategory(service, CAT_B);
  const rows = [
    product(CAT_A, `Crème Brûlée Racket ${WORD}`, '£30.00'),
    product(CAT_B, `Plain Bag ${CAT_B}`, '£10.00', `Carries a ${WORD} and more`),
    product(CAT_A, `Ask Price ${WORD}`, 'POA'),
    product(CAT_A, `Ask Price Too ${WORD}`, 'Call us'),
  ];
  // 60 at the same price (the title and id decide) and a spread of others: pages of 24 cut
  // through the ties.
  for (let i = 0; i < 80; i++) {
    const price = i < 60 ? '£5.00' : `£${(i * 7) % 50}.${i % 2 ? '99' : '00'}`;
    rows.push(
      product(i % 4 === 0 ? CAT_B : CAT_A, `${WORD} Ball ${String(i).padStart(2, '0')}`, price),
    );
  }
  // One at a time for some of them, so created_at differs (newest first has something to order).
  await insertProducts(service, rows.slice(0, 70));
  for (const row of rows.slice(70)) await insertProducts(service, [row]);
});

afterAll(async () => {
  await removeCategory(service, CAT_A);
  await removeCategory(service, CAT_B);
});

describe('storefront search', () => {
  it('finds a word in title, category or comment, case and accents ignored', async () => {
    const all = await walk(view({ q: WORD.toUpperCase() }));
    expect(all).toHaveLength(84);
    expect(titles(all)).toContain(`Plain Bag ${CAT_B}`); // in the comment only
    for (const q of ['creme brulee', 'CRÈME BRÛLÉE', 'Ｃｒｅｍｅ brûlée', 'brulee racket']) {
      expect(titles((await fetchSearchPage(view({ q }), null)).products), q).toContain(
        `Crème Brûlée Racket ${WORD}`,
      );
    }
    // The category's name is searched too.
    const byCat = await walk(view({ q: CAT_B.split('-').slice(-2).join(' ') }));
    expect(byCat.length).toBeGreaterThan(20);
    expect(byCat.every((p) => p.cat === CAT_B)).toBe(true);
  });

  it('matches while typing (part of a word) and needs every word', async () => {
    const part = await walk(view({ q: WORD.slice(0, 7) }));
    expect(part.length).toBe(84);
    const both = await walk(view({ q: `${WORD} crème` }));
    expect(titles(both)).toEqual([`Crème Brûlée Racket ${WORD}`]);
    // Words under three letters do not narrow the search.
    expect(titles(await walk(view({ q: `${WORD} a` })))).toEqual(titles(part));
  });

  it('tolerates a small typo', async () => {
    const typo = await walk(view({ q: TYPO }));
    expect(typo).toHaveLength(84);
    expect(titles((await fetchSearchPage(view({ q: `creme ${TYPO}` }), null)).products)).toEqual([
      `Crème Brûlée Racket ${WORD}`,
    ]);
    expect(titles((await fetchSearchPage(view({ q: 'brulée rackte' }), null)).products)).toContain(
      `Crème Brûlée Racket ${WORD}`,
    );
  });

  it('shows nothing when nothing is close', async () => {
    const page = await fetchSearchPage(view({ q: `zq${letters(8)}` }), null);
    expect(page).toEqual({ products: [], hasMore: false });
  });

  it('combines with the category', async () => {
    const inB = await walk(view({ q: TYPO, cat: CAT_B }));
    expect(inB.length).toBe(21);
    expect(inB.every((p) => p.cat === CAT_B)).toBe(true);
    expect(titles(inB)).toEqual(await oracle('price-asc', CAT_B));
    expect(await walk(view({ q: 'crème', cat: CAT_B }))).toEqual([]);
  });

  for (const sort of ['price-asc', 'price-desc', 'newest'] as const) {
    it(`pages by cursor in the order ${sort}, ties and prices without a number included`, async () => {
      const walked = await walk(view({ q: WORD, sort }));
      expect(titles(walked)).toEqual(await oracle(sort));
      expect(new Set(walked.map((p) => p.id)).size).toBe(walked.length);
      // Within a category too.
      expect(titles(await walk(view({ q: WORD, sort, cat: CAT_A })))).toEqual(
        await oracle(sort, CAT_A),
      );
    });
  }

  it('sorts the whole catalogue without a search', async () => {
    const first = await fetchSearchPage(view({ sort: 'price-desc', cat: CAT_A }), null);
    expect(titles(first.products)).toEqual((await oracle('price-desc', CAT_A)).slice(0, 24));
    const prices = first.products.map((p) => Number(p.price.replace(/[^0-9.]/g, '')));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('refuses bad input with a clear error', async () => {
    const anon = anonClient();
    const long = await anon.rpc('storefront_search', { p_query: 'a'.repeat(101) });
    expect(long.error).toMatchObject({ code: '22023', message: expect.stringMatching(/too long/) });
    const sort = await anon.rpc('storefront_search', { p_sort: 'price; drop table x' });
    expect(sort.error).toMatchObject({
      code: '22023',
      message: expect.stringMatching(/Unknown sort/),
    });
    const cursor = await anon.rpc('storefront_search', {
      p_sort: 'newest',
      p_after_id: '00000000-0000-0000-0000-000000000000',
    });
    expect(cursor.error).toMatchObject({ code: '22023' });
    // A hundred characters are fine.
    const ok = await anon.rpc('storefront_search', { p_query: `${WORD} ${'x'.repeat(90)}` });
    expect(ok.error).toBeNull();
  });

  it('the fold is the one products.search_text uses, for every product', async () => {
    const { data, error } = await service.from('products').select('title, cat, com, search_text');
    expect(error).toBeNull();
    // search_key is no API call for anon (docs/decisions/0202): asked as the service role.
    for (const p of data!) {
      const key = await service.rpc('search_key', { p_text: `${p.title} ${p.cat} ${p.com}` });
      expect(key.data, p.title).toBe(p.search_text);
    }
  });

  it('keeps the word list current when products are added, renamed and deleted', async () => {
    const words = async (w: string) =>
      (await service.from('catalogue_words').select('word').eq('word', w)).data;
    const renamed = await service
      .from('products')
      .update({ title: `Renamed ${NEW_WORD}` })
      .eq('title', `${WORD} Ball 00`)
      .select('id');
    expect(renamed.error).toBeNull();
    expect(await words(NEW_WORD)).toEqual([{ word: NEW_WORD }]);
    const typo = NEW_WORD.slice(0, 4) + NEW_WORD.slice(5);
    expect(titles((await fetchSearchPage(view({ q: typo }), null)).products)).toEqual([
      `Renamed ${NEW_WORD}`,
    ]);
    await service.from('products').delete().eq('id', renamed.data![0]!.id);
    expect(await words(NEW_WORD)).toEqual([]);
    expect(await words(WORD)).toEqual([{ word: WORD }]);
  });
});

// The search reads past the products read policy (for its index plans, migration 2400) and
// applies the policy's rule itself.
describe('storefront search and the products read policy', () => {
  it('its read is no API function of its own', async () => {
    const { data, error } = await anonClient()
      .schema('listing' as 'public')
      .rpc('storefront_search', { p_query: WORD });
    expect(data).toBeNull();
    expect(error?.code).toBe('PGRST106');
  });

  // Decision 0201: the word list held the words of hidden products too, readable by anyone.
  it('keeps its word list from the API roles; typo correction reads it all the same', async () => {
    const user = await createConfirmedUser();
    try {
      for (const client of [anonClient(), await signedInClient(user)]) {
        const { data, error, status } = await client
          .from('catalogue_words')
          .select('word')
          .eq('word', WORD);
        expect(data).toBeNull();
        expect(error?.code).toBe('42501');
        expect(status).toBeGreaterThanOrEqual(401);
      }
    } finally {
      await deleteUsers(service, [user]);
    }
    expect((await fetchSearchPage(view({ q: TYPO }), null)).products.length).toBeGreaterThan(0);
  });

  it('leaves out what the policy hides (a broken seller link while hiding is on)', async () => {
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    try {
      // Inside one transaction, rolled back: the other tests on this stack never see the switch.
      await db.query('begin');
      const hidden = (
        await db.query<{ id: string; link: string }>(
          'select id, link from public.products where title = $1',
          [`Ask Price ${WORD}`],
        )
      ).rows[0]!;
      const search = async () =>
        titles(
          (
            await db.query<{ title: string }>(
              'select title from public.storefront_search($1, p_limit => 1000)',
              [WORD],
            )
          ).rows,
        );
      await db.query('set local role anon');
      const before = await search();
      await db.query('reset role');
      await db.query('update public.link_health_settings set hide_broken_links = true');
      await db.query(
        `insert into public.link_checks (product_id, kind, url, status)
         values ($1, 'link', $2, 'broken')`,
        [hidden.id, hidden.link],
      );
      await db.query('set local role anon');
      const searched = await search();
      // anon reads no products table (docs/decisions/0202): the rule the read policy had, asked
      // of the function the search applies, as no admin.
      await db.query('reset role');
      const readable = await db.query<{ title: string }>(
        `select title from public.products
          where search_text like $1 and id <> all (listing.hidden_product_ids())`,
        [`%${WORD}%`],
      );
      expect(before).toContain(`Ask Price ${WORD}`);
      expect(searched).toEqual(before.filter((t) => t !== `Ask Price ${WORD}`));
      expect([...searched].sort()).toEqual(titles(readable.rows).sort());
    } finally {
      await db.query('rollback');
      await db.end();
    }
  });
});
