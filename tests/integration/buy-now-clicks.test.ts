// Buy Now click counting (REQ-INS-1 to REQ-INS-3): the counting path through the gateway as
// visitors and bots would call it, and what the database keeps afterwards. Each test's visitors
// leave from loopback addresses of their own, so the per-source limit of one test never touches
// another.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sql,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import {
  BOT_UA,
  BROWSER_UA,
  args,
  click,
  clicksOf,
  visitor,
  type ClickArgs,
} from './click-support';
import type { SupabaseClient } from '@supabase/supabase-js';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
const users: TestUser[] = [];
let admin: SupabaseClient;
let shopper: SupabaseClient;
let category = '';
const products: string[] = [];

async function newProduct(): Promise<string> {
  const { data, error } = await service
    .from('products')
    .insert(productFields(category, uniqueId('Click Product')))
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  products.push(data.id as string);
  return data.id as string;
}

/** `n` products in one insert. */
async function newProducts(n: number): Promise<string[]> {
  const { data, error } = await service
    .from('products')
    .insert(Array.from({ length: n }, () => productFields(category, uniqueId('Click Product'))))
    .select('id');
  if (error) throw new Error(error.message);
  const ids = (data as { id: string }[]).map((r) => r.id);
  products.push(...ids);
  return ids;
}

beforeAll(async () => {
  category = uniqueId('Click Cat');
  const { error } = await service.from('catagories').insert({ title: category });
  if (error) throw new Error(error.message);
  const plain = await createConfirmedUser();
  const adminUser = await createAdmin();
  users.push(plain, adminUser);
  shopper = await signedInClient(plain);
  admin = await signedInClient(adminUser);
});

afterAll(async () => {
  if (products.length) await service.from('products').delete().in('id', products);
  await service.from('catagories').delete().eq('title', category);
  await deleteUsers(service, users);
});

describe('counting', () => {
  it('anon counts a click with its day, product, catagory and page', async () => {
    const product = await newProduct();
    const page = `/?cat=${encodeURIComponent(category)}`;
    const { data, error } = await click(visitor(), args(product, randomUUID(), page));
    expect(error).toBeNull();
    expect(data).toBe('counted');
    expect(await clicksOf(product)).toBe(1);
    // Stored as the browser's URLSearchParams writes it (decision 0200).
    const byPage = await sql<{ clicks: number; today: boolean }>(
      `select clicks, day = (now() at time zone 'Europe/London')::date as today
         from public.buy_now_clicks_by_page where category = $1 and page = $2`,
      [category, `/?${new URLSearchParams({ cat: category }).toString()}`],
    );
    expect(byPage).toEqual([{ clicks: 1, today: true }]);
  });

  it('a signed-in shopper counts too', async () => {
    const product = await newProduct();
    const token = (await shopper.auth.getSession()).data.session!.access_token;
    const { data } = await click(visitor(BROWSER_UA, token), args(product));
    expect(data).toBe('counted');
    expect(await clicksOf(product)).toBe(1);
  });

  it('bots and non-browser clients count nothing', async () => {
    const product = await newProduct();
    for (const ua of [
      BOT_UA,
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36',
      'curl/8.5.0',
      'python-requests/2.32.3',
      '',
    ]) {
      const { data, error } = await click(visitor(ua), args(product));
      expect(error, ua).toBeNull();
      expect(data, ua).toBe('ignored');
    }
    expect(await clicksOf(product)).toBe(0);
  });

  it('one page view counts a product once, even with concurrent requests', async () => {
    const product = await newProduct();
    const other = await newProduct();
    const v = visitor();
    const pageView = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => click(v, args(product, pageView))),
    );
    const statuses = answers.map((a) => a.data as string).sort();
    expect(statuses.filter((s) => s === 'counted')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'repeat')).toHaveLength(11);
    expect(await clicksOf(product)).toBe(1);
    // The same page view's click on another product counts.
    expect((await click(v, args(other, pageView))).data).toBe('counted');
    expect(await clicksOf(other)).toBe(1);
  });

  it('one source counts at most the per-minute limit', async () => {
    const [{ per_source_per_minute: limit }] = await sql<{ per_source_per_minute: number }>(
      'select per_source_per_minute from private.click_settings',
    );
    expect(limit).toBeGreaterThan(0);
    // All requests within one clock minute (the limit's window).
    const second = new Date().getUTCSeconds();
    if (second > 40) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    // A different product each time: repeats of one product are not counted anyway.
    const many = await newProducts(limit + 15);
    const v = visitor();
    const statuses: string[] = [];
    for (let sent = 0; sent < limit + 15; sent += 15) {
      const batch = await Promise.all(
        many.slice(sent, sent + 15).map((product) => click(v, args(product))),
      );
      statuses.push(...batch.map((b) => b.data as string));
    }
    expect(statuses.filter((s) => s === 'counted')).toHaveLength(limit);
    expect(statuses.filter((s) => s === 'limited')).toHaveLength(15);
    let total = 0;
    for (const product of many) total += await clicksOf(product);
    expect(total).toBe(limit);
    // Another source is not held back by the first one's limit.
    expect((await click(visitor(), args(many[0]!))).data).toBe('counted');
  }, 90_000);

  it('bad input is refused with a message and writes nothing', async () => {
    const product = await newProduct();
    const v = visitor();
    const pageView = randomUUID();
    const bad: [string, ClickArgs][] = [
      ['unknown product', args(randomUUID(), pageView)],
      ['huge page', args(product, pageView, `/${'a'.repeat(100_000)}`)],
      ['page one over the limit', args(product, pageView, `/${'a'.repeat(200)}`)],
      ['not a store path', args(product, pageView, 'https://evil.example/')],
      ['script in the page', args(product, pageView, '/<script>alert(1)</script>')],
      ['page with a line break', args(product, pageView, '/\nx')],
      ['empty page', args(product, pageView, '')],
    ];
    for (const [what, a] of bad) {
      const { data, error } = await click(v, a);
      expect(data, what).toBeNull();
      expect(error?.code, what).toBe('22023');
      expect(error?.message, what).toMatch(/Unknown product|Not a store page/);
    }
    const noPageView = await v.client.rpc('count_buy_now_click', {
      p_product_id: product,
      p_page: '/',
      p_page_view: null,
    });
    expect(noPageView.error?.code).toBe('22023');
    const notUuid = await v.client.rpc('count_buy_now_click', {
      p_product_id: 'not-a-uuid',
      p_page: '/',
      p_page_view: pageView,
    });
    expect(notUuid.error).not.toBeNull();

    expect(await clicksOf(product)).toBe(0);
    const seen = await sql('select 1 from private.click_page_views where page_view = $1', [
      pageView,
    ]);
    expect(seen, 'no page view recorded').toEqual([]);
    // Not even the source's counter moved: refused before the limit is consulted.
    const source = await sql(
      `select 1 from private.click_source_minutes m, private.click_salts s
        where s.day = private.click_today()
          and m.source = sha256(s.salt || convert_to($1, 'UTF8'))`,
      [v.ip],
    );
    expect(source, 'no source counter').toEqual([]);
    // The page view is still unused: a good click with it counts.
    expect((await click(v, args(product, pageView))).data).toBe('counted');
  });
});

