-- Buy Now clicks, continued: what admins read (the Insights tab) and the housekeeping of the
-- counting path's working tables. The counting itself: 090_clicks.sql.

-- ---------------------------------------------------------------------------------------------
-- Reading (admins only): the Insights tab. The period is the last 7, 30 or 90 days, today
-- included.
-- ---------------------------------------------------------------------------------------------

-- Per product, its clicks of the last 7, 30 and 90 days before today, computed once a day (by
-- the day's first click, or the first Insights read if nobody clicked yet). Past days do not
-- change, so "top products" and "products with no clicks" read one row per product plus today's
-- rows instead of up to 90 rows per product (bench/insights.ts: 1,000,000 clicks).
create table private.click_windows (
  product_id uuid primary key references public.products (id) on delete cascade,
  clicks_7 integer not null,
  clicks_30 integer not null,
  clicks_90 integer not null
);

create table private.click_windows_state (
  id boolean primary key default true check (id),
  computed_for date
);
insert into private.click_windows_state (computed_for) values (null);

revoke all on table private.click_windows, private.click_windows_state
  from public, anon, authenticated, service_role;
-- The admins' Insights functions run as the caller and read it.
grant select on table private.click_windows to authenticated;

-- Buy Now counting on a hosted project: the visitor's address, what a click stores, hidden
-- products, and statements hosted's safeupdate refuses (docs/decisions/0200).
--
-- 1. The visitor's address. Until now the counting path keyed on the rightmost X-Forwarded-For
--    entry. On hosted Supabase that list is built by proxies that append (Cloudflare keeps a
--    client's own X-Forwarded-For and appends the connecting address; the platform's load
--    balancers append theirs): the rightmost entry is a platform address that every shopper
--    shares, the leftmost is whatever the client wrote. The address now comes from ONE header
--    that the platform's edge sets itself and overwrites whatever a client sent:
--    CF-Connecting-IP by default. It is a setting (private.client_address_settings), so a
--    project behind another edge names its header there; public.request_client_address()
--    answers which address the database attributes to the caller (the deployment check prints
--    it). No address at all is one shared source: a missing header closes the budget, it never
--    opens a fresh one per request.
-- 2. A source is an IPv4 address or an IPv6 /48 (was /64): a site is usually given a /48, so
--    stepping through /64s of one's own no longer buys fresh limits.
-- 3. The page a click came from is stored in the store's own shape only: "/", "/p/<slug>" of a
--    product, and the home page's store parameters cat (an existing catagory) and sort. Ad click
--    ids, mail ids, e-mail addresses, search words and anything else a client sends are dropped
--    here whatever the page does; a path that is no store page is refused as before. Rows
--    counted before this migration are rewritten to the same shape (and added up).
-- 4. A product the visitor cannot see (hidden for a broken seller link while the admins chose
--    so) is refused exactly like an unknown id: same code, same message, nothing written.
-- 5. private.refresh_click_windows had a DELETE and an UPDATE without WHERE; hosted loads
--    safeupdate for the API roles, which fails them with 21000 even inside this definer function
--    (reached from count_buy_now_click and the insights_* functions). Both now say where true.

-- ---------------------------------------------------------------------------------------------
-- 5. The click windows without WHERE-less statements
-- ---------------------------------------------------------------------------------------------
create or replace function private.refresh_click_windows()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_today date := private.click_today();
begin
  if (select w.computed_for from private.click_windows_state w) = v_today then
    return;
  end if;
  -- One refresh at a time: the others wait for it and then find it done.
  perform pg_advisory_xact_lock(hashtext('private.refresh_click_windows'));
  if (select w.computed_for from private.click_windows_state w) = v_today then
    return;
  end if;
  delete from private.click_windows where true;
  insert into private.click_windows (product_id, clicks_7, clicks_30, clicks_90)
  select c.product_id,
         coalesce(sum(c.clicks) filter (where c.day >= v_today - 6), 0),
         coalesce(sum(c.clicks) filter (where c.day >= v_today - 29), 0),
         sum(c.clicks)
    from public.buy_now_clicks_by_product c
   where c.day >= v_today - 89 and c.day < v_today
   group by c.product_id;
  update private.click_windows_state set computed_for = v_today where true;
end;
$$;
revoke execute on function private.refresh_click_windows() from public, anon;
grant execute on function private.refresh_click_windows() to authenticated;

-- Admins only, a period of 7, 30 or 90 days; brings the window totals up to today.
create function private.insights_check(p_days integer)
returns date
language plpgsql
volatile
set search_path = ''
as $$
begin
  if not (select private.is_admin()) then
    raise exception 'Only admins read click counts' using errcode = '42501';
  end if;
  if p_days is null or p_days not in (7, 30, 90) then
    raise exception 'The period is 7, 30 or 90 days' using errcode = '22023';
  end if;
  perform private.refresh_click_windows();
  return private.click_today() - (p_days - 1);
end;
$$;
revoke execute on function private.insights_check(integer) from public, anon;
grant execute on function private.insights_check(integer) to authenticated;

-- A product's clicks in the period: its window total and today's row.
create function private.insights_product_clicks(p_days integer)
returns table (product_id uuid, clicks bigint)
language sql
stable
set search_path = ''
as $$
  select x.product_id, sum(x.clicks)::bigint
    from (
      select w.product_id,
             case p_days when 7 then w.clicks_7 when 30 then w.clicks_30 else w.clicks_90 end
               as clicks
        from private.click_windows w
      union all
      select c.product_id, c.clicks
        from public.buy_now_clicks_by_product c
       where c.day = private.click_today()
    ) x
   group by x.product_id
  having sum(x.clicks) > 0;
$$;
revoke execute on function private.insights_product_clicks(integer) from public, anon;
grant execute on function private.insights_product_clicks(integer) to authenticated;

-- Every day of the period, days without clicks as 0.
create function public.insights_clicks_per_day(p_days integer)
returns table (day date, clicks bigint)
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_from date := private.insights_check(p_days);
begin
  return query
    select d.day::date, coalesce(sum(c.clicks), 0)::bigint
      from generate_series(v_from::timestamp, private.click_today()::timestamp,
                           interval '1 day') as d (day)
      left join public.buy_now_clicks_by_page c on c.day = d.day::date
     group by d.day
     order by d.day;
end;
$$;
revoke execute on function public.insights_clicks_per_day(integer) from public, anon;
grant execute on function public.insights_clicks_per_day(integer) to authenticated;

-- Products by clicks in the period, most first; p_offset pages through them (the CSV export).
create function public.insights_top_products(p_days integer, p_limit integer, p_offset integer)
returns table (product_id uuid, title text, category text, clicks bigint)
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  perform private.insights_check(p_days);
  if p_limit is null or p_limit < 1 or p_limit > 1000 or p_offset is null or p_offset < 0 then
    raise exception 'Limit 1 to 1000, offset 0 or more' using errcode = '22023';
  end if;
  return query
    with totals as (
      select t.product_id, t.clicks
        from private.insights_product_clicks(p_days) t
       order by t.clicks desc, t.product_id
       limit p_limit offset p_offset
    )
    select t.product_id, p.title, p.cat, t.clicks
      from totals t join public.products p on p.id = t.product_id
     order by t.clicks desc, p.title;
end;
$$;
revoke execute on function public.insights_top_products(integer, integer, integer)
  from public, anon;
grant execute on function public.insights_top_products(integer, integer, integer)
  to authenticated;

create function public.insights_top_categories(p_days integer, p_limit integer)
returns table (category text, clicks bigint)
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_from date := private.insights_check(p_days);
begin
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'Limit 1 to 1000' using errcode = '22023';
  end if;
  return query
    select c.category, sum(c.clicks)::bigint
      from public.buy_now_clicks_by_page c
     where c.day >= v_from
     group by c.category
     order by 2 desc, 1
     limit p_limit;
end;
$$;
revoke execute on function public.insights_top_categories(integer, integer) from public, anon;
grant execute on function public.insights_top_categories(integer, integer) to authenticated;

-- Products nobody clicked in the period, by title; total is how many there are in all.
create function public.insights_products_without_clicks(p_days integer, p_limit integer)
returns table (product_id uuid, title text, category text, total bigint)
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  perform private.insights_check(p_days);
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'Limit 1 to 1000' using errcode = '22023';
  end if;
  return query
    with clicked as (select t.product_id from private.insights_product_clicks(p_days) t),
    unclicked as (
      select p.id, p.title, p.cat
        from public.products p
       where not exists (select 1 from clicked k where k.product_id = p.id)
    )
    select u.id, u.title, u.cat, count(*) over ()
      from unclicked u
     order by u.title, u.id
     limit p_limit;
end;
$$;
revoke execute on function public.insights_products_without_clicks(integer, integer)
  from public, anon;
grant execute on function public.insights_products_without_clicks(integer, integer)
  to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Hosted: where Supabase Cron (pg_cron) is enabled, the working tables are also wiped every ten
-- minutes when nobody clicks (README "Buy Now clicks").
-- ---------------------------------------------------------------------------------------------
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    execute $cron$select cron.schedule('wipe-click-sources', '*/10 * * * *',
      'select private.wipe_click_sources()')$cron$;
  end if;
end;
$$;

-- Buy Now clicks: a reload and a second click count once (REQ-INS-2; docs/decisions/0120).
--
-- Until now a product was counted once per page view, and the page view is a random id the page
-- holds in memory: a reload (or a script sending a new id each time) counted again, up to the
-- per-source limit of 60 a minute. Now one source counts a product at most once within the
-- repeat window (private.click_repeat_window(), 30 minutes), whatever page view or store page
-- it names. Nothing new identifies a visitor: the window remembers sha256(the source's salted
-- hash || the product), the salt is the day's (private.click_salts, deleted when the day is
-- over), and each pair is deleted once the window has passed. The table is UNLOGGED like the
-- other working tables.
--
-- The source is the same one the per-source limit uses, now also for IPv6 by its /64: one
-- connection (a home, a phone) is usually given a whole /64, so counting each of its 2^64
-- addresses as a source of its own would let one machine step through fresh addresses and count
-- again and again.

-- How long a source's click on a product is remembered. Long enough that reloading and
-- clicking again, or coming back to the product a little later in the same visit, is one
-- click; short enough that the salted pair is kept for minutes, not the whole day, and that a
-- shopper who really comes back later counts again. A named constant (not a setting or an
-- argument) so no caller can change it; tests age the pairs as the database owner.
create function private.click_repeat_window()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '30 minutes';
$$;
revoke execute on function private.click_repeat_window() from public, anon, authenticated,
  service_role;

-- The pairs (source, product) seen within the window, as one salted hash each.
create unlogged table private.click_repeats (
  pair bytea primary key,
  seen_at timestamptz not null default now()
);
create index click_repeats_seen_idx on private.click_repeats (seen_at);
revoke all on table private.click_repeats from public, anon, authenticated, service_role;

revoke execute on function private.wipe_click_sources() from public, anon, authenticated;
