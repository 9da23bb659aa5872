// Offers for the bulk products of scripts/seed-bulk.ts (REQ-OFF-1, REQ-OFF-3, REQ-OFF-4): every
// bulk product gets N offers, the primary one (its own link and price, the seller of
// bulk-seed.example.com) and N − 1 from a handful of UK sports sellers, at prices around the
// product's, about 10% of them confirmed 8–40 days ago (stale; past 30 days hidden), with one or
// two price-history rows each. Everything is SQL over the batch's rows (no row built in
// JavaScript): 3,000,000 offers load in one INSERT … SELECT per batch of products.
//
// The values are a function of the product's link and the offer's number (hashtextextended), so
// the same N gives the same offers. The summary columns the database keeps on products
// (price_value, offer_count, price_checked_at, price_fresh_until, buy_*) are written by the
// fast path itself, with the offers contract's rules; bench/offers.ts checks them against the
// database's own refresh.
import type pg from 'pg';

/** The sellers the extra offers come from: [name, site, network, affiliate param, value]. */
export const BULK_SELLERS: [string, string, string | null, string | null, string | null][] = [
  ['Sports Direct', 'https://www.sportsdirect.com', 'Awin', 'awc', 'mar-bulk-seed'],
  ['JD Sports', 'https://www.jdsports.co.uk', 'Rakuten', null, null],
  ['Decathlon', 'https://www.decathlon.co.uk', 'Awin', 'awc', 'mar-bulk-seed'],
  ['Pro:Direct Sport', 'https://www.prodirectsport.com', 'Direct', null, null],
  ['Wiggle', 'https://www.wiggle.com', 'Awin', null, null],
  ['Amazon UK', 'https://www.amazon.co.uk', 'Amazon Associates', 'tag', 'marbulk-21'],
  ['Start Fitness', 'https://www.startfitness.co.uk', null, null, null],
];
/** The primary offers' seller: the host of the bulk products' own links. */
const PRIMARY_SELLER: [string, string] = ['bulk-seed.example.com', 'https://bulk-seed.example.com'];

export interface BulkSellers {
  primary: string;
  ids: string[];
  sites: string[];
}

/** Whether the database has offers yet (migration …2800). */
export async function hasOffers(client: pg.Client): Promise<boolean> {
  const r = await client.query<{ ok: boolean }>(
    "select to_regclass('public.offers') is not null as ok",
  );
  return r.rows[0]!.ok;
}

/** The sellers, added when missing (through the table and its triggers, like an admin). */
export async function ensureBulkSellers(client: pg.Client): Promise<BulkSellers> {
  const all = [[...PRIMARY_SELLER, null, null, null], ...BULK_SELLERS];
  await client.query(
    `insert into public.sellers (name, site, network, affiliate_param, affiliate_value)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
     on conflict do nothing`,
    [0, 1, 2, 3, 4].map((c) => all.map((s) => s[c])),
  );
  const r = await client.query<{ id: string; site: string; host: string }>(
    'select id, site, host from public.sellers where host = any($1)',
    [all.map((s) => new URL(s[1]!).host.replace(/^www\./, ''))],
  );
  const byHost = new Map(r.rows.map((s) => [s.host, s]));
  const find = (site: string) => {
    const s = byHost.get(new URL(site).host.replace(/^www\./, ''));
    if (!s) throw new Error(`no seller for ${site}`);
    return s;
  };
  const others = BULK_SELLERS.map((s) => find(s[1]));
  return {
    primary: find(PRIMARY_SELLER[1]).id,
    ids: others.map((s) => s.id),
    sites: others.map((s) => s.site.replace(/\/+$/, '')),
  };
}

/** Store settings the summary follows (days until stale / hidden). */
export async function staleDays(client: pg.Client): Promise<number> {
  const r = await client.query<{ d: number }>(
    'select coalesce((select price_stale_after_days from public.store_settings limit 1), 7) as d',
  );
  return r.rows[0]!.d;
}

/**
 * The offers of the products in `src` (columns link, price), numbered k = from..$n. Parameters:
 * $n offers per product, $primary seller id, $ids / $sites the other sellers (same order).
 * Columns: id, product_id, product_link, k, is_primary, seller_id, link, price_gbp, delivery_gbp,
 * availability, price_confirmed_at, created_at, had_older_price, price_source.
 */
function offerRows(src: string, from: number, p: Record<string, string>): string {
  // The primary offer has the product's id (the products trigger does so, decision 0230).
  const productId = p.productId ?? 'null::uuid';
  const primaryId = p.productId ?? 'null::uuid';
  // A number in [0, 1) per product, offer and purpose: deterministic, no PRNG state in SQL.
  const u = (salt: number) =>
    `(hashtextextended(s.link || '#' || k, ${salt}) & 1048575) / 1048576.0`;
  const seller = `1 + (abs(hashtextextended(s.link, 0)) + k - 2) % cardinality(${p.ids}::uuid[])`;
  return `
    select case when k = 1 then ${primaryId} else gen_random_uuid() end as id,
           ${productId} as product_id, s.link as product_link, k, k = 1 as is_primary,
           case when k = 1 then ${p.primary}::uuid else (${p.ids}::uuid[])[${seller}] end
             as seller_id,
           case when k = 1 then s.link
                else (${p.sites}::text[])[${seller}] || '/bulk-seed/' || regexp_replace(s.link, '^.*/', '')
           end as link,
           (case when k = 1 then public.price_number(s.price)
                 when ${u(1)} < 0.02 then null
                 else greatest(round(public.price_number(s.price) * (0.85 + 0.3 * ${u(2)})) - 0.01, 0.99)
            end)::numeric(12, 2) as price_gbp,
           (case when ${u(3)} < 0.4 then 0 when ${u(3)} < 0.8 then 3.99 when ${u(3)} < 0.9 then 4.95
            end)::numeric(12, 2) as delivery_gbp,
           case when ${u(4)} < 0.9 then 'in_stock' when ${u(4)} < 0.95 then 'out_of_stock'
                when ${u(4)} < 0.98 then 'preorder' end as availability,
           -- 10% stale (8–40 days: past 30 the price is hidden), the rest within the last 6.5 days.
           case when ${u(5)} < 0.1 then now() - (8 + 32 * ${u(6)}) * interval '1 day'
                else now() - 6.5 * ${u(6)} * interval '1 day' end as price_confirmed_at,
           now() - (45 + 75 * ${u(7)}) * interval '1 day' as created_at,
           ${u(8)} < 0.5 as had_older_price,
           case when k = 1 then 'import' else 'feed' end as price_source
      from ${src} as s cross join generate_series(${from}, ${p.n}::integer) as k`;
}

