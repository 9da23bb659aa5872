// Buy Now counting on a hosted project (decision 0200): the visitor's address comes from the
// platform edge's own header, never from what a client writes; a source is an IPv4 address or an
// IPv6 /48; a click stores the store's page shape only; a product the visitor cannot see is
// refused like an unknown one. Calls over HTTP go through the gateway with supabase-js; what
// hosted's edge sends (which a loopback socket cannot) is set as request.headers in SQL as the
// anon role, inside a transaction that is rolled back, so no other test sees it.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, stackEnv, serviceClient } from '../support/stack.ts';
import { productFields } from './db-test-helpers.ts';
import { BROWSER_UA, args, click, clicksOf, visitor } from './click-support';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
let category = '';
const products: { id: string; slug: string }[] = [];

async function newProduct(): Promise<{ id: string; slug: string }> {
  const { data, error } = await service
    .from('products')
    .insert(productFields(category, uniqueId('Privacy Product')))
    .select('id, slug')
    .single();
  if (error) throw new Error(error.message);
  products.push(data as { id: string; slug: string });
  return data as { id: string; slug: string };
}

beforeAll(async () => {
  category = uniqueId('Privacy Cat');
  const { error } = await service.from('catagories').insert({ title: category });
  if (error) throw new Error(error.message);
});

afterAll(async () => {
  if (products.length)
    await service
      .from('products')
      .delete()
      .in(
        'id',
        products.map((p) => p.id),
      );
  await service.from('catagories').delete().eq('title', category);
});

/**
 * Runs `body` in a transaction that is rolled back. `as(headers)` makes the following statements
 * run as anon with those request headers, as PostgREST would set them for an API request.
 */
async function rolledBack(
  body: (db: pg.Client, as: (headers: Record<string, string>) => Promise<void>) => Promise<void>,
) {
  const db = new pg.Client({ connectionString: stackEnv().DB_URL });
  await db.connect();
  try {
    await db.query('begin');
    await body(db, async (headers) => {
      await db.query('reset role');
      await db.query("select set_config('request.headers', $1, true)", [
        JSON.stringify({ 'user-agent': BROWSER_UA, ...headers }),
      ]);
      await db.query('set local role anon');
    });
  } finally {
    await db.query('rollback');
    await db.end();
  }
}

/** count_buy_now_click as the current role: its answer, or the error's code and message. */
async function countAs(db: pg.Client, productId: string, page = '/') {
  await db.query('savepoint c');
  try {
    const { rows } = await db.query<{ a: string }>(
      'select public.count_buy_now_click($1, $2, $3) as a',
      [productId, page, randomUUID()],
    );
    await db.query('release savepoint c');
    return rows[0]!.a;
  } catch (e) {
    await db.query('rollback to savepoint c');
    const err = e as { code?: string; message: string };
    return `${err.code}: ${err.message}`;
  }
}

