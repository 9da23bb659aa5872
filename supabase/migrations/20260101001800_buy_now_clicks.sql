-- Buy Now click counting and the admin Insights tab (REQ-INS-1 to REQ-INS-3; docs/decisions/0120).
--
-- - A click is counted by public.count_buy_now_click(product, page, page view), the only way in
--   for anyone. It stores counts, never who clicked: the day (UK time), the product, the
--   product's catagory and the store page it came from. No IP address, user agent, cookie or
--   visitor id is kept in any table that lasts.
-- - Counts are rolled up as they arrive: one row per day and product, one per day, catagory and
--   page. Ten million clicks are a few hundred thousand rows, and the Insights queries read the
--   days of the period, not the clicks.
-- - Inflating is hard: a request whose User-Agent is not a browser's or names a bot, crawler or
--   automation tool counts nothing (the header is read to decide, never stored); one page view
--   counts a product once (the primary key of private.click_page_views decides, also for
--   concurrent requests); one source (the client address, hashed with a salt that changes every
--   day) counts at most private.click_settings.per_source_per_minute clicks a minute. Those
--   working tables are UNLOGGED and wiped as they age: a source's counter after two minutes, a
--   page view after a day, a day's salt when the day is over.
-- - Only admins read counts (RLS, and the insights_* functions refuse anyone else); nobody,
--   the service role included, writes them except through the counting function.

-- ---------------------------------------------------------------------------------------------
-- The counts
-- ---------------------------------------------------------------------------------------------

create table public.buy_now_clicks_by_product (
  day date not null,
  product_id uuid not null references public.products (id) on delete cascade,
  clicks integer not null check (clicks > 0),
  -- clicks in the index: "top products of the last 90 days" reads the index only.
  primary key (day, product_id) include (clicks)
);
comment on table public.buy_now_clicks_by_product is
  'Buy Now clicks per day (Europe/London) and product. Written only by count_buy_now_click.';
-- "Products with no clicks" (per product, newest day first) and the cascade when one is deleted.
create index buy_now_clicks_by_product_product_idx
  on public.buy_now_clicks_by_product (product_id, day desc);

create table public.buy_now_clicks_by_page (
  day date not null,
  -- The product's catagory and the store page (path and query, e.g. /?cat=Football) at the time.
  category text not null,
  page text not null,
  clicks integer not null check (clicks > 0),
  primary key (day, category, page) include (clicks)
);
comment on table public.buy_now_clicks_by_page is
  'Buy Now clicks per day (Europe/London), catagory and page. Written only by count_buy_now_click.';

alter table public.buy_now_clicks_by_product enable row level security;
alter table public.buy_now_clicks_by_page enable row level security;

revoke all on table public.buy_now_clicks_by_product from public, anon, authenticated, service_role;
revoke all on table public.buy_now_clicks_by_page from public, anon, authenticated, service_role;
grant select on table public.buy_now_clicks_by_product to authenticated, service_role;
grant select on table public.buy_now_clicks_by_page to authenticated, service_role;

create policy "Admins read clicks by product"
  on public.buy_now_clicks_by_product for select to authenticated
  using ((select private.is_admin()));