/** History rows of the offers in `o`: the first price, and the change. */
const HISTORY_ROWS = `
    select o.id, o.product_id, o.seller_id, h.price, h.at
      from o
      cross join lateral (values
        (case when o.had_older_price then round(o.price_gbp * 1.12) - 0.01 else o.price_gbp end,
         o.created_at),
        (case when o.had_older_price then o.price_gbp end, o.price_confirmed_at)) as h (price, at)
     where h.price is not null`;

/**
 * The fast path's statement for one batch (triggers off): products with their summary, their
 * offers and the offers' price history, in one statement. $1..$6 the product columns as arrays,
 * $7 offers per product, $8 primary seller, $9 seller ids, $10 their sites, $11 stale days.
 */
export const FAST_BATCH_SQL = `
  with s as materialized (
    select gen_random_uuid() as id, t.*,
           btrim(regexp_replace(lower(t.title), '[^a-z0-9]+', '-', 'g'), '-') as slug
      from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
        as t (title, cat, image, price, com, link)
  ),
  o as materialized (${offerRows('s', 1, { n: '$7', primary: '$8', ids: '$9', sites: '$10', productId: 's.id' })}),
  oc as (
    select o.*, o.price_gbp is not null
                and o.price_confirmed_at > now() - $11::integer * interval '1 day' as current
      from o
  ),
  summary as (
    select oc.product_id,
           min(oc.price_gbp) filter (where oc.current) as price_value,
           count(*) filter (where oc.current)::smallint as offer_count,
           coalesce((array_agg(oc.price_confirmed_at
                               order by oc.price_gbp, oc.delivery_gbp nulls last,
                                        oc.price_confirmed_at desc)
                       filter (where oc.current))[1],
                    min(oc.price_confirmed_at) filter (where oc.is_primary)) as price_checked_at,
           min(oc.price_confirmed_at) filter (where oc.current) + $11::integer * interval '1 day'
             as price_fresh_until,
           (array_agg(oc.id) filter (where oc.is_primary))[1] as buy_offer_id,
           min(oc.link) filter (where oc.is_primary) as buy_link
      from oc group by oc.product_id
  ),
  p as (
    insert into public.products (id, title, cat, image, price, com, link, slug, price_value,
                                 offer_count, price_checked_at, price_fresh_until, buy_offer_id,
                                 buy_link, buy_seller)
    select s.id, s.title, s.cat, s.image, s.price, s.com, s.link, s.slug, m.price_value,
           m.offer_count, m.price_checked_at, m.price_fresh_until, m.buy_offer_id, m.buy_link,
           '${PRIMARY_SELLER[0]}'
      from s join summary m on m.product_id = s.id
  ),
  ins as (
    insert into public.offers (id, product_id, seller_id, is_primary, link, price_gbp,
                               delivery_gbp, availability, price_confirmed_at, price_source,
                               created_at, updated_at)
    select o.id, o.product_id, o.seller_id, o.is_primary, o.link, o.price_gbp, o.delivery_gbp,
           o.availability, o.price_confirmed_at, o.price_source, o.created_at,
           greatest(o.created_at, o.price_confirmed_at)
      from o
  )
  insert into public.offer_price_history (offer_id, product_id, seller_id, price_gbp, changed_at)
  ${HISTORY_ROWS}`;

/**
 * The slow path (triggers on, small N): the products of the batch ($6 links) already have their
 * primary offer (the products trigger); the others go through the offers table like an admin's,
 * so the triggers keep the history and the summary. $1 the links, $2..$5 as $7..$10 of
 * FAST_BATCH_SQL.
 */
export const SLOW_BATCH_SQL = `
  with s as (select p.link, p.price from public.products p where p.link = any($1::text[]))
  insert into public.offers (product_id, seller_id, is_primary, link, price_gbp, delivery_gbp,
                             availability, price_confirmed_at, price_source)
  select p.id, o.seller_id, false, o.link, o.price_gbp, o.delivery_gbp, o.availability,
         o.price_confirmed_at, o.price_source
    from (${offerRows('s', 2, { n: '$2', primary: '$3', ids: '$4', sites: '$5' })}) as o
    join public.products p on p.link = o.product_link`;

/** Removes the earlier bulk products' offers and their history (before the products go). */
export async function deleteBulkOffers(
  client: pg.Client,
  linkPrefix: string,
  log: (l: string) => void,
) {
  const like = [`${linkPrefix}%`];
  const bulk = 'select id from public.products where link like $1';
  const h = await client.query(
    `delete from public.offer_price_history where product_id in (${bulk})`,
    like,
  );
  const o = await client.query(`delete from public.offers where product_id in (${bulk})`, like);
  log(`removed ${o.rowCount} earlier bulk offers, ${h.rowCount} history rows`);
}