describe('what is stored', () => {
  it('the count tables hold counts only: no address, user agent, cookie or visitor id', async () => {
    const columns = await sql<{ table: string; columns: string }>(
      `select table_schema || '.' || table_name as table,
              string_agg(column_name || ':' || data_type, ',' order by ordinal_position) as columns
         from information_schema.columns
        where (table_schema, table_name) in (('public', 'buy_now_clicks_by_product'),
                ('public', 'buy_now_clicks_by_page'), ('private', 'click_page_views'),
                ('private', 'click_repeats'),
                ('private', 'click_source_minutes'), ('private', 'click_salts'),
                ('private', 'click_settings'))
        group by 1 order by 1`,
    );
    expect(columns).toEqual([
      {
        table: 'private.click_page_views',
        columns: 'page_view:uuid,product_id:uuid,seen_at:timestamp with time zone',
      },
      {
        table: 'private.click_repeats',
        columns: 'pair:bytea,seen_at:timestamp with time zone',
      },
      { table: 'private.click_salts', columns: 'day:date,salt:bytea' },
      { table: 'private.click_settings', columns: 'id:boolean,per_source_per_minute:integer' },
      {
        table: 'private.click_source_minutes',
        columns: 'source:bytea,minute:timestamp with time zone,clicks:integer',
      },
      {
        table: 'public.buy_now_clicks_by_page',
        columns: 'day:date,category:text,page:text,clicks:integer',
      },
      {
        table: 'public.buy_now_clicks_by_product',
        columns: 'day:date,product_id:uuid,clicks:integer',
      },
    ]);
    // The working tables are unlogged (gone after a crash, never in a backup's WAL).
    const unlogged = await sql<{ relname: string }>(
      `select relname from pg_class where relpersistence = 'u' and relkind = 'r'
          and relnamespace = 'private'::regnamespace and relname like 'click_%' order by 1`,
    );
    expect(unlogged.map((r) => r.relname)).toEqual([
      'click_page_views',
      'click_repeats',
      'click_salts',
      'click_source_minutes',
    ]);
  });

  it("neither the visitor's address nor its user agent appears anywhere after a click", async () => {
    const product = await newProduct();
    const ua = `${BROWSER_UA} Marker/${randomUUID()}`;
    const v = visitor(ua);
    expect((await click(v, args(product))).data).toBe('counted');
    const dump = await sql<{ text: string }>(
      `select concat_ws(' ',
         (select string_agg(t::text, ' ') from public.buy_now_clicks_by_product t),
         (select string_agg(t::text, ' ') from public.buy_now_clicks_by_page t),
         (select string_agg(t::text, ' ') from private.click_page_views t),
         (select string_agg(encode(t.source, 'escape'), ' ') from private.click_source_minutes t),
         (select string_agg(encode(t.pair, 'escape'), ' ') from private.click_repeats t)
       ) as text`,
    );
    expect(dump[0]!.text).not.toContain(v.ip);
    expect(dump[0]!.text).not.toContain('Marker/');
  });
});

