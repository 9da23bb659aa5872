-- Offer reads for the storefront (REQ-OFF-2, REQ-OFF-4; docs/decisions/0230; tables in 140_offers.sql).

-- ---------------------------------------------------------------------------------------------
-- Storefront reads (REQ-OFF-2, REQ-OFF-4): definer functions in listing that apply the
-- storefront's visibility themselves (docs/decisions/0202), behind invoker entry points.
-- ---------------------------------------------------------------------------------------------

create function listing.product_offers(p_product_id uuid)
returns table (
  offer_id uuid, seller_id uuid, seller_name text, seller_site text, seller_logo text,
  link text, price_gbp numeric, delivery_gbp numeric, availability text,
  price_confirmed_at timestamptz, freshness text, is_primary boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select o.id, s.id, s.name, s.site, s.logo,
         private.tagged_link(o.link, s.affiliate_param, s.affiliate_value),
         case when f.freshness in ('current', 'stale') then o.price_gbp end,
         o.delivery_gbp, o.availability, o.price_confirmed_at, f.freshness, o.is_primary
    from public.products p
    join public.offers o on o.product_id = p.id
    join public.sellers s on s.id = o.seller_id
    cross join (select st.price_stale_after_days as stale, st.price_hidden_after_days as hidden
                  from public.store_settings st) lim
    cross join lateral (
      select case
               when o.price_gbp is null then 'none'
               when o.price_confirmed_at > now() - make_interval(days => lim.stale) then 'current'
               when o.price_confirmed_at > now() - make_interval(days => lim.hidden) then 'stale'
               else 'hidden'
             end as freshness) f
   where p.id = p_product_id
     and p.id <> all (listing.hidden_product_ids())
   order by case f.freshness when 'current' then 0 when 'stale' then 1 when 'hidden' then 2
                             else 3 end,
            case when f.freshness in ('current', 'stale') then o.price_gbp end asc nulls last,
            o.delivery_gbp asc nulls last, s.name, o.id;
$$;
comment on function listing.product_offers(uuid) is
  'public.product_offers''s read, past the offers and products read policies (whose rules it applies).';

create function public.product_offers(p_product_id uuid)
returns table (
  offer_id uuid, seller_id uuid, seller_name text, seller_site text, seller_logo text,
  link text, price_gbp numeric, delivery_gbp numeric, availability text,
  price_confirmed_at timestamptz, freshness text, is_primary boolean
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from listing.product_offers(p_product_id);
$$;
comment on function public.product_offers(uuid) is
  'A product''s offers for its page (REQ-OFF-2): current cheapest first, then stale, hidden (no price), none.';
revoke execute on function listing.product_offers(uuid) from public;
grant execute on function listing.product_offers(uuid) to anon, authenticated, service_role;
revoke execute on function public.product_offers(uuid) from public;
grant execute on function public.product_offers(uuid) to anon, authenticated, service_role;

-- Per day (UK) of the last p_days (1..730), the lowest price any offer of the product had that
-- day: the price each offer had when the day began, and every price it got during the day.
create function listing.product_price_history(p_product_id uuid, p_days integer)
returns table (day date, lowest_gbp numeric)
language sql
stable
security definer
set search_path = ''
as $$
  with product as (
    select p.id from public.products p
     where p.id = p_product_id and p.id <> all (listing.hidden_product_ids())
  ),
  days as (
    select d::date as day,
           (d::date::timestamp at time zone 'Europe/London') as day_start,
           ((d::date + 1)::timestamp at time zone 'Europe/London') as day_end
      from generate_series(
             (now() at time zone 'Europe/London')::date
               - (least(greatest(coalesce(p_days, 90), 1), 730) - 1),
             (now() at time zone 'Europe/London')::date,
             interval '1 day') as d
  )
  select d.day, min(x.price_gbp)
    from days d
    cross join product
    cross join lateral (
      select before_day.price_gbp
        from public.offers o
        cross join lateral (
          select h.price_gbp from public.offer_price_history h
           where h.offer_id = o.id and h.changed_at < d.day_start
           order by h.changed_at desc, h.id desc
           limit 1) before_day
       where o.product_id = product.id
      union all
      select h.price_gbp from public.offer_price_history h
       where h.product_id = product.id and h.changed_at >= d.day_start and h.changed_at < d.day_end
    ) x
   group by d.day
  having min(x.price_gbp) is not null
   order by d.day;
$$;
comment on function listing.product_price_history(uuid, integer) is
  'public.product_price_history''s read, past the history and products read policies.';

create function public.product_price_history(p_product_id uuid, p_days integer default 90)
returns table (day date, lowest_gbp numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from listing.product_price_history(p_product_id, p_days);
$$;
comment on function public.product_price_history(uuid, integer) is
  'Lowest price per day of a product over the last p_days days (REQ-OFF-4).';
revoke execute on function listing.product_price_history(uuid, integer) from public;
grant execute on function listing.product_price_history(uuid, integer)
  to anon, authenticated, service_role;
revoke execute on function public.product_price_history(uuid, integer) from public;
grant execute on function public.product_price_history(uuid, integer)
  to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The host's product page in one read (REQ-CDN-12): public.product_page's answer with, when the
-- product is found, its offers in public.product_offers' order and its price history over the
-- 90 days the page draws (REQ-CDN-13; PriceHistory.tsx asks the same window), and always the
-- public store settings the page's HTML shows. A page a CDN has not cached yet then costs the
-- Data API one request instead of four. Invoker: each part answers as its own function or policy
-- does.
-- ---------------------------------------------------------------------------------------------

create function public.product_page_whole(p_slug text)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select page.answer
         || jsonb_build_object(
              'settings',
              (select to_jsonb(s)
                 from (select st.store_name, st.contact_email, st.site_url, st.instagram_url,
                              st.facebook_url, st.x_url, st.tiktok_url, st.youtube_url,
                              st.disclosure_text, st.trader_name, st.trader_address,
                              st.company_number, st.vat_number, st.price_stale_after_days,
                              st.price_hidden_after_days
                         from public.store_settings st) s))
         || case when page.answer->>'status' = 'found' then jsonb_build_object(
              'offers',
              coalesce((select jsonb_agg(to_jsonb(o) - 'ordinality' order by o.ordinality)
                          from public.product_offers((page.answer->'product'->>'id')::uuid)
                               with ordinality as o), '[]'::jsonb),
              'history',
              coalesce((select jsonb_agg(to_jsonb(h) order by h.day)
                          from public.product_price_history(
                                 (page.answer->'product'->>'id')::uuid, 90) h), '[]'::jsonb))
            else '{}'::jsonb end
    from (select public.product_page(p_slug) as answer) page;
$$;
comment on function public.product_page_whole(text) is
  'The host''s product page in one read: public.product_page''s answer, the product''s offers and 90-day price history when found, the public store settings.';
revoke execute on function public.product_page_whole(text) from public;
grant execute on function public.product_page_whole(text) to anon, authenticated, service_role;
