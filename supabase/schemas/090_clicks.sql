-- Buy Now click counting and the admin Insights tab (REQ-INS-1; docs/decisions/0120).
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

-- The working tables keep what identifies a source or a page view for fixed times
-- (docs/decisions/0214): a source's per-minute counter 2 minutes, a page view a day, a (source,
-- product) pair the repeat window (private.click_repeat_window(), 30 minutes), a day's salt until
-- the day ends. Each is a named constant (not a setting), like the repeat window: no caller can
-- change it, and tests/integration/privacy-facts.test.ts compares every one with
-- src/features/pages/privacyFacts.ts, the module the Privacy Policy page renders.
create function private.click_source_counter_retention()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '2 minutes';
$$;

create function private.click_page_view_retention()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '1 day';
$$;

revoke execute on function private.click_source_counter_retention() from public, anon,
  authenticated, service_role;
revoke execute on function private.click_page_view_retention() from public, anon, authenticated,
  service_role;

-- The pairs go once the window has passed, with the rest of what identifies a source, each
-- after its named retention.
create or replace function private.wipe_click_sources()
returns void
language sql
security definer
set search_path = ''
as $$
  delete from private.click_source_minutes
   where minute < now() - private.click_source_counter_retention();
  delete from private.click_repeats where seen_at < now() - private.click_repeat_window();
  delete from private.click_page_views where seen_at < now() - private.click_page_view_retention();
  delete from private.click_salts where day < private.click_today();
$$;
revoke execute on function private.wipe_click_sources() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The counting path: the page in the store's shape (3), hidden
-- products refused like unknown ones (4) and the source from the platform's address header by
-- IPv4 address or IPv6 /48 (1, 2).
-- ---------------------------------------------------------------------------------------------
-- p_offer_id (REQ-OFF-2): the offer whose Buy Now was clicked, counted per offer too
-- (public.buy_now_clicks_by_offer, 140_offers.sql); null counts the product only.
create or replace function click_counting.count_click(
  p_product_id uuid, p_page text, p_page_view uuid, p_offer_id uuid
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
  if p_offer_id is not null and not exists (
       select 1 from public.offers o where o.id = p_offer_id and o.product_id = p_product_id) then
    raise exception 'Unknown offer' using errcode = '22023';
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
  if p_offer_id is not null then
    insert into public.buy_now_clicks_by_offer as c (day, offer_id, clicks)
    values (v_day, p_offer_id, 1)
    on conflict (day, offer_id) do update set clicks = c.clicks + 1;
  end if;
  return 'counted';
end;
$$;
revoke execute on function click_counting.count_click(uuid, text, uuid, uuid) from public;
grant execute on function click_counting.count_click(uuid, text, uuid, uuid)
  to anon, authenticated, service_role;

create function public.count_buy_now_click(
  p_product_id uuid, p_page text, p_page_view uuid, p_offer_id uuid default null
)
returns text
language sql
volatile
security invoker
set search_path = ''
as $$
  select click_counting.count_click(p_product_id, p_page, p_page_view, p_offer_id);
$$;
comment on function public.count_buy_now_click(uuid, text, uuid, uuid) is
  'Counts one Buy Now click (of an offer when p_offer_id is set): counted, repeat, ignored or limited (docs/decisions/0120, 0230).';
revoke execute on function public.count_buy_now_click(uuid, text, uuid, uuid) from public;
grant execute on function public.count_buy_now_click(uuid, text, uuid, uuid)
  to anon, authenticated, service_role;