describe('reading', () => {
  it('anon and a signed-in non-admin read nothing; an admin reads the counts', async () => {
    const product = await newProduct();
    expect((await click(visitor(), args(product))).data).toBe('counted');
    const anon = visitor().client;
    for (const [who, client] of [
      ['anon', anon],
      ['shopper', shopper],
    ] as const) {
      const rows = await client
        .from('buy_now_clicks_by_product')
        .select('*')
        .eq('product_id', product);
      expect(rows.data ?? [], who).toEqual([]);
      const top = await client.rpc('insights_top_products', {
        p_days: 7,
        p_limit: 10,
        p_offset: 0,
      });
      expect(top.error?.code, who).toBe('42501');
      const perDay = await client.rpc('insights_clicks_per_day', { p_days: 7 });
      expect(perDay.error?.code, who).toBe('42501');
    }
    const rows = await admin
      .from('buy_now_clicks_by_product')
      .select('clicks')
      .eq('product_id', product);
    expect(rows.data).toEqual([{ clicks: 1 }]);
    const perDay = await admin.rpc('insights_clicks_per_day', { p_days: 7 });
    expect(perDay.error).toBeNull();
    expect(perDay.data).toHaveLength(7);
    expect((perDay.data as { clicks: number }[]).at(-1)!.clicks).toBeGreaterThanOrEqual(1);
    const categories = await admin.rpc('insights_top_categories', { p_days: 7, p_limit: 1000 });
    expect(categories.data).toContainEqual({ category, clicks: expect.any(Number) });
    const unclicked = await admin.rpc('insights_products_without_clicks', {
      p_days: 7,
      p_limit: 1000,
    });
    expect(unclicked.error).toBeNull();
    expect((unclicked.data as { product_id: string }[]).map((p) => p.product_id)).not.toContain(
      product,
    );
    const bad = await admin.rpc('insights_clicks_per_day', { p_days: 0 });
    expect(bad.error?.code).toBe('22023');
  });

  it('earlier days count in the 7, 30 and 90 day periods (the daily window totals)', async () => {
    const recent = await newProduct();
    const old = await newProduct();
    // As the counting function leaves earlier days; then the day's window totals are recomputed.
    await sql(
      `insert into public.buy_now_clicks_by_product (day, product_id, clicks)
       values (private.click_today() - 3, $1, 5), (private.click_today() - 40, $1, 7),
              (private.click_today() - 40, $2, 2), (private.click_today() - 95, $2, 50)`,
      [recent, old],
    );
    await sql('update private.click_windows_state set computed_for = null');
    expect((await click(visitor(), args(recent))).data).toBe('counted');
    const clicksIn = async (days: number, product: string) => {
      const { data, error } = await admin.rpc('insights_top_products', {
        p_days: days,
        p_limit: 1000,
        p_offset: 0,
      });
      expect(error).toBeNull();
      return (data as { product_id: string; clicks: number }[]).find(
        (r) => r.product_id === product,
      )?.clicks;
    };
    const unclicked = async (days: number) => {
      const { data } = await admin.rpc('insights_products_without_clicks', {
        p_days: days,
        p_limit: 1000,
      });
      return (data as { product_id: string }[]).map((r) => r.product_id);
    };
    expect(await clicksIn(7, recent)).toBe(6);
    expect(await clicksIn(30, recent)).toBe(6);
    expect(await clicksIn(90, recent)).toBe(13);
    expect(await clicksIn(30, old)).toBeUndefined();
    expect(await clicksIn(90, old)).toBe(2);
    expect(await unclicked(30)).toContain(old);
    expect(await unclicked(90)).not.toContain(old);
    expect(await unclicked(7)).not.toContain(recent);
  });

  it('top products pages through every product with clicks, most first', async () => {
    const a = await newProduct();
    const b = await newProduct();
    for (let i = 0; i < 3; i++) expect((await click(visitor(), args(a))).data).toBe('counted');
    expect((await click(visitor(), args(b))).data).toBe('counted');
    const all: { product_id: string; clicks: number }[] = [];
    for (let offset = 0; ; offset += 1000) {
      const { data, error } = await admin.rpc('insights_top_products', {
        p_days: 30,
        p_limit: 1000,
        p_offset: offset,
      });
      expect(error).toBeNull();
      all.push(...(data as typeof all));
      if ((data as unknown[]).length < 1000) break;
    }
    const clicks = all.map((r) => r.clicks);
    expect(clicks).toEqual([...clicks].sort((x, y) => y - x));
    const ia = all.findIndex((r) => r.product_id === a);
    const ib = all.findIndex((r) => r.product_id === b);
    expect(all[ia]!.clicks).toBe(3);
    expect(all[ib]!.clicks).toBe(1);
    expect(ia).toBeLessThan(ib);
  });
});
