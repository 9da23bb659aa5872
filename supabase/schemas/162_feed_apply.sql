-- Applying a staged feed run (REQ-FEED-3, REQ-FEED-4; docs/decisions/0240): ONE transaction
-- validates every row again, matches, writes offers / unmatched rows / held changes, makes the
-- offers a full feed no longer lists unavailable, and stores the report. More than half the rows
-- refused: nothing is written (a wrong mapping must not empty the shop).

-- A money value as feeds write it: "12.99", "12.99 GBP", "£12.99", "1,299.00". NULL when it
-- is not such a number or is over 100,000.
create function private.feed_money(p_text text)
returns numeric
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := btrim(regexp_replace(coalesce(p_text, ''), '(£|[A-Za-z]{3})', '', 'g'));
  n numeric;
begin
  if v !~ '^([0-9]{1,3}(,[0-9]{3})+|[0-9]+)(\.[0-9]+)?$|^\.[0-9]+$' then
    return null;
  end if;
  n := round(replace(v, ',', '')::numeric, 2);
  return case when n <= 100000 then n end;
end;
$$;
revoke execute on function private.feed_money(text) from public, anon, authenticated;

-- The currency a money text names: GBP for "£", another for "$"/"€", else its 3-letter code.
create function private.feed_money_currency(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_text !~ '[0-9]' then null
              when p_text ~ '£' then 'GBP'
              when p_text ~ '[$€¥]' then 'OTHER'
              else upper(substring(p_text from '[A-Za-z]{3}')) end;
$$;
revoke execute on function private.feed_money_currency(text) from public, anon, authenticated;

-- One staged row's refusal codes and parsed values (the row rules of the feeds contract).
create function private.feed_row_parse(
  r private.feed_staged_rows,
  out codes text[], out price numeric, out delivery numeric, out availability text,
  out gtin text)
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_sale numeric;
  v_cur text;
  v_av text := lower(btrim(coalesce(r.availability, '')));
begin
  codes := '{}';
  if greatest(char_length(r.id), char_length(r.gtin), char_length(r.title), char_length(r.link),
              char_length(r.price), char_length(r.sale_price), char_length(r.currency),
              char_length(r.delivery), char_length(r.availability), char_length(r.image),
              char_length(r.brand)) > 4096 then
    codes := codes || 'field_too_long'::text;
  end if;
  if r.id is null and r.gtin is null and r.link is null then
    codes := codes || 'key_required'::text;
  end if;
  if r.price is null then
    codes := codes || 'price_required'::text;
  else
    price := private.feed_money(r.price);
    v_sale := private.feed_money(r.sale_price);
    if v_sale is not null and v_sale < price then
      price := v_sale;
    end if;
    if price is null then
      codes := codes || 'price_invalid'::text;
    end if;
  end if;
  v_cur := coalesce(upper(btrim(r.currency)), private.feed_money_currency(r.price),
                    private.feed_money_currency(r.sale_price));
  if v_cur is not null and v_cur <> 'GBP' then
    codes := codes || 'currency_not_gbp'::text;
  end if;
  if r.delivery is not null then
    delivery := private.feed_money(r.delivery);
    if delivery is null then
      codes := codes || 'delivery_invalid'::text;
    elsif private.feed_money_currency(r.delivery) <> 'GBP' then
      codes := codes || 'currency_not_gbp'::text;
    end if;
  end if;
  availability := case
    when v_av in ('', 'in stock', 'in_stock', 'instock', 'yes', 'y', 'true', '1') then 'in_stock'
    when v_av in ('out of stock', 'out_of_stock', 'outofstock', 'no', 'n', 'false', '0')
      then 'out_of_stock'
    when v_av in ('preorder', 'pre-order') then 'preorder'
    when v_av = 'backorder' then 'backorder' end;
  if availability is null then
    codes := codes || 'availability_unknown'::text;
  end if;
  if r.link is null then
    codes := codes || 'link_required'::text;
  elsif char_length(r.link) > 2048
        or r.link !~* '^https?://[^[:space:][:cntrl:]/?#\\]+([/?#][^[:space:][:cntrl:]]*)?$' then
    codes := codes || 'link_invalid'::text;
  end if;
  if r.gtin is not null then
    gtin := regexp_replace(r.gtin, '[ -]', '', 'g');
    if not coalesce(private.gtin_valid(gtin), false) then
      codes := codes || 'gtin_invalid'::text;
      gtin := null;
    end if;
  end if;
  if char_length(r.id) > 200 or r.id ~ '[[:cntrl:]]' then
    codes := codes || 'id_invalid'::text;
  end if;
  codes := array(select distinct c from unnest(codes) c order by c);
end;
$$;
revoke execute on function private.feed_row_parse(private.feed_staged_rows)
  from public, anon, authenticated;

create function private.feed_run_apply(p_run_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_run public.feed_runs;
  v_src public.feed_sources;
  v_prev text := coalesce(current_setting('offers.write_source', true), '');
  v_rows integer;
  v_refused integer;
  v_by_code jsonb;
  v_sample jsonb;
  v_unavailable integer := 0;
  v_stale interval := make_interval(
    days => coalesce((select st.price_stale_after_days from public.store_settings st), 7));
  v_pass integer;
begin
  select * into v_run from public.feed_runs r where r.id = p_run_id for update skip locked;
  if not found then
    raise exception 'This feed run is being applied already, or does not exist'
      using errcode = '55000';
  end if;
  if v_run.status <> 'staged' then
    raise exception 'This feed run is not ready to apply (status %)', v_run.status
      using errcode = '55000';
  end if;
  select * into v_src from public.feed_sources s where s.id = v_run.source_id for update;

  create temp table if not exists feed_apply_rows (
    line integer primary key, id text, gtin text, title text, link text, raw_price text,
    image text, brand text, price numeric, delivery numeric, availability text, codes text[],
    product_id uuid, offer_id uuid, is_primary boolean, old_price numeric, old_delivery numeric,
    old_availability text, old_link text, old_spid text, new_spid text, outcome text
  ) on commit drop;
  delete from pg_temp.feed_apply_rows where true;

  insert into pg_temp.feed_apply_rows
    (line, id, gtin, title, link, raw_price, image, brand, price, delivery, availability, codes)
  select s.line, s.id, p.gtin, s.title, s.link, s.price, s.image, s.brand, p.price, p.delivery,
         p.availability, p.codes
    from private.feed_staged_rows s
    cross join lateral private.feed_row_parse(s) p
   where s.run_id = p_run_id;
  get diagnostics v_rows = row_count;

  -- Matching (REQ-FEED-3): GTIN, the seller's product id, the seller's link, the exact title.
  update pg_temp.feed_apply_rows t set product_id = p.id
    from public.products p
   where t.gtin is not null and p.gtin = t.gtin;
  update pg_temp.feed_apply_rows t set offer_id = o.id, product_id = o.product_id
    from public.offers o
   where t.product_id is null and t.id is not null
     and o.seller_id = v_src.seller_id and o.seller_product_id = t.id;
  update pg_temp.feed_apply_rows t set offer_id = o.id, product_id = o.product_id
    from public.offers o
   where t.product_id is null and t.link is not null
     and o.seller_id = v_src.seller_id and o.link = t.link;
  if v_src.match_by_title then
    update pg_temp.feed_apply_rows t set product_id = p.id
      from public.products p
     where t.product_id is null and t.title is not null
       and private.title_key(p.title) = private.title_key(t.title);
  end if;
  update pg_temp.feed_apply_rows t set offer_id = o.id
    from public.offers o
   where t.offer_id is null and t.product_id is not null
     and o.product_id = t.product_id and o.seller_id = v_src.seller_id;
  update pg_temp.feed_apply_rows t
     set is_primary = o.is_primary, old_price = o.price_gbp, old_delivery = o.delivery_gbp,
         old_availability = o.availability, old_link = o.link, old_spid = o.seller_product_id
    from public.offers o
   where o.id = t.offer_id;

  -- The same key, or the same offer or product, twice: the later lines are refused.
  with k as (
    select t.line, x.k
      from pg_temp.feed_apply_rows t
      cross join lateral unnest(array[
        'g:' || t.gtin, 'i:' || t.id,
        case when t.gtin is null and t.id is null then 'l:' || t.link end,
        coalesce('o:' || t.offer_id::text, 'p:' || t.product_id::text)]) as x(k)
     where cardinality(t.codes) = 0 and x.k is not null
  ), d as (
    select distinct y.line
      from (select k.line, row_number() over (partition by k.k order by k.line) as n from k) y
     where y.n > 1
  )
  update pg_temp.feed_apply_rows t set codes = t.codes || 'duplicate_in_feed'::text
    from d where t.line = d.line;

  select count(*) into v_refused from pg_temp.feed_apply_rows t where cardinality(t.codes) > 0;
  select coalesce(jsonb_object_agg(c.code, c.n), '{}') into v_by_code
    from (select x.code, count(*) as n
            from pg_temp.feed_apply_rows t cross join lateral unnest(t.codes) as x(code)
           group by x.code) c;
  select coalesce(jsonb_agg(jsonb_build_object('line', s.line, 'codes', to_jsonb(s.codes))
                            order by s.line), '[]')
    into v_sample
    from (select t.line, t.codes from pg_temp.feed_apply_rows t
           where cardinality(t.codes) > 0 order by t.line limit 100) s;

  if v_rows > 0 and v_refused * 2 > v_rows then
    delete from private.feed_staged_rows s where s.run_id = p_run_id;
    update public.feed_runs r
       set status = 'failed', finished_at = now(), heartbeat_at = now(), rows_read = v_rows,
           refused = v_refused, refused_by_code = v_by_code, refused_sample = v_sample,
           error = format('Most rows were refused (%s of %s): check the column mapping. '
                          'Nothing was applied.', v_refused, v_rows)
     where r.id = p_run_id
    returning * into v_run;
    update public.feed_sources s
       set last_run_id = v_run.id, last_status = 'failed', last_run_at = now(),
           failing_since = coalesce(s.failing_since, now())
     where s.id = v_src.id;
    perform private.feed_run_log(p_run_id);
    return private.feed_run_report(v_run) || jsonb_build_object('error', v_run.error);
  end if;

  -- What each accepted row does. The seller's id goes on the offer unless another offer of
  -- the seller has it.
  update pg_temp.feed_apply_rows t
     set new_spid = case
           when t.id is null then t.old_spid
           when exists (select 1 from public.offers o
                         where o.seller_id = v_src.seller_id and o.seller_product_id = t.id
                           and o.id is distinct from t.offer_id) then t.old_spid
           else t.id end
   where cardinality(t.codes) = 0;
  update pg_temp.feed_apply_rows t
     set outcome = case
           when t.product_id is null then 'unmatched'
           when t.offer_id is null then 'added'
           when t.old_price > 0
                and abs(t.price - t.old_price) / t.old_price * 100 > v_src.max_change_pct
             then 'held'
           when (t.price, coalesce(t.delivery, t.old_delivery), t.availability,
                 case when t.is_primary then t.old_link else t.link end, t.new_spid)
                is distinct from
                (t.old_price, t.old_delivery, t.old_availability, t.old_link, t.old_spid)
             then 'changed'
           else 'unchanged' end
   where cardinality(t.codes) = 0;

  perform set_config('offers.write_source', 'feed', true);
  -- Full feed: offers it confirmed before and no longer lists are unavailable (never deleted).
  if v_src.kind = 'full' then
    update public.offers o
       set availability = 'out_of_stock', price_source = 'feed'
     where o.feed_source_id = v_src.id
       and o.availability is distinct from 'out_of_stock'
       and not exists (select 1 from pg_temp.feed_apply_rows t where t.offer_id = o.id);
    get diagnostics v_unavailable = row_count;
  end if;

  -- An unchanged row confirms its offer again only when the last confirmation is a day old
  -- (as an unchanged 304 run does): prices turn stale after days, and a new confirmation
  -- rewrites the product's summary, so an hourly feed of 100,000 unchanged lines would
  -- rewrite 100,000 products every hour (decision 0240). Changed lines and confirmations of
  -- prices already stale change what the summary shows: written with their summaries. A big
  -- run's other confirmations move only "price checked": their summaries are queued and the
  -- 'feed-apply' job catches up after the run (decision 0244).
  for v_pass in 1..2 loop
    if v_pass = 2 and v_rows > 10000 then
      perform set_config('offers.summary_defer', 'on', true);
    end if;
    update public.offers o
       set price_gbp = t.price, delivery_gbp = coalesce(t.delivery, o.delivery_gbp),
           availability = t.availability,
           link = case when o.is_primary then o.link else t.link end,
           seller_product_id = t.new_spid, feed_source_id = v_src.id,
           price_confirmed_at = case
             when t.outcome = 'changed' or o.price_confirmed_at is null
                  or o.price_confirmed_at < now() - interval '1 day' then now()
             else o.price_confirmed_at end,
           price_source = 'feed'
      from pg_temp.feed_apply_rows t
     where o.id = t.offer_id and t.outcome in ('changed', 'unchanged')
       and (t.outcome = 'changed'
            or o.feed_source_id is distinct from v_src.id
            or o.seller_product_id is distinct from t.new_spid
            or o.price_source is distinct from 'feed'
            or o.price_confirmed_at is null
            or o.price_confirmed_at < now() - interval '1 day')
       and (t.outcome = 'changed' or o.price_confirmed_at is null
            or o.price_confirmed_at <= now() - v_stale) = (v_pass = 1);
  end loop;
  perform set_config('offers.summary_defer', '', true);

  insert into public.offers
    (product_id, seller_id, link, price_gbp, delivery_gbp, availability, price_confirmed_at,
     price_source, seller_product_id, feed_source_id)
  select t.product_id, v_src.seller_id, t.link, t.price, t.delivery, t.availability, now(),
         'feed', t.new_spid, v_src.id
    from pg_temp.feed_apply_rows t
   where t.outcome = 'added';

  -- Held price jumps (REQ-FEED-4): a newer one replaces the offer's older held change.
  delete from public.feed_held_changes h
   using pg_temp.feed_apply_rows t
   where h.offer_id = t.offer_id and h.status = 'held' and t.outcome = 'held';
  insert into public.feed_held_changes
    (run_id, source_id, offer_id, product_id, old_price, new_price, change)
  select p_run_id, v_src.id, t.offer_id, t.product_id, t.old_price, t.price,
         jsonb_build_object('price_gbp', t.price,
                            'delivery_gbp', coalesce(t.delivery, t.old_delivery),
                            'availability', t.availability,
                            'link', case when t.is_primary then t.old_link else t.link end,
                            'seller_product_id', t.new_spid)
    from pg_temp.feed_apply_rows t
   where t.outcome = 'held';
  perform set_config('offers.write_source', v_prev, true);

  -- Unmatched rows (REQ-FEED-5): ignored ones stay ignored.
  insert into public.feed_unmatched
    (source_id, match_key, seller_product_id, gtin, title, link, price, image, brand,
     last_run_id)
  select distinct on (coalesce(t.gtin, t.id, t.link))
         v_src.id, coalesce(t.gtin, t.id, t.link), t.id, t.gtin, t.title, t.link, t.raw_price,
         t.image, t.brand, p_run_id
    from pg_temp.feed_apply_rows t
   where t.outcome = 'unmatched'
   order by coalesce(t.gtin, t.id, t.link), t.line
  on conflict (source_id, match_key) do update
    set seller_product_id = excluded.seller_product_id, gtin = excluded.gtin,
        title = excluded.title, link = excluded.link, price = excluded.price,
        image = excluded.image, brand = excluded.brand, last_seen_at = now(),
        last_run_id = excluded.last_run_id;

  delete from private.feed_staged_rows s where s.run_id = p_run_id;
  update public.feed_runs r
     set status = 'done', finished_at = now(), heartbeat_at = now(), rows_read = v_rows,
         matched = (select count(*) from pg_temp.feed_apply_rows t
                     where t.outcome in ('added', 'changed', 'unchanged', 'held')),
         added = (select count(*) from pg_temp.feed_apply_rows t where t.outcome = 'added'),
         changed = (select count(*) from pg_temp.feed_apply_rows t where t.outcome = 'changed'),
         unchanged = (select count(*) from pg_temp.feed_apply_rows t
                       where t.outcome = 'unchanged'),
         unmatched = (select count(*) from pg_temp.feed_apply_rows t
                       where t.outcome = 'unmatched'),
         held = (select count(*) from pg_temp.feed_apply_rows t where t.outcome = 'held'),
         refused = v_refused, made_unavailable = v_unavailable,
         refused_by_code = v_by_code, refused_sample = v_sample
   where r.id = p_run_id
  returning * into v_run;
  update public.feed_sources s
     set etag = coalesce(v_run.etag, s.etag),
         last_modified = coalesce(v_run.last_modified, s.last_modified),
         last_run_id = v_run.id, last_status = 'done', last_run_at = now(), failing_since = null
   where s.id = v_src.id;
  perform private.feed_run_log(p_run_id);
  return private.feed_run_report(v_run);
end;
$$;
revoke execute on function private.feed_run_apply(uuid) from public, anon, authenticated;
grant execute on function private.feed_run_apply(uuid) to service_role;

-- The Cron job 'feed-apply' (every 10 seconds; the local stack's timer): applies every staged
-- run, oldest first. A run that cannot be applied fails with the reason (nothing applied).
create function private.feed_apply_staged()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_count integer := 0;
begin
  for v_id in select r.id from public.feed_runs r where r.status = 'staged' order by r.created_at
  loop
    begin
      perform private.feed_run_apply(v_id);
      v_count := v_count + 1;
    exception
      when sqlstate '55000' then
        null;
      when others then
        perform private.feed_run_fail(v_id, 'The feed could not be applied: ' || sqlerrm
                                              || '. Nothing was applied.');
    end;
  end loop;
  -- Then the summaries big runs queued (decision 0244): 10,000 products a call.
  perform private.offer_summary_queue_drain(10000);
  return v_count;
end;
$$;
revoke execute on function private.feed_apply_staged() from public, anon, authenticated;
grant execute on function private.feed_apply_staged() to service_role;

-- Hosted schedule (Supabase Cron): the same Vault secrets as private.link_health_tick.
create function private.feed_sync_tick()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_url text;
  v_key text;
begin
  if to_regclass('vault.decrypted_secrets') is null or to_regnamespace('net') is null then
    raise notice 'feed sync: Vault or pg_net is missing; nothing scheduled';
    return;
  end if;
  execute 'select max(decrypted_secret) filter (where name = ''link_health_url''),
                  max(decrypted_secret) filter (where name = ''link_health_key'')
             from vault.decrypted_secrets'
    into v_url, v_key;
  if v_url is null or v_key is null then
    raise notice 'feed sync: Vault secrets link_health_url / link_health_key are not set';
    return;
  end if;
  execute 'select net.http_post(url := $1, headers := $2, body := $3, timeout_milliseconds := 5000)'
    using rtrim(v_url, '/') || '/functions/v1/feed-sync',
          jsonb_build_object('Content-Type', 'application/json',
                             'Authorization', 'Bearer ' || v_key, 'apikey', v_key),
          jsonb_build_object('mode', 'due');
end;
$$;
comment on function private.feed_sync_tick() is
  'Supabase Cron (every minute): asks the feed-sync function to read the feeds that are due.';
revoke execute on function private.feed_sync_tick() from public, anon, authenticated;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    execute $sql$select cron.schedule('feed-apply', '10 seconds',
                                      'select private.feed_apply_staged()')$sql$;
    if exists (select 1 from pg_extension where extname = 'pg_net') then
      execute $sql$select cron.schedule('feed-sync', '* * * * *',
                                        'select private.feed_sync_tick()')$sql$;
    end if;
  end if;
end;
$$;
