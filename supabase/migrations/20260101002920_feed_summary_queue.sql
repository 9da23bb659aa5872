-- A big feed run's re-confirmations queue their products' summaries instead of rewriting them
-- inside the run (REQ-FEED-3, decision 0244; written by `npm run db:diff -- feed_summary_queue`
-- from supabase/schemas/145, 146 and 162, grants added by hand: migra does not write them).
-- A first read of a 100,000-line feed spent 28 of its 46 s rewriting 58,000 products whose
-- only change was "price checked", while holding their rows locked. The 'feed-apply' job now
-- recomputes them after the run, 10,000 a call; until then they show the older confirmation.
-- Also feed_runs.peak_heap_mb: the function's V8 heap in use plus external memory, which is what
-- the hosted runtime holds against its memory limit (peak_rss_mb is the whole process).

create table "private"."offer_summary_queue" (
    "product_id" uuid not null,
    "queued_at" timestamp with time zone not null default now()
      );


CREATE INDEX offer_summary_queue_order_idx ON private.offer_summary_queue USING btree (queued_at);

CREATE UNIQUE INDEX offer_summary_queue_pkey ON private.offer_summary_queue USING btree (product_id);

alter table "private"."offer_summary_queue" add constraint "offer_summary_queue_pkey" PRIMARY KEY using index "offer_summary_queue_pkey";

alter table "private"."offer_summary_queue" add constraint "offer_summary_queue_product_id_fkey" FOREIGN KEY (product_id) REFERENCES products(id) ON DELETE CASCADE not valid;

alter table "private"."offer_summary_queue" validate constraint "offer_summary_queue_product_id_fkey";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.offer_summary_queue_drain(p_limit integer DEFAULT 10000)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_ids uuid[];
begin
  with taken as (
    delete from private.offer_summary_queue q
     where q.product_id in (select x.product_id from private.offer_summary_queue x
                             order by x.queued_at limit p_limit for update skip locked)
    returning q.product_id
  )
  select array_agg(t.product_id) into v_ids from taken t;
  perform private.refresh_product_summaries(v_ids);
  return coalesce(cardinality(v_ids), 0);
end;
$function$
;

CREATE OR REPLACE FUNCTION private.feed_apply_staged()
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION private.feed_run_apply(p_run_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION private.offers_after_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

revoke all on table private.offer_summary_queue from public, anon, authenticated, service_role;
revoke execute on function private.offer_summary_queue_drain(integer)
  from public, anon, authenticated;
grant execute on function private.offer_summary_queue_drain(integer) to service_role;

alter table "public"."feed_runs" add column "peak_heap_mb" integer;
comment on column public.feed_runs.peak_heap_mb is
  'Largest V8 heap in use plus external memory the function reported (MB): what the hosted '
  'runtime counts against its 256 MB limit. peak_rss_mb is the whole process (stand-in).';

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.feed_sync_progress(p_run_id uuid, p_patch jsonb)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.feed_run_fetching(p_run_id);
  if jsonb_typeof(p_patch) is distinct from 'object' then
    raise exception 'The progress is an object' using errcode = '22023';
  end if;
  update public.feed_runs r
     set http_status = case when p_patch ? 'http_status' then (p_patch ->> 'http_status')::integer
                            else r.http_status end,
         etag = case when p_patch ? 'etag' then left(p_patch ->> 'etag', 1000) else r.etag end,
         last_modified = case when p_patch ? 'last_modified'
                              then left(p_patch ->> 'last_modified', 200) else r.last_modified end,
         bytes_read = case when p_patch ? 'bytes_read' then (p_patch ->> 'bytes_read')::bigint
                           else r.bytes_read end,
         resume_bytes = case when p_patch ? 'resume_bytes'
                             then (p_patch ->> 'resume_bytes')::bigint else r.resume_bytes end,
         resume_state = case when p_patch ? 'resume_state' then p_patch -> 'resume_state'
                             else r.resume_state end,
         rows_read = case when p_patch ? 'rows_read' then (p_patch ->> 'rows_read')::integer
                          else r.rows_read end,
         peak_rss_mb = case when p_patch ? 'peak_rss_mb'
                            then greatest(r.peak_rss_mb, (p_patch ->> 'peak_rss_mb')::integer)
                            else r.peak_rss_mb end,
         peak_heap_mb = case when p_patch ? 'peak_heap_mb'
                             then greatest(r.peak_heap_mb, (p_patch ->> 'peak_heap_mb')::integer)
                             else r.peak_heap_mb end,
         heartbeat_at = now()
   where r.id = p_run_id;
end;
$function$
;
