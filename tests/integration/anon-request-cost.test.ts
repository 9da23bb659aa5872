// Anonymous requests cost milliseconds whatever they ask (docs/decisions/0202): no embedding
// of products for anon (nor rows for a signed-in non-admin, who is anyone with an e-mail
// address), the helpers price_number and search_key not callable through the API, every text
// argument of an RPC anon may call refused over its limit before the work, and the anon role's
// statement timeout of 1 s applied by PostgREST. Every request goes over HTTP with supabase-js.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers } from './db-test-helpers.ts';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
} from '../support/stack.ts';

const service = serviceClient();
const anon = anonClient();
let user: SupabaseClient;
const users: TestUser[] = [];

/** 7 MB of digit groups: what made price_number's regular expressions run for seconds. */
const HUGE_PRICE = '1,000'.repeat(1_400_000);
/** 1,000,000 characters that Unicode normalisation works on: search_key's seconds. */
const HUGE_TEXT = 'é'.repeat(1_000_000);
/** Well under a second on a quiet machine; generous for a shared one. */
const FAST_MS = 2_000;

async function timed<T>(run: () => PromiseLike<T>): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await run();
  return { ms: performance.now() - t0, result };
}

beforeAll(async () => {
  const plain = await createConfirmedUser();
  users.push(plain);
  user = await signedInClient(plain);
});

afterAll(async () => {
  await deleteUsers(service, users);
});

describe('embedding', () => {
  it('refuses anon the nested embedding of products and categories, at once', async () => {
    const nested = await timed(() =>
      anon.from('products').select('id,c:catagories(*,products(*,catagories(*)))').limit(1000),
    );
    expect(nested.result.error?.code).toBe('42501');
    expect(nested.result.data).toBeNull();
    expect(nested.ms).toBeLessThan(FAST_MS);

    const throughCategories = await anon
      .from('catagories')
      .select('*,products(*,catagories(*,products(id)))');
    expect(throughCategories.error?.code).toBe('42501');

    // The storefront RPC answers products rows: embedding from them reaches the table too.
    const throughRpc = await anon
      .rpc('storefront_page', { p_limit: 5 })
      .select('id,catagories(title,products(id))');
    expect(throughRpc.error?.code).toBe('42501');
  });

  it('gives a signed-in non-admin no product rows to multiply', async () => {
    const direct = await user.from('products').select('id').limit(5);
    expect(direct.error).toBeNull();
    expect(direct.data).toEqual([]);
    const { data, error } = await timed(() =>
      user.from('catagories').select('title,products(id,catagories(title,products(id)))'),
    ).then((t) => t.result);
    expect(error).toBeNull();
    expect(data!.length).toBeGreaterThan(0);
    for (const category of data!) expect(category.products).toEqual([]);
  });

  it('still serves the storefront through its RPCs, to anon and to a signed-in non-admin', async () => {
    for (const client of [anon, user]) {
      const page = await client.rpc('storefront_page', { p_limit: 3 });
      expect(page.error).toBeNull();
      expect(page.data).toHaveLength(3);
      const { data: slug } = await service.from('products').select('slug').limit(1).single();
      const product = await client.rpc('product_page', { p_slug: slug!.slug });
      expect(product.data).toMatchObject({ status: 'found' });
      const summary = await client.rpc('sitemap_summary');
      expect(summary.data).toMatchObject({ products: expect.any(Number) });
    }
  });
});

