-- Offers (REQ-OFF-1..4; docs/decisions/0230): several sellers per product, fresh prices, price
-- history.
--
-- - public.sellers: the shops. A link finds its seller by host (lower case, without "www.");
--   a link whose host has no seller creates one (name = the host).
-- - public.offers: one row per product and seller. Exactly one is the product's PRIMARY offer:
--   it follows the product (a trigger on products keeps its link, seller and, when the Price
--   text changes, its price), so the admin form, the CSV import and every older client keep
--   working unchanged. The others are written by admins through the table (RLS).
-- - public.offer_price_history: one row per price an offer got (append-only, trigger-written).
-- - The summary on public.products (price_value, offer_count, price_checked_at,
--   price_fresh_until, buy_offer_id, buy_link, buy_seller) is what the storefront's indexes,
--   cursors and cards read: written only here, with the flag offers.summary_write, which the
--   products triggers read so that a summary write bumps no updated_at, logs nothing and touches
--   no search words. Time alone makes a price stale, so private.refresh_offer_summaries() (every
--   minute: pg_cron on hosted, the stack's timer locally) recomputes products whose
--   price_fresh_until has passed.
-- - Freshness: an offer's price is "current" while confirmed within
--   store_settings.price_stale_after_days, "stale" after, "hidden" (no number shown) after
--   price_hidden_after_days, "none" without a price.

-- The host a link or site names: lower case, no user info, port or leading "www.".
create function private.link_host(p_url text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(
           nullif(regexp_replace(regexp_replace(regexp_replace(a, '^.*@', ''), ':[0-9]*$', ''),
                                 '^www\.', ''), ''),
           a)
    from (select lower(substring(p_url from '^[A-Za-z]+://([^/?#]+)')) as a) x;
$$;
comment on function private.link_host(text) is
  'The host of an http(s) URL as sellers.host stores it: lower case, without www., port or user.';
revoke execute on function private.link_host(text) from public, anon;
grant execute on function private.link_host(text) to authenticated, service_role;

-- The shop a link belongs to, as sellers.site stores it: scheme and authority in lower case,
-- without user info (kept only when nothing else is left). link_host(link_site(x)) = link_host(x).
create function private.link_site(p_url text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case when regexp_replace(a, '^.*@', '') = '' then s || a
              else s || regexp_replace(a, '^.*@', '') end
    from (select lower(substring(p_url from '^([A-Za-z]+://)')) as s,
                 lower(substring(p_url from '^[A-Za-z]+://([^/?#]+)')) as a) x;
$$;
revoke execute on function private.link_site(text) from public, anon;
grant execute on function private.link_site(text) to authenticated, service_role;

-- The store's affiliate tag on a seller's link: ?param=value (or &param=value) before any
-- fragment, unless the link already carries that parameter. Pure: product_offers and the
-- summary's buy_link use it.
create function private.tagged_link(p_link text, p_param text, p_value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when p_link is null or p_param is null or p_value is null then p_link
    when split_part(p_link, '#', 1) ~ ('[?&]' || regexp_replace(p_param, '([.])', '\\\1', 'g') || '(=|&|$)')
      then p_link
    else split_part(p_link, '#', 1)
         || case when position('?' in split_part(p_link, '#', 1)) > 0 then '&' else '?' end
         || p_param || '=' || p_value
         || case when position('#' in p_link) > 0
                 then substr(p_link, position('#' in p_link)) else '' end
  end;
$$;
comment on function private.tagged_link(text, text, text) is
  'A seller link with the store''s affiliate parameter added unless the link already has it.';
revoke execute on function private.tagged_link(text, text, text) from public, anon;
grant execute on function private.tagged_link(text, text, text) to authenticated, service_role;

-- The price an offer stores for a product's Price text: its first number, or none when there
-- is no number or it does not fit numeric(12,2).
create function private.offer_price(p_price text)
returns numeric
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case when n < 10000000000 then round(n, 2) end
    from (select public.price_number(p_price) as n) x;
$$;
revoke execute on function private.offer_price(text) from public, anon;
grant execute on function private.offer_price(text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Sellers
-- ---------------------------------------------------------------------------------------------

create table public.sellers (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  -- The shop's origin, e.g. https://www.sportsdirect.com (no path).
  site text not null,
  host text not null generated always as (private.link_host(site)) stored,
  logo text,
  network text,
  affiliate_param text,
  affiliate_value text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint sellers_name_check check (
    name = btrim(name) and char_length(name) between 1 and 80 and name !~ '[[:cntrl:]]'
  ),
  constraint sellers_site_check check (
    char_length(site) <= 2048 and site ~* '^https?://[^[:space:][:cntrl:]/?#\\]+$'
  ),
  constraint sellers_logo_check check (
    char_length(logo) <= 2048
    and (
      logo ~* '^https?://[^[:space:][:cntrl:]/?#\\]+([/?#][^[:space:][:cntrl:]]*)?$'
      or logo ~ '^/[^/\\[:space:][:cntrl:]][^[:space:][:cntrl:]]*$'
    )
  ),
  constraint sellers_network_check check (
    network = btrim(network) and char_length(network) between 1 and 80 and network !~ '[[:cntrl:]]'
  ),
  -- Both or neither; characters that need no escaping in a query string.
  constraint sellers_affiliate_check check (
    (affiliate_param is null) = (affiliate_value is null)
    and affiliate_param ~ '^[A-Za-z0-9_.~-]{1,40}$'
    and affiliate_value ~ '^[A-Za-z0-9_.~%-]{1,200}$'
  ),
  constraint sellers_host_key unique (host)
);
comment on table public.sellers is
  'Shops that sell products (REQ-OFF-1). Everyone reads; admins write; a new link host adds one.';
comment on column public.sellers.host is
  'Lower-case host of site without www.: how a product''s or offer''s link finds its seller.';
create unique index sellers_name_folded_key on public.sellers (private.title_key(name));

alter table public.sellers enable row level security;
revoke all on table public.sellers from public, anon, authenticated, service_role;
grant select on table public.sellers to anon, authenticated, service_role;
grant insert (name, site, logo, network, affiliate_param, affiliate_value),
  update (name, site, logo, network, affiliate_param, affiliate_value)
  on table public.sellers to authenticated, service_role;
grant delete on table public.sellers to authenticated, service_role;
create policy "Everyone reads sellers"
  on public.sellers for select to anon, authenticated
  using (true);
create policy "Admins add sellers"
  on public.sellers for insert to authenticated
  with check ((select private.is_admin()));
create policy "Admins change sellers"
  on public.sellers for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));
create policy "Admins delete sellers"
  on public.sellers for delete to authenticated
  using ((select private.is_admin()));

-- ids and times from the database; the name stored like a title; blank optional fields are none.
create function private.sellers_before_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.id := gen_random_uuid();
    new.created_at := now();
  elsif new.id is distinct from old.id or new.created_at is distinct from old.created_at then
    raise exception 'id and created_at cannot be changed' using errcode = '23514';
  end if;
  new.name := private.normalise_title(new.name);
  new.site := rtrim(btrim(new.site), '/');
  new.logo := nullif(btrim(new.logo), '');
  new.network := nullif(private.normalise_title(new.network), '');
  new.affiliate_param := nullif(btrim(new.affiliate_param), '');
  new.affiliate_value := nullif(btrim(new.affiliate_value), '');
  new.updated_at := clock_timestamp();
  if tg_op = 'UPDATE' and new.updated_at <= old.updated_at then
    new.updated_at := old.updated_at + interval '1 microsecond';
  end if;
  return new;
end;
$$;
revoke execute on function private.sellers_before_write() from public, anon, authenticated;

create trigger sellers_before_write
  before insert or update on public.sellers
  for each row execute function private.sellers_before_write();

-- The name a seller created for a link's host gets: the host as a title (normalised, at most 80
-- characters), or, when another seller has that name already, the host with a short hash.
create function private.new_seller_name(p_host text)
returns text
language sql
stable
set search_path = ''
as $$
  select case when not exists (select 1 from public.sellers s
                                where private.title_key(s.name) = private.title_key(n))
              then n
              else btrim(left(n, 70)) || ' ' || left(md5(p_host), 8) end
    from (select coalesce(nullif(btrim(left(private.normalise_title(p_host), 80)), ''),
                          'Seller ' || left(md5(p_host), 8)) as n) x;
$$;
revoke execute on function private.new_seller_name(text) from public, anon;
grant execute on function private.new_seller_name(text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Offers
-- ---------------------------------------------------------------------------------------------

create table public.offers (
  id uuid primary key default gen_random_uuid(),
  product_id uuid not null references public.products (id) on delete cascade,
  seller_id uuid not null references public.sellers (id) on delete restrict,
  is_primary boolean not null default false,
  link text not null,
  price_gbp numeric(12, 2),
  delivery_gbp numeric(12, 2),
  availability text,
  price_confirmed_at timestamptz,
  price_source text not null default 'admin',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint offers_link_check check (
    char_length(link) <= 2048
    and link ~* '^https?://[^[:space:][:cntrl:]/?#\\]+([/?#][^[:space:][:cntrl:]]*)?$'
  ),
  constraint offers_price_gbp_check check (price_gbp >= 0),
  constraint offers_delivery_gbp_check check (delivery_gbp >= 0),
  constraint offers_availability_check
    check (availability in ('in_stock', 'out_of_stock', 'preorder', 'backorder')),
  constraint offers_price_source_check check (price_source in ('admin', 'import', 'feed', 'check')),
  constraint offers_product_seller_key unique (product_id, seller_id)
);
comment on table public.offers is
  'A seller''s offer of a product (REQ-OFF-1). The primary one follows the product''s link and price.';
create unique index offers_one_primary_key on public.offers (product_id) where is_primary;
create index offers_seller_idx on public.offers (seller_id);

alter table public.offers enable row level security;
revoke all on table public.offers from public, anon, authenticated, service_role;
grant select on table public.offers to anon;
grant select, delete on table public.offers to authenticated, service_role;
grant insert (product_id, seller_id, link, price_gbp, delivery_gbp, availability,
              price_confirmed_at, price_source),
  update (seller_id, link, price_gbp, delivery_gbp, availability, price_confirmed_at,
          price_source)
  on table public.offers to authenticated, service_role;
-- What the storefront may list: offers with a current price, of products it shows.
create policy "Everyone reads current offers"
  on public.offers for select to anon, authenticated
  using (
    price_gbp is not null
    and price_confirmed_at > now() - make_interval(
      days => (select s.price_stale_after_days from public.store_settings s))
    and product_id <> all ((select listing.hidden_product_ids())::uuid[])
  );
create policy "Admins read offers"
  on public.offers for select to authenticated
  using ((select private.is_admin()));
create policy "Admins add offers"
  on public.offers for insert to authenticated
  with check ((select private.is_admin()));
create policy "Admins change offers"
  on public.offers for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));
create policy "Admins delete offers"
  on public.offers for delete to authenticated
  using ((select private.is_admin()));

-- Row rules. offers.sync = 'on' marks the products trigger's own writes of primary offers.
-- A primary offer's link, seller and price come from the product (edit the product); a price
-- feed or check (a role other than the API's signed-in or anonymous one, source 'feed' or
-- 'check') may set its price. A changed price is confirmed now unless the writer says when.
create function private.offers_before_write()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_sync boolean := current_setting('offers.sync', true) = 'on';
begin
  if tg_op = 'INSERT' then
    -- A primary offer has its product's id (the product's own row already names it as Buy Now).
    if not (v_sync and new.is_primary) then
      new.id := gen_random_uuid();
    end if;
    new.created_at := now();
    if new.is_primary and not v_sync then
      raise exception 'The primary offer follows the product: edit the product'
        using errcode = '42501', hint = 'is_primary';
    end if;
    if new.price_gbp is not null and new.price_confirmed_at is null then
      new.price_confirmed_at := now();
    end if;
  else
    if new.id is distinct from old.id or new.created_at is distinct from old.created_at
       or new.product_id is distinct from old.product_id then
      raise exception 'id, product and created_at cannot be changed' using errcode = '23514';
    end if;
    if not v_sync then
      if new.is_primary is distinct from old.is_primary then
        raise exception 'The primary offer follows the product: edit the product'
          using errcode = '42501', hint = 'is_primary';
      end if;
      if old.is_primary and (new.link is distinct from old.link
                             or new.seller_id is distinct from old.seller_id) then
        raise exception 'The primary offer''s link is the product''s: edit the product'
          using errcode = '42501', hint = 'link';
      end if;
      if old.is_primary and new.price_gbp is distinct from old.price_gbp
         and (current_user in ('anon', 'authenticated')
              or new.price_source not in ('feed', 'check')) then
        raise exception 'The primary offer''s price is the product''s: edit the product'
          using errcode = '42501', hint = 'price_gbp';
      end if;
    end if;
    if new.price_gbp is distinct from old.price_gbp
       and new.price_confirmed_at is not distinct from old.price_confirmed_at then
      new.price_confirmed_at := case when new.price_gbp is not null then now() end;
    end if;
  end if;
  if new.price_confirmed_at > now() + interval '5 minutes' then
    raise exception 'A price cannot be confirmed in the future'
      using errcode = '23514', hint = 'price_confirmed_at';
  end if;
  new.updated_at := clock_timestamp();
  if tg_op = 'UPDATE' and new.updated_at <= old.updated_at then
    new.updated_at := old.updated_at + interval '1 microsecond';
  end if;
  return new;