create policy "Admins read clicks by page"
  on public.buy_now_clicks_by_page for select to authenticated
  using ((select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Working tables of the counting path: private, unlogged, short-lived
-- ---------------------------------------------------------------------------------------------

create table private.click_settings (
  id boolean primary key default true check (id),
  -- Clicks one source may count in a minute. A shop behind one office or school address still
  -- gets far more than a person clicks; a script gets a minute's worth, not thousands.
  per_source_per_minute integer not null default 60 check (per_source_per_minute > 0)
);
insert into private.click_settings default values;

-- One random salt per day (Europe/London): the source hash cannot be recomputed from an
-- address once the day's salt is gone.
create unlogged table private.click_salts (
  day date primary key,
  salt bytea not null
);

create unlogged table private.click_source_minutes (
  source bytea not null,
  minute timestamptz not null,
  clicks integer not null,
  primary key (source, minute)
);
create index click_source_minutes_minute_idx on private.click_source_minutes (minute);

create unlogged table private.click_page_views (
  page_view uuid not null,
  product_id uuid not null,
  seen_at timestamptz not null default now(),
  primary key (page_view, product_id)
);
create index click_page_views_seen_idx on private.click_page_views (seen_at);

revoke all on table private.click_settings, private.click_salts, private.click_source_minutes,
  private.click_page_views from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------------------------

-- The store's day: the owner is in the UK.
create function private.click_today()
returns date
language sql
stable
set search_path = ''
as $$
  select (now() at time zone 'Europe/London')::date;
$$;
revoke execute on function private.click_today() from public, anon;
-- The admins' Insights functions run as the caller.
grant execute on function private.click_today() to authenticated;

-- A browser's User-Agent that names no bot, crawler, preview fetcher or automation tool.
-- Scripts and servers (curl, Node, Python, Go, Java …) send no "Mozilla/" and are left out too.
create function private.is_counted_user_agent(p_user_agent text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(
    length(p_user_agent) <= 512
    and p_user_agent ilike 'mozilla/%'
    and p_user_agent !~* concat_ws('|',
      '\mbot\M', 'bot[/;_-]', 'crawl', 'spider', 'slurp', 'scrap', 'fetch', 'preview', 'archiver',
      'headless', 'phantomjs', 'puppeteer', 'playwright', 'selenium', 'webdriver', 'cypress',
      'lighthouse', 'pagespeed', 'gtmetrix', 'pingdom', 'uptime', 'monitor', 'validator',
      'facebookexternalhit', 'facebookcatalog', 'whatsapp', 'telegram', 'discord', 'skype',
      'embedly', 'quora', 'outbrain', 'pinterest', 'vkshare', 'yandex', 'baidu', 'sogou',
      'exabot', 'ahrefs', 'semrush', 'mj12', 'petal', 'bytespider', 'gptbot', 'chatgpt',
      'claude', 'anthropic', 'perplexity', 'ccbot', 'googleother', 'google-inspectiontool',
      'curl', 'wget', 'python', 'java/', 'go-http', 'okhttp', 'axios', 'node', 'undici',
      'libwww', 'httpclient', 'http_request', 'postman', 'insomnia'),
    false);
$$;
revoke execute on function private.is_counted_user_agent(text) from public, anon, authenticated;

-- Forgets what identifies a source or a page view once it is no longer needed.
create function private.wipe_click_sources()
returns void
language sql
security definer
set search_path = ''
as $$
  delete from private.click_source_minutes where minute < now() - interval '2 minutes';
  delete from private.click_page_views where seen_at < now() - interval '1 day';
  delete from private.click_salts where day < private.click_today();
$$;
revoke execute on function private.wipe_click_sources() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The counting path (anon and everyone)
-- ---------------------------------------------------------------------------------------------

-- Answers 'counted', 'repeat' (this page view counted the product already), 'ignored' (a bot or
-- not a browser) or 'limited' (this source's clicks of the minute are used up). Bad input (an
-- unknown product, a page that is not a store path, no page view) is refused with 22023 before
-- anything is written.
-- The writer runs as its owner (the API roles may not write the tables) and lives in a schema
-- of its own that PostgREST does not expose and that holds nothing else, so granting the API
-- roles USAGE there opens exactly this one function. public.count_buy_now_click below is the
-- endpoint: SECURITY INVOKER, it only hands its arguments on.
create schema click_counting;
revoke all on schema click_counting from public;
grant usage on schema click_counting to anon, authenticated, service_role;

create function click_counting.count_click(p_product_id uuid, p_page text, p_page_view uuid)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_headers json := nullif(current_setting('request.headers', true), '')::json;
  v_category text;
  v_address text;
  v_day date := private.click_today();
  v_salt bytea;
  v_source bytea;
  v_source_clicks integer;
  v_limit integer;
begin
  if p_product_id is null or p_page_view is null then
    raise exception 'A product and a page view are required' using errcode = '22023';
  end if;
  -- A store path with its (percent-encoded) query: /, /?cat=Football. At most 200 characters.
  if p_page is null or length(p_page) > 200 or p_page !~ '^/[A-Za-z0-9/_.~%?=&+!$''()*,;:@-]*$' then
    raise exception 'Not a store page' using errcode = '22023';
  end if;
  select p.cat into v_category from public.products p where p.id = p_product_id;
  if not found then
    raise exception 'Unknown product' using errcode = '22023';
  end if;

  -- Read to decide, never stored.
  if not private.is_counted_user_agent(v_headers ->> 'user-agent') then
    return 'ignored';
  end if;

  -- The source: the address the platform's proxy (or the local gateway) saw, which is the last
  -- X-Forwarded-For entry (docs/decisions/0020), hashed with today's salt.
  v_address := coalesce(btrim(split_part(v_headers ->> 'x-forwarded-for', ',', -1)), '');
  select s.salt into v_salt from private.click_salts s where s.day = v_day;
  if v_salt is null then
    insert into private.click_salts (day, salt)
    values (v_day, uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))
    on conflict (day) do nothing;
    -- The day's first click: bring the Insights window totals up to today.
    perform private.refresh_click_windows();
    select s.salt into v_salt from private.click_salts s where s.day = v_day;
  end if;
  v_source := sha256(v_salt || convert_to(v_address, 'UTF8'));

  insert into private.click_source_minutes as m (source, minute, clicks)
  values (v_source, date_trunc('minute', now()), 1)
  on conflict (source, minute) do update set clicks = m.clicks + 1
  returning m.clicks into v_source_clicks;
  if v_source_clicks = 1 then
    -- A source's first click of the minute: forget what has aged (cheap, by index).
    perform private.wipe_click_sources();
  end if;
  select c.per_source_per_minute into v_limit from private.click_settings c;
  if v_source_clicks > v_limit then
    return 'limited';
  end if;

  insert into private.click_page_views (page_view, product_id)
  values (p_page_view, p_product_id)
  on conflict do nothing;
  if not found then
    return 'repeat';
  end if;

  insert into public.buy_now_clicks_by_product as c (day, product_id, clicks)
  values (v_day, p_product_id, 1)
  on conflict (day, product_id) do update set clicks = c.clicks + 1;
  insert into public.buy_now_clicks_by_page as c (day, category, page, clicks)
  values (v_day, v_category, p_page, 1)
  on conflict (day, category, page) do update set clicks = c.clicks + 1;
  return 'counted';
end;
$$;
revoke execute on function click_counting.count_click(uuid, text, uuid) from public;
grant execute on function click_counting.count_click(uuid, text, uuid)
  to anon, authenticated, service_role;

create function public.count_buy_now_click(p_product_id uuid, p_page text, p_page_view uuid)
returns text
language sql
volatile
security invoker
set search_path = ''
as $$
  select click_counting.count_click(p_product_id, p_page, p_page_view);
$$;
comment on function public.count_buy_now_click(uuid, text, uuid) is
  'Counts one Buy Now click: counted, repeat, ignored or limited (docs/decisions/0120).';
revoke execute on function public.count_buy_now_click(uuid, text, uuid) from public;
grant execute on function public.count_buy_now_click(uuid, text, uuid)
  to anon, authenticated, service_role;

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

create function private.refresh_click_windows()
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
  delete from private.click_windows;
  insert into private.click_windows (product_id, clicks_7, clicks_30, clicks_90)
  select c.product_id,
         coalesce(sum(c.clicks) filter (where c.day >= v_today - 6), 0),
         coalesce(sum(c.clicks) filter (where c.day >= v_today - 29), 0),
         sum(c.clicks)
    from public.buy_now_clicks_by_product c
   where c.day >= v_today - 89 and c.day < v_today
   group by c.product_id;
  update private.click_windows_state set computed_for = v_today;
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
-- minutes when nobody clicks (docs/buy-now-clicks.md).
-- ---------------------------------------------------------------------------------------------
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    execute $cron$select cron.schedule('wipe-click-sources', '*/10 * * * *',
      'select private.wipe_click_sources()')$cron$;
  end if;
end;
$$;
