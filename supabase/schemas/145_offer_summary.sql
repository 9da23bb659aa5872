-- Offer summary on public.products, the primary offer that follows its product, and what runs
-- after offers change (REQ-OFF-1..3; docs/decisions/0230; tables in 140_offers.sql).

-- ---------------------------------------------------------------------------------------------
-- The summary on public.products (the storefront's order, cursors and cards read it).
-- ---------------------------------------------------------------------------------------------

alter table public.products
  add column offer_count smallint not null default 0,
  add column price_checked_at timestamptz,
  add column price_fresh_until timestamptz,
  add column buy_offer_id uuid,
  add column buy_link text,
  add column buy_seller text;
comment on column public.products.offer_count is
  'Current offers with a price (kept by the database; "from £X · 3 sellers").';
comment on column public.products.price_checked_at is
  'When the lowest current offer''s price was confirmed, else the primary offer''s (kept by the database).';
comment on column public.products.price_fresh_until is
  'When price_value must be recomputed (the first current price turns stale); refresh_offer_summaries.';
comment on column public.products.buy_link is
  'Buy Now: the primary offer''s link, or the cheapest current offer''s when the primary''s is broken; affiliate tag applied.';
-- The refresh job reads the products whose summary has aged.
create index products_price_fresh_until_idx on public.products (price_fresh_until)
  where price_fresh_until is not null;
-- The admin table's "Price checked" sort (050_admin_table.sql, REQ-OFF-3): a page is an index
-- scan, either way, at any catalogue size (never confirmed first when ascending).
create index products_price_checked_order_idx
  on public.products (price_checked_at nulls first, title, id);

-- Clients never set the summary: whatever they send, an insert gets its primary offer's and an
-- update keeps the stored values. Only private.refresh_product_summaries (flag
-- offers.summary_write) writes it afterwards.
create function private.products_keep_offer_summary()
returns trigger
language plpgsql
-- Definer: public.price_number is no API role's to execute (docs/decisions/0202).
security definer
set search_path = ''
as $$
declare
  v_price numeric;
  v_host text;
  v_seller record;
begin
  if current_setting('offers.summary_write', true) = 'on' then
    return new;
  end if;
  if tg_op = 'INSERT' then
    -- A new product's only offer is its primary one (products_offers_follow_insert writes it,
    -- with the product's id, confirmed now): its summary is known already, so the row an insert
    -- returns is the row stored.
    v_price := private.offer_price(new.price);
    v_host := private.link_host(new.link);
    select s.name, s.affiliate_param, s.affiliate_value into v_seller
      from public.sellers s where s.host = v_host;
    new.price_value := v_price;
    new.offer_count := case when v_price is null then 0 else 1 end;
    new.price_checked_at := now();
    new.price_fresh_until := case when v_price is not null then now() + make_interval(
      days => coalesce((select st.price_stale_after_days from public.store_settings st), 7)) end;
    new.buy_offer_id := new.id;
    new.buy_link := private.tagged_link(new.link, v_seller.affiliate_param, v_seller.affiliate_value);
    new.buy_seller := coalesce(v_seller.name, private.new_seller_name(v_host));
  else
    new.price_value := old.price_value;
    new.offer_count := old.offer_count;
    new.price_checked_at := old.price_checked_at;
    new.price_fresh_until := old.price_fresh_until;
    new.buy_offer_id := old.buy_offer_id;
    new.buy_link := old.buy_link;
    new.buy_seller := old.buy_seller;
  end if;
  return new;
end;
$$;
revoke execute on function private.products_keep_offer_summary() from public, anon, authenticated;

create trigger products_keep_offer_summary
  before insert or update on public.products
  for each row execute function private.products_keep_offer_summary();

-- Recomputes the summary of the given products; writes only rows whose summary changed.
-- Buy Now: the primary offer, unless its link is confirmed broken (link health), then the
-- cheapest current offer whose link is not broken, then the cheapest other offer whose link is
-- not broken (a stale price, but a working link: REQ-OFF-6), then the primary anyway.
create function private.refresh_product_summaries(p_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stale interval := make_interval(
    days => coalesce((select s.price_stale_after_days from public.store_settings s), 7));
  v_prev text := coalesce(current_setting('offers.summary_write', true), '');
  v_count integer;
begin
  if p_ids is null or cardinality(p_ids) = 0 then
    return 0;
  end if;
  perform set_config('offers.summary_write', 'on', true);
  with calc as (
    select p.id,
           best.price_gbp as price_value,
           coalesce(cnt.n, 0)::smallint as offer_count,
           coalesce(best.price_confirmed_at, prim.price_confirmed_at) as price_checked_at,
           cnt.fresh_until as price_fresh_until,
           buy.id as buy_offer_id,
           buy.link as buy_link,
           buy.seller as buy_seller
      from public.products p
      left join lateral (
        select o.price_gbp, o.price_confirmed_at
          from public.offers o
         where o.product_id = p.id and o.price_gbp is not null
           and o.price_confirmed_at > now() - v_stale
         order by o.price_gbp, o.delivery_gbp asc nulls last, o.price_confirmed_at desc
         limit 1) best on true
      left join lateral (
        select count(*) as n, min(o.price_confirmed_at) + v_stale as fresh_until
          from public.offers o
         where o.product_id = p.id and o.price_gbp is not null
           and o.price_confirmed_at > now() - v_stale) cnt on true
      left join lateral (
        select o.price_confirmed_at from public.offers o
         where o.product_id = p.id and o.is_primary) prim on true
      left join lateral (
        select o.id, private.tagged_link(o.link, s.affiliate_param, s.affiliate_value) as link,
               s.name as seller
          from public.offers o
          join public.sellers s on s.id = o.seller_id
          cross join lateral (
            select exists (
                     select 1 from public.link_checks c
                      where c.product_id = p.id and c.status = 'broken' and c.url = o.link
                        and ((o.is_primary and c.kind = 'link')
                             or (c.kind = 'offer' and c.offer_id = o.id))) as broken) b
          cross join lateral (
            select o.price_gbp is not null and o.price_confirmed_at > now() - v_stale as current) f
         where o.product_id = p.id
         order by case when o.is_primary and not b.broken then 0
                       when not b.broken and f.current then 1
                       when not b.broken then 2
                       when o.is_primary then 3
                       else 4 end,
                  o.price_gbp asc nulls last, o.delivery_gbp asc nulls last, s.name, o.id
         limit 1) buy on true
     where p.id = any (p_ids)
  )
  update public.products p
     set price_value = c.price_value, offer_count = c.offer_count,
         price_checked_at = c.price_checked_at, price_fresh_until = c.price_fresh_until,
         buy_offer_id = c.buy_offer_id, buy_link = c.buy_link, buy_seller = c.buy_seller
    from calc c
   where p.id = c.id
     and (p.price_value, p.offer_count, p.price_checked_at, p.price_fresh_until, p.buy_offer_id,
          p.buy_link, p.buy_seller)
         is distinct from
         (c.price_value, c.offer_count, c.price_checked_at, c.price_fresh_until, c.buy_offer_id,
          c.buy_link, c.buy_seller);
  get diagnostics v_count = row_count;
  perform set_config('offers.summary_write', v_prev, true);
  return v_count;
end;
$$;
revoke execute on function private.refresh_product_summaries(uuid[])
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The primary offer follows the product (insert, and a changed link or Price text).
-- ---------------------------------------------------------------------------------------------

-- Sellers for the hosts of the given links that have none: named after the host (a name
-- already taken gets the host's short hash after it).
create function private.sellers_for_links(p_links text[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sellers (name, site)
  select distinct on (h.host) private.new_seller_name(h.host), h.site
    from (select private.link_host(l) as host, private.link_site(l) as site
            from unnest(p_links) as l) h
   where not exists (select 1 from public.sellers s where s.host = h.host)
   order by h.host
  on conflict do nothing;
  -- Two new hosts whose names fold alike: the second gets the hashed name.
  insert into public.sellers (name, site)
  select distinct on (h.host) private.new_seller_name(h.host), h.site
    from (select private.link_host(l) as host, private.link_site(l) as site
            from unnest(p_links) as l) h
   where not exists (select 1 from public.sellers s where s.host = h.host)
   order by h.host
  on conflict (host) do nothing;
end;
$$;
revoke execute on function private.sellers_for_links(text[]) from public, anon, authenticated;

create function private.offers_follow_products()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  -- The CSV import says so (070_import.sql); everything else is an admin's edit.
  v_source text := coalesce(nullif(current_setting('offers.write_source', true), ''), 'admin');
  v_prev text := coalesce(current_setting('offers.sync', true), '');
begin
  if current_setting('offers.summary_write', true) = 'on' then
    return null;
  end if;
  perform set_config('offers.sync', 'on', true);
  if tg_op = 'INSERT' then
    perform private.sellers_for_links(array(select n.link from new_rows n));
    insert into public.offers
      (id, product_id, seller_id, is_primary, link, price_gbp, price_confirmed_at, price_source)
    select n.id, n.id, s.id, true, n.link, private.offer_price(n.price), now(), v_source
      from new_rows n
      join public.sellers s on s.host = private.link_host(n.link);
  else
    perform private.sellers_for_links(array(
      select n.link from new_rows n join old_rows o on o.id = n.id where n.link <> o.link));
    if exists (select 1
                 from new_rows n
                 join old_rows o on o.id = n.id
                 join public.sellers s on s.host = private.link_host(n.link)
                 join public.offers x on x.product_id = n.id and x.seller_id = s.id
                where n.link <> o.link and not x.is_primary) then
      raise exception 'This product already has an offer from that seller: remove that offer first'
        using errcode = '23505', hint = 'link';
    end if;
    update public.offers f
       set link = n.link,
           seller_id = s.id,
           price_gbp = case when n.price <> o.price then private.offer_price(n.price)
                            else f.price_gbp end,
           price_confirmed_at = case when n.price <> o.price then now()
                                     else f.price_confirmed_at end,
           price_source = case when n.price <> o.price then v_source else f.price_source end
      from new_rows n
      join old_rows o on o.id = n.id
      join public.sellers s on s.host = private.link_host(n.link)
     where f.product_id = n.id and f.is_primary
       and (n.link <> o.link or n.price <> o.price);
  end if;
  perform set_config('offers.sync', v_prev, true);
  return null;
end;
$$;
revoke execute on function private.offers_follow_products() from public, anon, authenticated;

create trigger products_offers_follow_insert
  after insert on public.products referencing new table as new_rows
  for each statement execute function private.offers_follow_products();
create trigger products_offers_follow_update
  after update on public.products referencing old table as old_rows new table as new_rows
  for each statement execute function private.offers_follow_products();

-- ---------------------------------------------------------------------------------------------
-- After offers change: history, activity log, summaries.
-- ---------------------------------------------------------------------------------------------

create function private.offers_after_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_email text;
  v_ids uuid[];
  -- The products trigger's own writes are the product's change, logged as that; a feed's
  -- writes are its run's one 'feed_run' entry (160_feeds.sql, REQ-FEED-3).
  v_log boolean := coalesce(current_setting('offers.sync', true), '') <> 'on'
                   and coalesce(current_setting('offers.write_source', true), '') <> 'feed';
begin
  if v_log and v_actor is not null then
    select u.email into v_email from auth.users u where u.id = v_actor;
  end if;

  if tg_op = 'INSERT' then
    insert into public.offer_price_history (offer_id, product_id, seller_id, price_gbp, changed_at)
    select n.id, n.product_id, n.seller_id, n.price_gbp, coalesce(n.price_confirmed_at, now())
      from new_rows n where n.price_gbp is not null;
    if v_log then
      insert into public.activity_log (actor, actor_email, kind, product_id, subject, after)
      select v_actor, v_email, 'offer_added', n.product_id,
             coalesce(p.title || ' · ', '') || coalesce(s.name, ''),
             to_jsonb(n) - array['id', 'created_at', 'updated_at', 'product_id', 'is_primary']
        from new_rows n
        left join public.products p on p.id = n.product_id
        left join public.sellers s on s.id = n.seller_id;
    end if;
    v_ids := array(select distinct n.product_id from new_rows n);
  elsif tg_op = 'UPDATE' then
    insert into public.offer_price_history (offer_id, product_id, seller_id, price_gbp, changed_at)
    select n.id, n.product_id, n.seller_id, n.price_gbp,
           case when n.price_gbp is null then now() else coalesce(n.price_confirmed_at, now()) end
      from new_rows n join old_rows o on o.id = n.id
     where n.price_gbp is distinct from o.price_gbp;
    if v_log then
      insert into public.activity_log (actor, actor_email, kind, product_id, subject, before, after)
      select v_actor, v_email, 'offer_changed', d.product_id, d.subject, d.before, d.after
        from (
          select n.product_id, coalesce(p.title || ' · ', '') || coalesce(s.name, '') as subject,
                 (select jsonb_object_agg(f.key, o_fields.v -> f.key)
                    from jsonb_each(n_fields.v) f
                   where f.value is distinct from o_fields.v -> f.key) as before,
                 (select jsonb_object_agg(f.key, f.value)
                    from jsonb_each(n_fields.v) f
                   where f.value is distinct from o_fields.v -> f.key) as after
            from new_rows n
            join old_rows o on o.id = n.id
            left join public.products p on p.id = n.product_id
            left join public.sellers s on s.id = n.seller_id
            cross join lateral (select to_jsonb(n) - array['id', 'created_at', 'updated_at',
                                  'product_id', 'is_primary'] as v) n_fields
            cross join lateral (select to_jsonb(o) - array['id', 'created_at', 'updated_at',
                                  'product_id', 'is_primary'] as v) o_fields
        ) d
       where d.after is not null;
    end if;
    v_ids := array(select distinct n.product_id from new_rows n);
  else
    -- An offer that goes with its deleted product is the product's deletion, logged as that.
    if v_log then
      insert into public.activity_log (actor, actor_email, kind, product_id, subject, before)
      select v_actor, v_email, 'offer_removed', o.product_id,
             p.title || ' · ' || coalesce(s.name, ''),
             to_jsonb(o) - array['id', 'created_at', 'updated_at', 'product_id', 'is_primary']
        from old_rows o
        join public.products p on p.id = o.product_id
        left join public.sellers s on s.id = o.seller_id;
    end if;
    v_ids := array(select distinct o.product_id from old_rows o);
  end if;
  -- A big feed run's re-confirmations queue their products instead (decision 0244).
  if coalesce(current_setting('offers.summary_defer', true), '') = 'on' then
    insert into private.offer_summary_queue (product_id)
    select x.id from unnest(v_ids) as x(id)
    on conflict (product_id) do nothing;
  else
    perform private.refresh_product_summaries(v_ids);
  end if;
  return null;
end;
$$;
revoke execute on function private.offers_after_change() from public, anon, authenticated;

create trigger offers_after_insert after insert on public.offers
  referencing new table as new_rows
  for each statement execute function private.offers_after_change();
create trigger offers_after_update after update on public.offers
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.offers_after_change();
create trigger offers_after_delete after delete on public.offers
  referencing old table as old_rows
  for each statement execute function private.offers_after_change();

-- Sellers: logged; a changed name or affiliate tag changes the cards' Buy Now.
create function private.sellers_after_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_email text;
begin
  if v_actor is not null then
    select u.email into v_email from auth.users u where u.id = v_actor;
  end if;
  if tg_op = 'INSERT' then
    insert into public.activity_log (actor, actor_email, kind, subject, after)
    select v_actor, v_email, 'seller_added', n.name,
           to_jsonb(n) - array['id', 'created_at', 'updated_at', 'host']
      from new_rows n;
  elsif tg_op = 'DELETE' then
    insert into public.activity_log (actor, actor_email, kind, subject, before)
    select v_actor, v_email, 'seller_removed', o.name,
           to_jsonb(o) - array['id', 'created_at', 'updated_at', 'host']
      from old_rows o;
  else
    insert into public.activity_log (actor, actor_email, kind, subject, before, after)
    select v_actor, v_email, 'seller_changed', d.name, d.before, d.after
      from (
        select n.name,
               (select jsonb_object_agg(f.key, o_fields.v -> f.key)
                  from jsonb_each(n_fields.v) f
                 where f.value is distinct from o_fields.v -> f.key) as before,
               (select jsonb_object_agg(f.key, f.value)
                  from jsonb_each(n_fields.v) f
                 where f.value is distinct from o_fields.v -> f.key) as after
          from new_rows n
          join old_rows o on o.id = n.id
          cross join lateral (select to_jsonb(n) - array['id', 'created_at', 'updated_at', 'host']
                                as v) n_fields
          cross join lateral (select to_jsonb(o) - array['id', 'created_at', 'updated_at', 'host']
                                as v) o_fields
      ) d
     where d.after is not null;
    perform private.refresh_product_summaries(array(
      select distinct f.product_id
        from new_rows n
        join old_rows o on o.id = n.id
        join public.offers f on f.seller_id = n.id
       where (n.name, n.affiliate_param, n.affiliate_value)
             is distinct from (o.name, o.affiliate_param, o.affiliate_value)));
  end if;
  return null;
end;
$$;
revoke execute on function private.sellers_after_change() from public, anon, authenticated;

create trigger sellers_after_insert after insert on public.sellers
  referencing new table as new_rows
  for each statement execute function private.sellers_after_change();
create trigger sellers_after_update after update on public.sellers
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.sellers_after_change();
create trigger sellers_after_delete after delete on public.sellers
  referencing old table as old_rows
  for each statement execute function private.sellers_after_change();

-- A primary or offer link confirmed broken, or fixed, moves the card's Buy Now (REQ-OFF-6).
create function private.offers_link_health_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.refresh_product_summaries(
    array[case when tg_op = 'DELETE' then old.product_id else new.product_id end]);
  return null;
end;
$$;
revoke execute on function private.offers_link_health_changed() from public, anon, authenticated;

create trigger link_checks_offer_summary_insert
  after insert on public.link_checks
  for each row when (new.kind in ('link', 'offer') and new.status = 'broken')
  execute function private.offers_link_health_changed();
create trigger link_checks_offer_summary_update
  after update on public.link_checks
  for each row when (new.kind in ('link', 'offer')
                     and (old.status = 'broken') is distinct from (new.status = 'broken'))
  execute function private.offers_link_health_changed();
create trigger link_checks_offer_summary_delete
  after delete on public.link_checks
  for each row when (old.kind in ('link', 'offer') and old.status = 'broken')
  execute function private.offers_link_health_changed();