end;
$$;
revoke execute on function private.offers_before_write() from public, anon, authenticated;

-- The primary offer goes with its product (the cascade), never on its own.
create function private.offers_before_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.is_primary and exists (select 1 from public.products p where p.id = old.product_id) then
    raise exception 'The primary offer goes with its product: delete the product'
      using errcode = '42501', hint = 'is_primary';
  end if;
  return old;
end;
$$;
revoke execute on function private.offers_before_delete() from public, anon, authenticated;

create trigger offers_before_write
  before insert or update on public.offers
  for each row execute function private.offers_before_write();
create trigger offers_before_delete
  before delete on public.offers
  for each row execute function private.offers_before_delete();

-- ---------------------------------------------------------------------------------------------
-- Price history (REQ-OFF-4): append-only, written by the offers trigger only.
-- ---------------------------------------------------------------------------------------------

create table public.offer_price_history (
  id bigint generated always as identity primary key,
  offer_id uuid not null references public.offers (id) on delete cascade,
  product_id uuid not null,
  seller_id uuid not null,
  -- null: the offer lost its price then.
  price_gbp numeric(12, 2),
  changed_at timestamptz not null default now()
);
comment on table public.offer_price_history is
  'Every price an offer had, from when (REQ-OFF-4). Written by the offers trigger only; admins read.';