describe("the visitor's address", () => {
  it('made-up address headers through the gateway change nothing the database sees', async () => {
    const forged = {
      'cf-connecting-ip': '192.0.2.9',
      'x-forwarded-for': '192.0.2.10',
      'x-real-ip': '192.0.2.11',
      'sb-forwarded-for': '192.0.2.12',
      forwarded: 'for=192.0.2.13',
      'true-client-ip': '192.0.2.14',
    };
    const honest = visitor();
    const liar = visitor(BROWSER_UA, undefined, { headers: forged });
    expect((await honest.client.rpc('request_client_address')).data).toBe(honest.ip);
    const { data, error } = await liar.client.rpc('request_client_address');
    expect(error).toBeNull();
    expect(data).toBe(liar.ip);

    // Counting keys on the same address: the liar rotating its made-up values gets no fresh
    // source, and another socket claiming the same made-up address is another source.
    const product = await newProduct();
    expect((await click(liar, args(product.id))).data).toBe('counted');
    for (let i = 0; i < 3; i++) {
      const rotating = visitor(BROWSER_UA, undefined, {
        ip: liar.ip,
        headers: {
          'cf-connecting-ip': `192.0.2.${20 + i}`,
          'x-forwarded-for': `192.0.2.${30 + i}`,
        },
      });
      expect((await click(rotating, args(product.id))).data).toBe('repeat');
    }
    const sameClaim = visitor(BROWSER_UA, undefined, { headers: forged });
    expect((await click(sameClaim, args(product.id))).data).toBe('counted');
    expect(await clicksOf(product.id)).toBe(2);
  });

  it("reads hosted's CF-Connecting-IP, not the ends of its X-Forwarded-For", async () => {
    // As hosted delivers it: Cloudflare kept the client's own X-Forwarded-For and appended the
    // connecting address, the platform's load balancer appended its own; CF-Connecting-IP is the
    // connecting address, set by the edge whatever the client sent.
    const lb = '10.20.0.1';
    const product = await newProduct();
    await rolledBack(async (db, as) => {
      await as({
        'x-forwarded-for': `198.51.100.7, 203.0.113.10, ${lb}`,
        'cf-connecting-ip': '203.0.113.10',
      });
      expect(await countAs(db, product.id)).toBe('counted');
      // Another shopper behind the same load balancer is another source (not one shared one).
      await as({ 'x-forwarded-for': `203.0.113.20, ${lb}`, 'cf-connecting-ip': '203.0.113.20' });
      expect(await countAs(db, product.id)).toBe('counted');
      // The first shopper again with a new made-up first entry: the same source, a repeat.
      await as({
        'x-forwarded-for': `192.0.2.99, 203.0.113.10, ${lb}`,
        'cf-connecting-ip': '203.0.113.10',
      });
      expect(await countAs(db, product.id)).toBe('repeat');
      const { rows } = await db.query<{ a: string }>('select public.request_client_address() as a');
      expect(rows[0]!.a).toBe('203.0.113.10');
      // No platform header: no address, one shared source (never a fresh one per made-up value).
      await as({ 'x-forwarded-for': '192.0.2.1' });
      const none = await db.query<{ a: string | null }>(
        'select public.request_client_address() as a',
      );
      expect(none.rows[0]!.a).toBeNull();
    });
  });

  it('a project behind another edge names its header in the setting', async () => {
    await rolledBack(async (db, as) => {
      await db.query(
        "update private.client_address_settings set header = 'x-forwarded-for', hops_from_right = 1 where true",
      );
      await as({
        'x-forwarded-for': '192.0.2.1, 203.0.113.30, 10.0.0.2',
        'cf-connecting-ip': '192.0.2.2',
      });
      const { rows } = await db.query<{ a: string }>('select public.request_client_address() as a');
      expect(rows[0]!.a).toBe('203.0.113.30');
    });
  });
});

describe('IPv6 sources', () => {
  it('addresses in one /48 share one limit and one repeat window, whatever their /64', async () => {
    const [a, b, c, d, e] = await Promise.all(Array.from({ length: 5 }, () => newProduct()));
    // Both headers carry the address, so this fails on the /64 rule, not on the header.
    const from = (address: string) => ({ 'x-forwarded-for': address, 'cf-connecting-ip': address });
    await rolledBack(async (db, as) => {
      await db.query('update private.click_settings set per_source_per_minute = 3 where true');
      const answers: string[] = [];
      for (const [i, product] of [a!, b!, c!, d!].entries()) {
        await as(from(`2001:db8:4a:${i + 1}::1`));
        answers.push(await countAs(db, product.id));
      }
      expect(answers).toEqual(['counted', 'counted', 'counted', 'limited']);
      // Another /48 is another source.
      await as(from('2001:db8:4b:1::1'));
      expect(await countAs(db, d!.id)).toBe('counted');
      // One /48 counts a product once in the repeat window, from any of its /64s.
      await as(from('2001:db8:4b:2::5'));
      expect(await countAs(db, d!.id)).toBe('repeat');
      await as(from('2001:db8:4c:1::1'));
      expect(await countAs(db, e!.id)).toBe('counted');
      await as(from('2001:db8:4c:ffff::1'));
      expect(await countAs(db, e!.id)).toBe('repeat');
    });
  });
});

