-- Buy Now click counting and the admin Insights tab (issue 16, first half; docs/decisions/0120).
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
  'Buy Now clicks per day (Europe/London), catagory and store page (/, /?cat=…&sort=…, '
  '/p/<slug>; nothing else a client sends). Written only by count_buy_now_click.';

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

-- The pairs go once the window has passed, with the rest of what identifies a source.
create or replace function private.wipe_click_sources()
returns void
language sql
security definer
set search_path = ''
as $$
  delete from private.click_source_minutes where minute < now() - interval '2 minutes';
  delete from private.click_repeats where seen_at < now() - private.click_repeat_window();
  delete from private.click_page_views where seen_at < now() - interval '1 day';
  delete from private.click_salts where day < private.click_today();
$$;
revoke execute on function private.wipe_click_sources() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The counting path: as migration …2100, with the page in the store's shape (3), hidden
-- products refused like unknown ones (4) and the source from the platform's address header by
-- IPv4 address or IPv6 /48 (1, 2).
-- ---------------------------------------------------------------------------------------------
create or replace function click_counting.count_click(
  p_product_id uuid, p_page text, p_page_view uuid
)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_headers json := nullif(current_setting('request.headers', true), '')::json;
  v_page text := private.click_store_page(p_page);
  v_hidden uuid[];
  v_category text;
  v_day date := private.click_today();
  v_salt bytea;
  v_source bytea;
  v_source_clicks integer;
  v_limit integer;
begin
  if p_product_id is null or p_page_view is null then
    raise exception 'A product and a page view are required' using errcode = '22023';
  end if;
  if v_page is null then
    raise exception 'Not a store page' using errcode = '22023';
  end if;
  -- What the storefront shows this caller: a product it hides is no product here either.
  v_hidden := listing.hidden_product_ids();
  select p.cat into v_category
    from public.products p
   where p.id = p_product_id and p.id <> all (v_hidden);
  if not found then
    raise exception 'Unknown product' using errcode = '22023';
  end if;

  -- Read to decide, never stored.
  if not private.is_counted_user_agent(v_headers ->> 'user-agent') then
    return 'ignored';
  end if;

  -- The source, hashed with today's salt.
  select s.salt into v_salt from private.click_salts s where s.day = v_day;
  if v_salt is null then
    insert into private.click_salts (day, salt)
    values (v_day, uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))
    on conflict (day) do nothing;
    -- The day's first click: bring the Insights window totals up to today.
    perform private.refresh_click_windows();
    select s.salt into v_salt from private.click_salts s where s.day = v_day;
  end if;
  v_source := sha256(v_salt || convert_to(
    private.click_source_key(private.request_client_address()), 'UTF8'));

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

  insert into private.click_repeats as r (pair, seen_at)
  values (sha256(v_source || uuid_send(p_product_id)), now())
  on conflict (pair) do update set seen_at = excluded.seen_at
    where r.seen_at < now() - private.click_repeat_window();
  if not found then
    return 'repeat';
  end if;

  insert into public.buy_now_clicks_by_product as c (day, product_id, clicks)
  values (v_day, p_product_id, 1)
  on conflict (day, product_id) do update set clicks = c.clicks + 1;
  insert into public.buy_now_clicks_by_page as c (day, category, page, clicks)
  values (v_day, v_category, v_page, 1)
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

-- Buy Now clicks: a reload and a second click count once (issue 16; docs/decisions/0120).
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

