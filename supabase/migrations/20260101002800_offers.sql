-- Offers (REQ-OFF-1..4; docs/decisions/0230): a product is sold by several sellers, each offer
-- with its own price, delivery, availability and the time its price was last confirmed; prices
-- go stale and are recorded in a price history. The product's own link and Price text become its
-- primary offer (kept by a trigger, so the admin form, the CSV import and older clients work
-- unchanged), and products.price_value turns from a number parsed out of the Price text into the
-- lowest CURRENT offer price, maintained by the database with the other summary columns the
-- storefront reads. Every existing product gets its primary offer here, confirmed at the
-- product's updated_at (when its price text was last saved). Hosted: pg_cron, where installed,
-- runs private.refresh_offer_summaries() every minute (scheduled below).
-- Written from supabase/schemas/ (npm run db:diff -- offers), arranged in dependency order.

-- The activity log's new kinds (offers and sellers).
alter table public.activity_log drop constraint activity_log_kind_check;
alter table public.activity_log
  add constraint activity_log_kind_check check (
    kind in (
      'product_added', 'product_changed', 'product_deleted',
      'category_added', 'category_changed', 'category_deleted',
      'admin_invited', 'invite_withdrawn', 'admin_confirmed', 'admin_removed',
      'settings_changed',
      'offer_added', 'offer_changed', 'offer_removed',
      'seller_added', 'seller_changed', 'seller_removed'
    )
  );