describe('what a click stores of its page', () => {
  const tracking =
    'fbclid=IwAR0abc&gclid=Cj0KCQ&msclkid=3f1a&mc_eid=8d2f&mc_cid=77&utm_source=news' +
    '&email=ann.smith%40example.com&q=ann+smith+address&ref=ann%40example.com';
  const leaks = ['fbclid', 'gclid', 'msclkid', 'mc_eid', 'mc_cid', 'utm', 'email', 'ann', 'q='];

  it('ad click ids, mail ids, e-mail addresses and search words are not stored', async () => {
    const product = await newProduct();
    const other = await newProduct();
    const cat = new URLSearchParams({ cat: category }).toString();
    const sent = [
      [product.id, `/?${tracking}&cat=${encodeURIComponent(category)}&sort=newest`],
      [other.id, `/p/${product.slug}?${tracking}`],
      [other.id, `/?cat=ann.smith%40example.com&${tracking}`],
    ] as const;
    for (const [id, page] of sent) {
      const { data, error } = await click(visitor(), args(id, randomUUID(), page));
      expect(error, page).toBeNull();
      expect(data, page).toBe('counted');
    }
    const rows = await sql<{ page: string }>(
      'select page from public.buy_now_clicks_by_page where category = $1 order by page',
      [category],
    );
    expect(rows.map((r) => r.page).sort()).toEqual(
      ['/', `/?${cat}&sort=newest`, `/p/${product.slug}`].sort(),
    );
    for (const { page } of rows) for (const leak of leaks) expect(page).not.toContain(leak);
  });

  it('a page that is no store page is refused and writes nothing', async () => {
    const product = await newProduct();
    for (const page of [
      `/contact?${tracking}`,
      '/p/no-such-product-page',
      '/p/Upper-Case',
      '/admin',
      `/about?email=ann%40example.com`,
    ]) {
      const { data, error } = await click(visitor(), args(product.id, randomUUID(), page));
      expect(data, page).toBeNull();
      expect(error?.code, page).toBe('22023');
    }
    expect(await clicksOf(product.id)).toBe(0);
  });
});

describe('rows counted before the rule', () => {
  it('are rewritten to the store page shape and added up', async () => {
    const cat = new URLSearchParams({ cat: category }).toString();
    await rolledBack(async (db) => {
      // A day no Insights period reads, so other tests never see these rows.
      const day = 'private.click_today() - 400';
      await db.query(
        `insert into public.buy_now_clicks_by_page (day, category, page, clicks)
         values (${day}, $1, $2, 2), (${day}, $1, $3, 3), (${day}, $1, $4, 1),
                (${day}, $1, $5, 4), (${day}, $1, '/', 10)`,
        [
          category,
          `/?cat=${encodeURIComponent(category)}&fbclid=IwAR0abc&email=ann%40example.com`,
          `/?${cat}`,
          '/contact?email=ann%40example.com',
          '/?q=ann+smith&gclid=Cj0K',
        ],
      );
      await db.query('select private.normalise_click_pages()');
      const { rows } = await db.query<{ page: string; clicks: number }>(
        `select page, clicks from public.buy_now_clicks_by_page
          where day = ${day} and category = $1 order by page`,
        [category],
      );
      expect(rows).toEqual([
        { page: '/', clicks: 15 },
        { page: `/?${cat}`, clicks: 5 },
      ]);
    });
  });
});

describe('hidden products', () => {
  it('a product hidden for a broken seller link is refused exactly like an unknown id', async () => {
    const hidden = await newProduct();
    const shown = await newProduct();
    await rolledBack(async (db, as) => {
      const { rows } = await db.query<{ link: string }>(
        'select link from public.products where id = $1',
        [hidden.id],
      );
      await db.query('update public.link_health_settings set hide_broken_links = true where true');
      await db.query(
        `insert into public.link_checks (product_id, kind, url, status)
         values ($1, 'link', $2, 'broken')`,
        [hidden.id, rows[0]!.link],
      );
      await as({ 'cf-connecting-ip': '203.0.113.77' });
      const unknown = await countAs(db, randomUUID());
      expect(unknown).toBe('22023: Unknown product');
      expect(await countAs(db, hidden.id)).toBe(unknown);
      expect(await countAs(db, hidden.id, `/p/${hidden.slug}`)).toBe(unknown);
      expect(await countAs(db, shown.id)).toBe('counted');
      await db.query('reset role');
      const counted = await db.query(
        'select 1 from public.buy_now_clicks_by_product where product_id = $1',
        [hidden.id],
      );
      expect(counted.rows).toEqual([]);
    });
  });
});