create index offer_price_history_offer_idx on public.offer_price_history (offer_id, changed_at);
create index offer_price_history_product_idx
  on public.offer_price_history (product_id, changed_at);
alter table public.offer_price_history enable row level security;
revoke all on table public.offer_price_history from public, anon, authenticated, service_role;
grant select on table public.offer_price_history to authenticated, service_role;
create policy "Admins read price history"
  on public.offer_price_history for select to authenticated
  using ((select private.is_admin()));

-- Append-only for everyone, also roles past the grants (the cascade of a deleted offer aside).
create function private.offer_price_history_refuse_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.offers o where o.id = old.offer_id) then
    return old;
  end if;
  raise exception 'The price history is append-only' using errcode = '42501';
end;
$$;
revoke execute on function private.offer_price_history_refuse_change()
  from public, anon, authenticated;

create trigger offer_price_history_refuse_change
  before update or delete on public.offer_price_history
  for each row execute function private.offer_price_history_refuse_change();

-- Buy Now clicks per day and offer (REQ-OFF-2), written by click_counting.count_click only.
create table public.buy_now_clicks_by_offer (
  day date not null,
  offer_id uuid not null references public.offers (id) on delete cascade,
  clicks integer not null check (clicks > 0),
  primary key (day, offer_id) include (clicks)
);
comment on table public.buy_now_clicks_by_offer is
  'Buy Now clicks per day (Europe/London) and offer. Written only by count_buy_now_click.';
create index buy_now_clicks_by_offer_offer_idx on public.buy_now_clicks_by_offer (offer_id);
alter table public.buy_now_clicks_by_offer enable row level security;
revoke all on table public.buy_now_clicks_by_offer from public, anon, authenticated, service_role;
grant select on table public.buy_now_clicks_by_offer to authenticated, service_role;
create policy "Admins read clicks by offer"
  on public.buy_now_clicks_by_offer for select to authenticated
  using ((select private.is_admin()));
