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

-- Products whose offers were only confirmed again (same price, delivery, availability and
-- link) by a big feed run: their summary moves only its "price checked" time, so it is
-- recomputed after the run in batches instead of inside it (decision 0244). Until then the
-- summary shows the older confirmation, never a fresher one.
create table private.offer_summary_queue (
  product_id uuid primary key references public.products (id) on delete cascade,
  queued_at timestamptz not null default now()
);
create index offer_summary_queue_order_idx on private.offer_summary_queue (queued_at);
revoke all on table private.offer_summary_queue from public, anon, authenticated, service_role;

-- Recomputes the summaries of the oldest queued products, at most p_limit; answers how many
-- were taken from the queue. The 'feed-apply' job calls it after applying staged runs.
create function private.offer_summary_queue_drain(p_limit integer default 10000)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke execute on function private.offer_summary_queue_drain(integer)
  from public, anon, authenticated;
grant execute on function private.offer_summary_queue_drain(integer) to service_role;
