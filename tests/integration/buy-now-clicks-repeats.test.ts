// Buy Now clicks (REQ-INS-2): a reload and a second click count once. One source (the client
// address, IPv6 by its /48, hashed with the day's salt) counts a product once within the repeat
// window, whatever page view or store page it claims; the window's pairs are private, unlogged
// and wiped when they age. The rest of counting is in buy-now-clicks.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, serviceClient } from '../support/stack.ts';
import { productFields } from './db-test-helpers.ts';
import { args, click, clicksOf, visitor } from './click-support';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
let category = '';
const products: string[] = [];

async function newProduct(): Promise<string> {
  const { data, error } = await service
    .from('products')
    .insert(productFields(category, uniqueId('Repeat Product')))
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  products.push(data.id as string);
  return data.id as string;
}

beforeAll(async () => {
  category = uniqueId('Repeat Cat');
  const { error } = await service.from('catagories').insert({ title: category });
  if (error) throw new Error(error.message);
});

afterAll(async () => {
  if (products.length) await service.from('products').delete().in('id', products);
  await service.from('catagories').delete().eq('title', category);
});

describe('repeats from one source', () => {
  it('one source counts a product once in the repeat window, even from a new page view', async () => {
    const product = await newProduct();
    const other = await newProduct();
    const v = visitor();
    expect((await click(v, args(product))).data).toBe('counted');
    // A reload (a new page view id) and clicking again, also racing: a repeat.
    expect((await click(v, args(product))).data).toBe('repeat');
    const raced = await Promise.all(Array.from({ length: 8 }, () => click(v, args(product))));
    expect(raced.map((a) => a.data)).toEqual(Array(8).fill('repeat'));
    // From another store page too: the product and the source decide.
    expect((await click(v, args(product, randomUUID(), '/?cat=Other'))).data).toBe('repeat');
    expect(await clicksOf(product)).toBe(1);
    // Another product from the same source counts; another source counts the same product.
    expect((await click(v, args(other))).data).toBe('counted');
    expect((await click(visitor(), args(product))).data).toBe('counted');
    expect(await clicksOf(product)).toBe(2);
    expect(await clicksOf(other)).toBe(1);
  });

  it('after the repeat window the same source counts the product again', async () => {
    const [{ window }] = await sql<{ window: string }>(
      'select private.click_repeat_window()::text as window',
    );
    expect(window).toBe('00:30:00');
    const product = await newProduct();
    const v = visitor();
    expect((await click(v, args(product))).data).toBe('counted');
    expect((await click(v, args(product))).data).toBe('repeat');
    // As the database owner: this source's click on the product is a window (and a second) old.
    const pair = `sha256(sha256(s.salt || convert_to($1, 'UTF8')) || uuid_send($2::uuid))`;
    const aged = await sql(
      `update private.click_repeats r
          set seen_at = now() - private.click_repeat_window() - interval '1 second'
         from private.click_salts s
        where s.day = private.click_today() and r.pair = ${pair}
       returning 1`,
      [v.ip, product],
    );
    expect(aged, 'the pair is remembered under the salted source and product').toHaveLength(1);
    expect((await click(v, args(product))).data).toBe('counted');
    expect(await clicksOf(product)).toBe(2);
    // Aged pairs are wiped with the other working rows.
    await sql(
      `update private.click_repeats r
          set seen_at = now() - private.click_repeat_window() - interval '1 second'
         from private.click_salts s
        where s.day = private.click_today() and r.pair = ${pair}`,
      [v.ip, product],
    );
    await sql('select private.wipe_click_sources()');
    const left = await sql(
      `select 1 from private.click_repeats r, private.click_salts s
        where s.day = private.click_today() and r.pair = ${pair}`,
      [v.ip, product],
    );
    expect(left).toEqual([]);
  });

  it('a source is one IPv4 address or one IPv6 /48 (decision 0200)', async () => {
    // The address from a header value (hops from the right), then the source it counts as.
    const source = async (value: string | null, hops = 0) =>
      (
        await sql<{ s: string }>(
          'select private.click_source_key(private.client_address_from($1, $2)) as s',
          [value, hops],
        )
      )[0]!.s;
    expect(await source('203.0.113.7')).toBe('203.0.113.7');
    expect(await source('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(await source('198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(await source('203.0.113.7, 10.0.0.1', 1)).toBe('203.0.113.7');
    expect(await source('::ffff:203.0.113.7')).toBe('203.0.113.7');
    const v6 = await source('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(v6).toBe('2001:db8:1::/48');
    expect(await source('[2001:DB8:1:2::9]:443')).toBe(v6);
    expect(await source('2001:db8:1:ffff::1')).toBe(v6);
    expect(await source('2001:db8:2::1')).not.toBe(v6);
    // No address is one shared source, never a fresh one per made-up value.
    expect(await source(null)).toBe('');
    expect(await source('not an address')).toBe('');
    expect(await source('10.0.0.0/8')).toBe('');
  });
});

describe("the repeat window is the database's own", () => {
  it('no API role reads or changes the repeat window or its pairs', async () => {
    const grants = await sql<{ what: string }>(
      `select r.role || ' ' || o.what as what
         from unnest(array['anon', 'authenticated', 'service_role']) as r (role),
              lateral (
                select 'click_repeats' as what
                 where has_table_privilege(r.role, 'private.click_repeats',
                                           'select,insert,update,delete,truncate')
                union all
                select 'click_repeat_window'
                 where has_function_privilege(r.role, 'private.click_repeat_window()', 'execute')
                union all
                select 'click_source_key'
                 where has_function_privilege(r.role, 'private.click_source_key(inet)', 'execute')
                union all
                select 'client_address_from'
                 where has_function_privilege(r.role,
                         'private.client_address_from(text,integer)', 'execute')
              ) o`,
    );
    expect(grants).toEqual([]);
    // The counting path takes no window or time from its caller.
    const signatures = await sql<{ f: string }>(
      `select p.oid::regprocedure::text as f from pg_proc p
        where p.proname in ('count_buy_now_click', 'count_click') order by 1`,
    );
    expect(signatures.map((r) => r.f)).toEqual([
      'click_counting.count_click(uuid,text,uuid,uuid)',
      'count_buy_now_click(uuid,text,uuid,uuid)',
    ]);
  });
});