-- count_buy_now_click gains p_offer_id (a default: the SPA's three-argument call keeps working);
-- the old function goes rather than staying as an overload.
drop function public.count_buy_now_click(uuid, text, uuid);
drop function click_counting.count_click(uuid, text, uuid);

-- price_value keeps its values and every index on it; the database maintains it from now on.
alter table public.products alter column price_value drop expression;
comment on column public.products.price_value is
  'Lowest current offer price (NULL if none; kept by the database). Order by price_value asc nulls last, title, id.';

alter table public.store_settings
  add column price_stale_after_days integer not null default 7,
  add column price_hidden_after_days integer not null default 30;
grant update (
  store_name, contact_email, site_url, instagram_url, facebook_url, x_url, tiktok_url,
  youtube_url, disclosure_text, trader_name, trader_address, company_number, vat_number,
  price_stale_after_days, price_hidden_after_days
) on table public.store_settings to authenticated, service_role;

create or replace function private.store_settings_check()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_url text := '^https?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?(/[^[:space:]]*)?$';
  v_email text := '^(?:[A-Za-z0-9_''+-]+\.)*[A-Za-z0-9_''+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$';
  v_social record;
begin
  new.store_name := btrim(coalesce(new.store_name, ''));
  new.contact_email := btrim(coalesce(new.contact_email, ''));
  new.disclosure_text := btrim(coalesce(new.disclosure_text, ''));
  -- Optional fields: blank means "none".
  new.site_url := rtrim(nullif(btrim(new.site_url), ''), '/');
  new.instagram_url := nullif(btrim(new.instagram_url), '');
  new.facebook_url := nullif(btrim(new.facebook_url), '');
  new.x_url := nullif(btrim(new.x_url), '');
  new.tiktok_url := nullif(btrim(new.tiktok_url), '');
  new.youtube_url := nullif(btrim(new.youtube_url), '');
  new.trader_name := nullif(btrim(new.trader_name), '');
  new.trader_address := nullif(btrim(new.trader_address), '');
  -- Numbers are compared and shown without spaces, in capitals (SC123456, GB123456789).
  new.company_number := nullif(upper(replace(new.company_number, ' ', '')), '');
  new.vat_number := nullif(upper(replace(new.vat_number, ' ', '')), '');

  if char_length(new.store_name) not between 1 and 80 then
    raise exception 'The store''s name must be 1 to 80 characters'
      using errcode = '23514', hint = 'store_name';
  end if;
  if char_length(new.contact_email) > 254 or new.contact_email !~ v_email then
    raise exception 'The contact e-mail must be an e-mail address such as shop@example.co.uk'
      using errcode = '23514', hint = 'contact_email';
  end if;
  if new.site_url is not null and (char_length(new.site_url) > 300 or new.site_url !~ v_url) then
    raise exception 'The site''s address must start with https:// or http:// (for example https://www.example.co.uk)'
      using errcode = '23514', hint = 'site_url';
  end if;
  for v_social in
    select * from (values
      ('instagram_url', 'Instagram', new.instagram_url),
      ('facebook_url', 'Facebook', new.facebook_url),
      ('x_url', 'X', new.x_url),
      ('tiktok_url', 'TikTok', new.tiktok_url),
      ('youtube_url', 'YouTube', new.youtube_url)
    ) s (col, label, url)
  loop
    if v_social.url is not null and (char_length(v_social.url) > 300 or v_social.url !~ v_url) then
      raise exception 'The % page must be a web address starting with https:// or http://', v_social.label
        using errcode = '23514', hint = v_social.col;
    end if;
  end loop;
  if char_length(new.disclosure_text) not between 1 and 300 then
    raise exception 'The disclosure text must be 1 to 300 characters'
      using errcode = '23514', hint = 'disclosure_text';
  end if;
  if char_length(new.trader_name) > 120 then
    raise exception 'The trader''s name must be at most 120 characters'
      using errcode = '23514', hint = 'trader_name';
  end if;
  if char_length(new.trader_address) > 300 then
    raise exception 'The trader''s address must be at most 300 characters'
      using errcode = '23514', hint = 'trader_address';
  end if;
  if new.company_number !~ '^[A-Z0-9]{8}$' then
    raise exception 'The company number must be the 8 characters Companies House gives (for example 01234567 or SC123456)'
      using errcode = '23514', hint = 'company_number';
  end if;
  if new.vat_number !~ '^GB([0-9]{9}|[0-9]{12}|GD[0-9]{3}|HA[0-9]{3})$' then
    raise exception 'The VAT number must be a UK VAT number such as GB123456789'
      using errcode = '23514', hint = 'vat_number';
  end if;
  if new.price_stale_after_days is null or new.price_stale_after_days not between 1 and 365 then
    raise exception 'A price is stale after 1 to 365 days'
      using errcode = '23514', hint = 'price_stale_after_days';
  end if;
  if new.price_hidden_after_days is null
     or new.price_hidden_after_days not between new.price_stale_after_days and 3650 then
    raise exception 'A price is hidden after at least as many days as it is stale after, and at most 3650'
      using errcode = '23514', hint = 'price_hidden_after_days';
  end if;
  new.updated_at := now();
  return new;
end;
$$;
revoke execute on function private.store_settings_check() from public, anon, authenticated;

create or replace function private.products_touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- A write of the offer summary (140_offers.sql) is not an edit: the admin's version stays.
  if tg_op = 'UPDATE' and current_setting('offers.summary_write', true) = 'on' then
    new.updated_at := old.updated_at;
    return new;
  end if;
  new.updated_at := clock_timestamp();
  if tg_op = 'UPDATE' and new.updated_at <= old.updated_at then
    new.updated_at := old.updated_at + interval '1 microsecond';
  end if;
  return new;
end;
$$;
revoke execute on function private.products_touch_updated_at() from public, anon, authenticated;

create or replace function private.activity_fields(p_row jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select p_row - array['id', 'created_at', 'updated_at', 'price_value', 'search_text', 'slug',
                       'offer_count', 'price_checked_at', 'price_fresh_until', 'buy_offer_id',
                       'buy_link', 'buy_seller'];
$$;
revoke execute on function private.activity_fields(jsonb) from public, anon, authenticated;

create or replace function private.log_catalogue_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_email text;
  v_prefix text := case tg_table_name when 'products' then 'product' else 'category' end;
  v_products boolean := tg_table_name = 'products';
begin
  -- The offer summary's own writes (140_offers.sql) change nothing an admin typed.
  if current_setting('offers.summary_write', true) = 'on' then
    return null;
  end if;
  if v_actor is not null then
    select u.email into v_email from auth.users u where u.id = v_actor;
  end if;

  if tg_op = 'INSERT' then
    insert into public.activity_log (actor, actor_email, kind, product_id, subject, after)
    select v_actor, v_email, v_prefix || '_added', case when v_products then n.id end, n.title,
           private.activity_fields(to_jsonb(n))
      from new_rows n;
  elsif tg_op = 'DELETE' then
    insert into public.activity_log (actor, actor_email, kind, product_id, subject, before)
    select v_actor, v_email, v_prefix || '_deleted', case when v_products then o.id end, o.title,
           private.activity_fields(to_jsonb(o))
      from old_rows o;
  else
    -- id cannot change (catalogue_before_update), so old and new rows pair up by id. An update
    -- that changes no field the admin sees writes no entry.
    insert into public.activity_log (actor, actor_email, kind, product_id, subject, before, after)
    select v_actor, v_email, v_prefix || '_changed', case when v_products then d.id end, d.title,
           d.before, d.after
      from (
        select n.id, n.title,
               (select jsonb_object_agg(f.key, o_fields.v -> f.key)
                  from jsonb_each(n_fields.v) f
                 where f.value is distinct from o_fields.v -> f.key) as before,
               (select jsonb_object_agg(f.key, f.value)
                  from jsonb_each(n_fields.v) f
                 where f.value is distinct from o_fields.v -> f.key) as after
          from new_rows n
          join old_rows o on o.id = n.id
          cross join lateral (select private.activity_fields(to_jsonb(n)) as v) n_fields
          cross join lateral (select private.activity_fields(to_jsonb(o)) as v) o_fields
      ) d
     where d.after is not null;
  end if;
  return null;
end;
$$;
revoke execute on function private.log_catalogue_change() from public, anon, authenticated;

create or replace function private.catalogue_words_sync()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_words text[];
  v_deltas integer[];
begin
  -- The offer summary's own writes (140_offers.sql) change no searched text.
  if current_setting('offers.summary_write', true) = 'on' then
    return null;
  end if;
  if tg_op = 'INSERT' then
    -- Inserted and updated in word order already (the ORDER BY of the insert's rows).
    insert into public.catalogue_words as c (word, occurrences)
    select w, count(*)::integer from new_rows r, private.search_words(r.search_text) as w
     group by w order by w
    on conflict (word) do update set occurrences = c.occurrences + excluded.occurrences;
    return null;
  end if;

  -- The net change per word, in word order: +1 for each occurrence in the new rows, -1 in the
  -- old ones (a delete has no new rows).
  if tg_op = 'DELETE' then
    select coalesce(array_agg(w order by w), '{}'), coalesce(array_agg(n order by w), '{}')
      into v_words, v_deltas
      from (select w, -count(*)::integer as n
              from old_rows r, private.search_words(r.search_text) as w group by w) as d;
  else
    select coalesce(array_agg(w order by w), '{}'), coalesce(array_agg(n order by w), '{}')
      into v_words, v_deltas
      from (select w, sum(n)::integer as n from (
              select w, 1 as n from new_rows r, private.search_words(r.search_text) as w
              union all
              select w, -1 from old_rows r, private.search_words(r.search_text) as w
            ) as x
             group by w having sum(n) <> 0) as d;
  end if;
  if cardinality(v_words) = 0 then
    return null;
  end if;

  -- Lock the rows this statement changes, in word order, before changing any.
  perform 1 from public.catalogue_words c
   where c.word = any (v_words)
   order by c.word
     for update;
  update public.catalogue_words as c set occurrences = greatest(c.occurrences + d.n, 0)
    from unnest(v_words, v_deltas) as d(w, n)
   where c.word = d.w;
  insert into public.catalogue_words as c (word, occurrences)
  select d.w, d.n from unnest(v_words, v_deltas) as d(w, n)
   where d.n > 0
     and not exists (select 1 from public.catalogue_words e where e.word = d.w)
   order by d.w
  on conflict (word) do update set occurrences = c.occurrences + excluded.occurrences;
  delete from public.catalogue_words c where c.word = any (v_words) and c.occurrences = 0;
  return null;
end;
$$;
revoke execute on function private.catalogue_words_sync() from public, anon, authenticated;

create or replace function private.catalogue_import_apply(
  p_import_id uuid,
  p_mode text,
  p_create_categories boolean,
  p_dry_run boolean
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_url text := '^https?://[^[:space:][:cntrl:]/?#\\]+([/?#][^[:space:][:cntrl:]]*)?$';
  v_path text := '^/[^/\\[:space:][:cntrl:]][^[:space:][:cntrl:]]*$';
  v_added integer := 0;
  v_updated integer := 0;
  v_unchanged integer := 0;
  v_refused jsonb;
  v_created jsonb;
begin
  if not private.is_admin() then
    raise exception 'Only admins can import products' using errcode = '42501';
  end if;
  if p_mode is null or p_mode not in ('add', 'upsert') then
    raise exception 'Mode must be add or upsert' using errcode = '22023';
  end if;
  if exists (select 1 from private.catalogue_import_rows r
              where r.import_id = p_import_id and r.owner <> auth.uid()) then
    raise exception 'This import belongs to someone else' using errcode = '42501';
  end if;

  drop table if exists pg_temp.catalogue_import_check;
  -- Each row as it would be stored (trimmed; titles normalised like the triggers do).
  -- dup: an earlier line of the file has the same folded title.
  create temp table catalogue_import_check on commit drop as
  select s.*, row_number() over (partition by s.key order by s.line) > 1 as dup
  from (
  select r.line,
         private.normalise_title(coalesce(r.title, '')) as title,
         private.title_key(coalesce(r.title, '')) as key,
         private.normalise_title(coalesce(r.cat, '')) as cat_in,
         private.title_key(coalesce(r.cat, '')) as cat_key,
         btrim(coalesce(r.price, '')) as price,
         btrim(coalesce(r.com, '')) as com,
         btrim(coalesce(r.image, '')) as image,
         btrim(coalesce(r.link, '')) as link,
         null::text as cat,
         null::uuid as existing_id,
         '{}'::text[] as codes
    from private.catalogue_import_rows r
   where r.import_id = p_import_id
  ) s;

  update pg_temp.catalogue_import_check c
     set cat = (select g.title from public.catagories g where private.title_key(g.title) = c.cat_key),
         existing_id = (select p.id from public.products p where private.title_key(p.title) = c.key)
   where true;

  update pg_temp.catalogue_import_check c
     set codes = array_remove(array[
       case when c.title = '' then 'title_required'
            when char_length(c.title) > 120 then 'title_too_long' end,
       case when c.cat_in = '' then 'category_required'
            when c.cat is null and not coalesce(p_create_categories, false) then 'unknown_category'
            when c.cat is null and char_length(c.cat_in) > 80 then 'category_too_long' end,
       case when c.price = '' then 'price_required'
            when char_length(c.price) > 40 then 'price_too_long' end,
       case when c.com = '' then 'comment_required'
            when char_length(c.com) > 2000 then 'comment_too_long' end,
       case when c.image = '' then 'image_required'
            when char_length(c.image) > 2048 or not (c.image ~* v_url or c.image ~ v_path)
              then 'image_invalid' end,
       case when c.link = '' then 'link_required'
            when char_length(c.link) > 2048 or c.link !~* v_url then 'link_invalid' end,
       case when c.title <> '' and c.dup then 'duplicate_in_file'
            when c.existing_id is not null and p_mode = 'add' then 'title_in_use' end
     ], null)
   where true;

  select coalesce(jsonb_agg(jsonb_build_object('line', c.line, 'codes', to_jsonb(c.codes))
                            order by c.line), '[]'::jsonb)
    into v_refused
    from pg_temp.catalogue_import_check c where cardinality(c.codes) > 0;

  -- Missing categories, once per folded title (the first line's spelling).
  select coalesce(jsonb_agg(n.cat_in order by n.line), '[]'::jsonb) into v_created
    from (select distinct on (c.cat_key) c.cat_in, c.line
            from pg_temp.catalogue_import_check c
           where cardinality(c.codes) = 0 and c.cat is null
           order by c.cat_key, c.line) n;

  select count(*) filter (where c.existing_id is null),
         count(*) filter (where c.existing_id is not null and exists (
           select 1 from public.products p
            where p.id = c.existing_id
              and (p.cat, p.price, p.com, p.image, p.link)
                  is distinct from (coalesce(c.cat, c.cat_in), c.price, c.com, c.image, c.link))),
         count(*) filter (where c.existing_id is not null and not exists (
           select 1 from public.products p
            where p.id = c.existing_id
              and (p.cat, p.price, p.com, p.image, p.link)
                  is distinct from (coalesce(c.cat, c.cat_in), c.price, c.com, c.image, c.link)))
    into v_added, v_updated, v_unchanged
    from pg_temp.catalogue_import_check c where cardinality(c.codes) = 0;

  if not coalesce(p_dry_run, false) then
    insert into public.catagories (title)
    select jsonb_array_elements_text(v_created);
    -- Through the tables: their triggers (normalising, updated_at, change logs) and constraints
    -- all apply; the first error rolls back everything above. The primary offers the products'
    -- trigger writes record the price as imported (price_source 'import', 140_offers.sql).
    perform set_config('offers.write_source', 'import', true);
    insert into public.products (title, cat, price, com, image, link)
    select c.title, coalesce(c.cat, c.cat_in), c.price, c.com, c.image, c.link
      from pg_temp.catalogue_import_check c
     where cardinality(c.codes) = 0 and c.existing_id is null
     order by c.line;
    update public.products p
       set cat = coalesce(c.cat, c.cat_in), price = c.price, com = c.com, image = c.image,
           link = c.link
      from pg_temp.catalogue_import_check c
     where cardinality(c.codes) = 0 and c.existing_id = p.id
       and (p.cat, p.price, p.com, p.image, p.link)
           is distinct from (coalesce(c.cat, c.cat_in), c.price, c.com, c.image, c.link);
    perform set_config('offers.write_source', '', true);
    delete from private.catalogue_import_rows r where r.import_id = p_import_id;
  end if;

  return jsonb_build_object(
    'added', v_added,
    'updated', v_updated,
    'unchanged', v_unchanged,
    'refused', v_refused,
    'categoriesCreated', v_created);
end;
$$;
revoke execute on function private.catalogue_import_apply(uuid, text, boolean, boolean)
  from public, anon;
grant execute on function private.catalogue_import_apply(uuid, text, boolean, boolean)
  to authenticated;

-- Two admins racing for one new title: the second fails on whichever title index Postgres checks
-- first; both are "Title Already in Use".
create or replace function private.is_title_violation(p_constraint text, p_table text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_constraint in (p_table || '_title_folded_key', p_table || '_title_lower_key');
$$;
revoke execute on function private.is_title_violation(text, text) from public, anon;
grant execute on function private.is_title_violation(text, text) to authenticated;

-- =============================================================================================
-- supabase/schemas/140_offers.sql
-- =============================================================================================

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

-- =============================================================================================
-- supabase/schemas/145_offer_summary.sql
-- =============================================================================================

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
-- Buy Now: the primary offer, unless its link is broken (link health), then the cheapest current
-- offer, then the primary anyway.
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
            select o.is_primary and exists (
                     select 1 from public.link_checks c
                      where c.product_id = p.id and c.kind = 'link' and c.status = 'broken'
                        and c.url = o.link) as broken) b
          cross join lateral (
            select o.price_gbp is not null and o.price_confirmed_at > now() - v_stale as current) f
         where o.product_id = p.id
         order by case when o.is_primary and not b.broken then 0
                       when not o.is_primary and f.current then 1
                       when o.is_primary then 2
                       else 3 end,
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
  -- The products trigger's own writes are the product's change, logged as that.
  v_log boolean := coalesce(current_setting('offers.sync', true), '') <> 'on';
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
  perform private.refresh_product_summaries(v_ids);
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

-- A primary link found broken, or fixed, moves the card's Buy Now.
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
  for each row when (new.kind = 'link' and new.status = 'broken')
  execute function private.offers_link_health_changed();
create trigger link_checks_offer_summary_update
  after update on public.link_checks
  for each row when (new.kind = 'link'
                     and (old.status = 'broken') is distinct from (new.status = 'broken'))
  execute function private.offers_link_health_changed();
create trigger link_checks_offer_summary_delete
  after delete on public.link_checks
  for each row when (old.kind = 'link' and old.status = 'broken')
  execute function private.offers_link_health_changed();

-- =============================================================================================
-- supabase/schemas/146_offer_refresh.sql
-- =============================================================================================

-- The offer summaries over time (REQ-OFF-3; docs/decisions/0230): a price turns stale with the
-- clock, not with a write, so a job recomputes what time changed; a changed stale limit changes
-- every product's summary, too many to recompute inside the admin's request on a big catalogue.

-- A sweep of every product after the stale limit changed on a big catalogue: one row; pending
-- until the job has recomputed every product (after_id: the last one done).
create table private.offer_summary_sweep (
  id boolean primary key default true check (id),
  pending boolean not null default false,
  after_id uuid
);
insert into private.offer_summary_sweep default values;
revoke all on table private.offer_summary_sweep from public, anon, authenticated, service_role;

-- The job (every minute): the next 10,000 products of a pending sweep, then the products whose
-- cheapest current price has turned stale since their summary was written (at most 10,000 a run;
-- the next minute takes the rest). Answers how many products changed.
create function private.refresh_offer_summaries()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sweep private.offer_summary_sweep;
  v_ids uuid[];
  v_changed integer := 0;
begin
  select * into v_sweep from private.offer_summary_sweep for update;
  if v_sweep.pending then
    v_ids := array(select p.id from public.products p
                    where v_sweep.after_id is null or p.id > v_sweep.after_id
                    order by p.id limit 10000);
    v_changed := private.refresh_product_summaries(v_ids);
    update private.offer_summary_sweep
       set pending = cardinality(v_ids) = 10000, after_id = v_ids[cardinality(v_ids)]
     where true;
  end if;
  return v_changed + private.refresh_product_summaries(array(
    select p.id from public.products p
     where p.price_fresh_until < now()
     order by p.price_fresh_until
     limit 10000));
end;
$$;
comment on function private.refresh_offer_summaries() is
  'Every minute (pg_cron on hosted, the stack''s timer locally): recomputes aged offer summaries.';
revoke execute on function private.refresh_offer_summaries() from public, anon, authenticated;
grant execute on function private.refresh_offer_summaries() to service_role;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    execute $sql$select cron.schedule('offer-summaries', '* * * * *',
                                      'select private.refresh_offer_summaries()')$sql$;
  end if;
end;
$$;

-- A changed stale limit changes which prices are current everywhere: up to 10,000 products at
-- once (the admin sees it on the next page), a bigger catalogue by the job's sweep.
create function private.offers_settings_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select count(*) from (select 1 from public.products limit 10001) x) <= 10000 then
    perform private.refresh_product_summaries(array(select p.id from public.products p));
  else
    update private.offer_summary_sweep set pending = true, after_id = null where true;
  end if;
  return null;
end;
$$;
revoke execute on function private.offers_settings_changed() from public, anon, authenticated;

create trigger store_settings_offer_summaries
  after update of price_stale_after_days on public.store_settings
  for each row when (old.price_stale_after_days is distinct from new.price_stale_after_days)
  execute function private.offers_settings_changed();

-- =============================================================================================
-- supabase/schemas/148_offer_reads.sql
-- =============================================================================================

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

-- The click counter, per offer too.
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


-- =============================================================================================
-- Every existing product gets its primary offer (and its seller), confirmed when the product was
-- last saved, with the product's id. offers.sync marks these as the products trigger's own writes: no activity-log entry
-- for the offers (the sellers are logged as added by the system). The offers trigger writes the
-- first price history rows and every product's summary.
-- =============================================================================================
select set_config('offers.sync', 'on', false);
select private.sellers_for_links(array(select p.link from public.products p));
insert into public.offers
  (id, product_id, seller_id, is_primary, link, price_gbp, price_confirmed_at, price_source)
select p.id, p.id, s.id, true, p.link, private.offer_price(p.price), p.updated_at, 'admin'
  from public.products p
  join public.sellers s on s.host = private.link_host(p.link)
 order by p.id;
select set_config('offers.sync', '', false);
