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

-- The source of a request from its X-Forwarded-For header: the rightmost entry, which the
-- platform's proxy (hosted) or the local gateway appended from the socket and which a client
-- cannot choose (docs/decisions/0020); entries a client wrote further left are never read. An
-- IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address as
-- its /64, a port some proxies keep dropped. A value that is no address is used as it is.
create function private.click_source_address(p_forwarded_for text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_entry text := btrim(split_part(coalesce(p_forwarded_for, ''), ',', -1));
  v_address inet;
begin
  -- "[2001:db8::1]:443" and "203.0.113.7:51234".
  v_entry := regexp_replace(v_entry, '^\[([^]]+)\](:[0-9]+)?$', '\1');
  v_entry := regexp_replace(v_entry, '^([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+):[0-9]+$', '\1');
  if v_entry !~ '^[0-9A-Fa-f:.]+$' then
    return v_entry;
  end if;
  begin
    v_address := v_entry::inet;
  exception when others then
    return v_entry;
  end;
  if family(v_address) = 6 and v_address <<= '::ffff:0.0.0.0/96'::inet then
    v_address := '0.0.0.0'::inet + (v_address - '::ffff:0.0.0.0'::inet);
  end if;
  if family(v_address) = 6 then
    return host(network(set_masklen(v_address, 64))) || '/64';
  end if;
  return host(v_address);
end;
$$;
revoke execute on function private.click_source_address(text) from public, anon, authenticated,
  service_role;

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

-- As before (migration …1800), with the source from private.click_source_address and, after the
-- page view's check, the source's: 'repeat' when this source counted the product within the
-- window. The order matters: a refused, ignored or limited request leaves no pair behind, and a
-- limited source cannot refresh its pairs.
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
    private.click_source_address(v_headers ->> 'x-forwarded-for'), 'UTF8'));

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

  -- Once per source and product within the window (the primary key decides, also for
  -- concurrent requests: the second waits for the first's row and then finds it fresh). A pair
  -- older than the window, not yet wiped, is taken over.
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
  values (v_day, v_category, p_page, 1)
  on conflict (day, category, page) do update set clicks = c.clicks + 1;
  return 'counted';
end;
$$;