describe("the read policy's rule, applied by the storefront's definer reads", () => {
  it('leaves a hidden product (broken seller link, hiding on) out of the page, its page and the sitemap', async () => {
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    try {
      // Inside one transaction, rolled back: the other tests on this stack never see the switch.
      await db.query('begin');
      const { rows } = await db.query<{ id: string; slug: string; link: string; cat: string }>(
        'select id, slug, link, cat from public.products order by price_value, title, id limit 1',
      );
      const product = rows[0]!;
      const asAnon = async () => {
        await db.query('set local role anon');
        const page = await db.query<{ id: string }>(
          'select id from public.storefront_page(p_cat => $1, p_limit => 1000)',
          [product.cat],
        );
        const one = await db.query<{ page: { status: string } }>(
          'select public.product_page($1) as page',
          [product.slug],
        );
        const map = await db.query<{ slugs: [string, string][] }>(
          'select public.sitemap_products(1) as slugs',
        );
        const summary = await db.query<{ s: { products: number } }>(
          'select public.sitemap_summary() as s',
        );
        await db.query('reset role');
        return {
          listed: page.rows.some((r) => r.id === product.id),
          status: one.rows[0]!.page.status,
          mapped: map.rows[0]!.slugs.some(([slug]) => slug === product.slug),
          count: summary.rows[0]!.s.products,
        };
      };
      const before = await asAnon();
      expect(before).toMatchObject({ listed: true, status: 'found', mapped: true });
      await db.query('update public.link_health_settings set hide_broken_links = true where true');
      await db.query(
        `insert into public.link_checks (product_id, kind, url, status)
         values ($1, 'link', $2, 'broken')`,
        [product.id, product.link],
      );
      expect(await asAnon()).toEqual({
        listed: false,
        status: 'missing',
        mapped: false,
        count: before.count - 1,
      });
    } finally {
      await db.query('rollback');
      await db.end();
    }
  });
});

describe('helpers and arguments', () => {
  it('refuses anon and a signed-in non-admin price_number and search_key, huge or not', async () => {
    for (const client of [anon, user]) {
      for (const [fn, args] of [
        ['price_number', { p_price: HUGE_PRICE }],
        ['search_key', { p_text: HUGE_TEXT }],
        ['price_number', { p_price: '£1,299.99' }],
      ] as const) {
        const { ms, result } = await timed(() => client.rpc(fn, args));
        expect(result.error?.code, `${fn} refused`).toBe('42501');
        expect(ms, `${fn} answered within ${FAST_MS} ms`).toBeLessThan(FAST_MS);
      }
    }
    // The database itself still has them (the storefront's definer functions use them).
    const { data } = await service.rpc('price_number', { p_price: '£1,299.99' });
    expect(data).toBe(1299.99);
  });

  it('refuses a huge cursor or category of the storefront RPCs before reading it', async () => {
    const cursor = {
      p_after_price: HUGE_PRICE,
      p_after_title: 'a',
      p_after_id: randomUUID(),
    };
    for (const [fn, args, message] of [
      ['storefront_page', cursor, "The cursor's price is too long (40 characters at most)"],
      ['storefront_page', { p_cat: HUGE_TEXT }, 'The category is too long (80 characters at most)'],
      ['storefront_search', cursor, "The cursor's price is too long (40 characters at most)"],
      [
        'storefront_search',
        { p_cat: HUGE_TEXT },
        'The category is too long (80 characters at most)',
      ],
      [
        'storefront_search',
        { p_query: HUGE_TEXT },
        'Search text is too long (100 characters at most)',
      ],
    ] as const) {
      const { ms, result } = await timed(() => anon.rpc(fn, args));
      expect(result.error?.code, `${fn} refused`).toBe('22023');
      expect(result.error?.message).toBe(message);
      expect(ms, `${fn} answered within ${FAST_MS} ms`).toBeLessThan(FAST_MS);
    }
    // The longest real values still pass.
    const ok = await anon.rpc('storefront_page', {
      p_cat: 'x'.repeat(80),
      p_after_price: '9'.repeat(40),
      p_after_title: 'x'.repeat(120),
      p_after_id: randomUUID(),
    });
    expect(ok.error).toBeNull();
  });

  it('answers a slug longer than any product has with "missing", at once', async () => {
    const { ms, result } = await timed(() => anon.rpc('product_page', { p_slug: HUGE_TEXT }));
    expect(result.data).toEqual({ status: 'missing' });
    expect(ms).toBeLessThan(FAST_MS);
  });

  it('answers every RPC anon or a signed-in non-admin may call fast, whatever its arguments', async () => {
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    let rows: { name: string; anon: boolean; args: string[] | null; types: string[] }[];
    try {
      ({ rows } = await db.query(
        `select p.proname as name, has_function_privilege('anon', p.oid, 'execute') as anon,
                p.proargnames as args,
                array(select format_type(t, null) from unnest(p.proargtypes) as t) as types
           from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and p.prokind = 'f'
            and (has_function_privilege('anon', p.oid, 'execute')
                 or has_function_privilege('authenticated', p.oid, 'execute'))`,
      ));
    } finally {
      await db.end();
    }
    expect(rows.map((r) => r.name)).toContain('storefront_page');
    expect(rows.map((r) => r.name)).not.toContain('price_number');
    expect(rows.map((r) => r.name)).not.toContain('search_key');
    // 1 MB a text: several of them stay under the gateway's 8 MB body limit.
    const big = '1,000'.repeat(200_000);
    const value = (type: string): unknown =>
      ({
        text: big,
        'text[]': Array.from({ length: 20_000 }, () => big.slice(0, 40)),
        jsonb: { search: big, cat: big, sort: big },
        uuid: randomUUID(),
        'uuid[]': Array.from({ length: 20_000 }, () => randomUUID()),
        integer: 1,
        boolean: false,
        'timestamp with time zone': new Date().toISOString(),
      })[type] ?? null;
    for (const row of rows) {
      const args = Object.fromEntries(
        row.types.map((t, i) => [row.args?.[i] ?? `$${i}`, value(t)]),
      );
      for (const [who, client] of [
        ['anon', anon],
        ['signed-in non-admin', user],
      ] as const) {
        if (who === 'anon' && !row.anon) continue;
        const { ms, result } = await timed(() => client.rpc(row.name, args));
        expect(result.error?.code, `${who} ${row.name}: no statement timeout`).not.toBe('57014');
        expect(ms, `${who} ${row.name} answered within ${FAST_MS} ms`).toBeLessThan(FAST_MS);
      }
    }
  });
});