-- ---------------------------------------------------------------------------------------------
-- 1. The visitor's address
-- ---------------------------------------------------------------------------------------------
create table private.client_address_settings (
  id boolean primary key default true check (id),
  -- The request header (lower-case, as request.headers names it) that carries the caller's
  -- address, set by the platform's edge and overwritten there whatever the client sent.
  header text not null default 'cf-connecting-ip' check (header ~ '^[a-z0-9-]{1,64}$'),
  -- For a header that is a list (x-forwarded-for behind proxies of one's own): how many entries
  -- from the right end the trusted proxies wrote after the caller's. 0: the rightmost.
  hops_from_right integer not null default 0 check (hops_from_right between 0 and 10)
);
comment on table private.client_address_settings is
  'Where the database reads the caller''s address from (docs/decisions/0200). One row.';
insert into private.client_address_settings default values;
-- Like the other private settings tables: no API role has any privilege on it, and the schema
-- is not exposed; the definer functions below read it as its owner.
revoke all on table private.client_address_settings from public, anon, authenticated,
  service_role;

-- One address from a header value: the entry hops_from_right from the right of a list, without
-- a port some proxies keep, an IPv4-mapped IPv6 address as its IPv4 address. NULL for anything
-- that is no address.
create function private.client_address_from(p_value text, p_hops_from_right integer)
returns inet
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_entries text[] := string_to_array(coalesce(p_value, ''), ',');
  v_entry text;
  v_address inet;
begin
  if cardinality(v_entries) = 0 or cardinality(v_entries) > 32
     or p_hops_from_right is null or p_hops_from_right < 0 then
    return null;
  end if;
  v_entry := btrim(v_entries[greatest(1, cardinality(v_entries) - p_hops_from_right)]);
  -- "[2001:db8::1]:443" and "203.0.113.7:51234".
  v_entry := regexp_replace(v_entry, '^\[([^]]+)\](:[0-9]+)?$', '\1');
  v_entry := regexp_replace(v_entry, '^([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+):[0-9]+$', '\1');
  if v_entry !~ '^[0-9A-Fa-f:.]{2,45}$' then
    return null;
  end if;
  begin
    v_address := v_entry::inet;
  exception when others then
    return null;
  end;
  if masklen(v_address) <> (case family(v_address) when 4 then 32 else 128 end) then
    return null;
  end if;
  if family(v_address) = 6 and v_address <<= '::ffff:0.0.0.0/96'::inet then
    v_address := '0.0.0.0'::inet + (v_address - '::ffff:0.0.0.0'::inet);
  end if;
  return v_address;
end;
$$;
revoke execute on function private.client_address_from(text, integer) from public, anon,
  authenticated, service_role;

-- The caller's address under the setting, from the request PostgREST is serving; NULL outside a
-- request or when the header is missing or holds no address. Runs as its (definer) caller.
create function private.request_client_address()
returns inet
language sql
stable
set search_path = ''
as $$
  select private.client_address_from(
           nullif(current_setting('request.headers', true), '')::json ->> s.header,
           s.hops_from_right)
    from private.client_address_settings s;
$$;
revoke execute on function private.request_client_address() from public, anon, authenticated,
  service_role;

-- The source the per-source limits count: an IPv4 address, an IPv6 /48; '' (one shared source)
-- when the address is unknown.
create function private.click_source_key(p_address inet)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
           when p_address is null then ''
           when family(p_address) = 6 then host(network(set_masklen(p_address, 48))) || '/48'
           else host(p_address)
         end;
$$;
revoke execute on function private.click_source_key(inet) from public, anon, authenticated,
  service_role;

-- What the database attributes to the caller, for the deployment check and for an owner who
-- wants to see it: the address itself (nothing is stored). Reading the setting needs the
-- owner's rights, so the reader lives in the unexposed counting schema like count_click.
create function click_counting.request_client_address()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select host(private.request_client_address());
$$;
revoke execute on function click_counting.request_client_address() from public;
grant execute on function click_counting.request_client_address()
  to anon, authenticated, service_role;

create function public.request_client_address()
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select click_counting.request_client_address();
$$;
comment on function public.request_client_address() is
  'The caller''s address as the database sees it (the rule of docs/decisions/0200); NULL if none.';
revoke execute on function public.request_client_address() from public;
grant execute on function public.request_client_address() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 3. The store page a click came from, in the store's own shape
-- ---------------------------------------------------------------------------------------------

-- application/x-www-form-urlencoded, as the browser's URLSearchParams writes it.
create function private.form_encode(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select coalesce(string_agg(
           case when b.b = 32 then '+'
                when b.b < 128 and chr(b.b) ~ '^[A-Za-z0-9*._-]$' then chr(b.b)
                else '%' || upper(lpad(to_hex(b.b), 2, '0')) end, '' order by b.i), '')
    from (select i, get_byte(convert_to(p_text, 'UTF8'), i) as b
            from generate_series(0, octet_length(convert_to(p_text, 'UTF8')) - 1) as i) b;
$$;
revoke execute on function private.form_encode(text) from public, anon, authenticated,
  service_role;

-- The reverse ('+' is a space); NULL when the bytes are no UTF-8.
create function private.form_decode(p_text text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_bytes bytea := ''::bytea;
  v_part text;
begin
  for v_part in
    select m[1] from regexp_matches(coalesce(p_text, ''), '%[0-9A-Fa-f]{2}|[^%]+|%', 'g') as m
  loop
    if v_part ~ '^%[0-9A-Fa-f]{2}$' then
      v_bytes := v_bytes || decode(substr(v_part, 2), 'hex');
    else
      v_bytes := v_bytes || convert_to(replace(v_part, '+', ' '), 'UTF8');
    end if;
  end loop;
  return convert_from(v_bytes, 'UTF8');
exception when others then
  return null;
end;
$$;
revoke execute on function private.form_decode(text) from public, anon, authenticated,
  service_role;

-- The page to store for what a client sent, or NULL when it is no store page: "/" with the
-- store's own parameters (cat naming an existing catagory, a sort other than the default) in a
-- fixed order, or "/p/<slug>" of a product (its slug now or an old one) without a query.
create function private.click_store_page(p_page text)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  v_path text;
  v_part text;
  v_name text;
  v_value text;
  v_cat text;
  v_sort text;
begin
  if p_page is null or length(p_page) > 200
     or p_page !~ '^/[A-Za-z0-9/_.~%?=&+!$''()*,;:@-]*$' then
    return null;
  end if;
  v_path := split_part(p_page, '?', 1);
  if v_path ~ '^/p/[a-z0-9]+(-[a-z0-9]+)*$' then
    if exists (select 1 from public.products p where p.slug = substr(v_path, 4))
       or exists (select 1 from public.product_slug_history h where h.slug = substr(v_path, 4))
    then
      return v_path;
    end if;
    return null;
  end if;
  if v_path <> '/' then
    return null;
  end if;
  foreach v_part in array string_to_array(substr(p_page, 3), '&') loop
    v_name := split_part(v_part, '=', 1);
    v_value := substr(v_part, length(v_name) + 2);
    if v_name = 'cat' and v_cat is null then
      v_cat := private.form_decode(v_value);
      if not exists (select 1 from public.catagories c where c.title = v_cat) then
        v_cat := null;
      end if;
    elsif v_name = 'sort' and v_value in ('price-desc', 'newest') then
      v_sort := v_value;
    end if;
  end loop;
  if v_cat is null and v_sort is null then
    return '/';
  end if;
  return '/?' || concat_ws('&', 'cat=' || private.form_encode(v_cat), 'sort=' || v_sort);
end;
$$;
revoke execute on function private.click_store_page(text) from public, anon, authenticated,
  service_role;

-- Rows counted before this migration keep whatever page a client sent: they are rewritten to the
-- store's shape (a page that is no store page any more, such as a deleted product's, as "/"), and
-- rows that then name the same day, catagory and page are added up. Kept as a function so a test
-- can show it on rows of its own; run once below.
create function private.normalise_click_pages()
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_moved integer;
begin
  create temporary table click_pages_moved on commit drop as
    select p.day, p.category, p.page as old_page,
           coalesce(private.click_store_page(p.page), '/') as page, p.clicks
      from public.buy_now_clicks_by_page p
     where p.page is distinct from coalesce(private.click_store_page(p.page), '/');
  get diagnostics v_moved = row_count;
  delete from public.buy_now_clicks_by_page p
   using pg_temp.click_pages_moved m
   where p.day = m.day and p.category = m.category and p.page = m.old_page;
  insert into public.buy_now_clicks_by_page as c (day, category, page, clicks)
  select m.day, m.category, m.page, sum(m.clicks)
    from pg_temp.click_pages_moved m
   group by m.day, m.category, m.page
  on conflict (day, category, page) do update set clicks = c.clicks + excluded.clicks;
  drop table pg_temp.click_pages_moved;
  return v_moved;
end;
$$;
revoke execute on function private.normalise_click_pages() from public, anon, authenticated,
  service_role;