describe('statement timeout', () => {
  it('is 1 s for anon, and PostgREST applies it to an anonymous request', async () => {
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    // A probe only this test creates and drops: what an anonymous request's session has set.
    const probe = `anon_cost_probe_${randomUUID().slice(0, 8)}`;
    try {
      const { rows } = await db.query<{ config: string[] }>(
        `select coalesce(r.rolconfig, '{}') as config from pg_roles r where r.rolname = 'anon'`,
      );
      expect(rows[0]!.config).toContain('statement_timeout=1s');
      // The sitemap's calls, whose cost follows the catalogue's size only, keep the old 3 s.
      const sitemap = await db.query<{ name: string; config: string[] }>(
        `select p.proname as name, p.proconfig as config from pg_proc p
          where p.pronamespace = 'public'::regnamespace
            and p.proname in ('sitemap_products', 'sitemap_summary')`,
      );
      expect(sitemap.rows).toHaveLength(2);
      for (const fn of sitemap.rows) expect(fn.config, fn.name).toContain('statement_timeout=3s');
      await db.query(
        `create function public.${probe}() returns text language sql stable set search_path = ''
           as $$ select current_setting('statement_timeout') $$;
         grant execute on function public.${probe}() to anon;
         notify pgrst, 'reload schema';`,
      );
      let seen: unknown = null;
      for (let i = 0; i < 50 && seen === null; i++) {
        const { data } = await anon.rpc(probe);
        if (data) seen = data;
        else await new Promise((r) => setTimeout(r, 200));
      }
      expect(seen).toBe('1s');
    } finally {
      await db.query(`drop function if exists public.${probe}(); notify pgrst, 'reload schema';`);
      await db.end();
    }
  });
});
