-- Feed sync RPCs (REQ-FEED-2; docs/decisions/0240, 0241): the feed-sync edge function claims
-- runs, reports progress, stages rows in chunks and finishes a run through these. Private
-- definer functions; public wrappers (security invoker) granted to service_role only.

-- The run's report as the function answers and the admin reads it (camelCase).
create function private.feed_run_report(p_run public.feed_runs)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'rowsRead', p_run.rows_read, 'matched', p_run.matched, 'added', p_run.added,
    'changed', p_run.changed, 'unchanged', p_run.unchanged, 'unmatched', p_run.unmatched,
    'refused', p_run.refused, 'held', p_run.held, 'madeUnavailable', p_run.made_unavailable,
    'refusedByCode', p_run.refused_by_code, 'refusedSample', p_run.refused_sample);
$$;
revoke execute on function private.feed_run_report(public.feed_runs) from public, anon, authenticated;

-- One 'feed_run' activity entry per finished run (subject = the feed's name, after = report).
create function private.feed_run_log(p_run_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_run public.feed_runs;
  v_name text;
  v_email text;
begin
  select * into v_run from public.feed_runs r where r.id = p_run_id;
  select s.name into v_name from public.feed_sources s where s.id = v_run.source_id;
  if v_run.requested_by is not null then
    select u.email into v_email from auth.users u where u.id = v_run.requested_by;
  end if;
  insert into public.activity_log (actor, actor_email, kind, subject, after)
  values (v_run.requested_by, v_email, 'feed_run', coalesce(v_name, 'Feed'),
          private.feed_run_report(v_run)
          || jsonb_build_object('runId', v_run.id, 'status', v_run.status,
                                'trigger', v_run.trigger, 'error', v_run.error));
end;
$$;
revoke execute on function private.feed_run_log(uuid) from public, anon, authenticated;

-- The work item the function gets: the run and its source.
create function private.feed_work_item(p_run_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('run', to_jsonb(r), 'source', to_jsonb(s))
    from public.feed_runs r join public.feed_sources s on s.id = r.source_id
   where r.id = p_run_id;
$$;
revoke execute on function private.feed_work_item(uuid) from public, anon, authenticated;

create function private.feed_sync_claim(p_max integer default 3)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ids uuid[];
begin
  -- Scheduled runs that are due (a source with an active run waits for it).
  with due as (
    select s.id from public.feed_sources s
     where s.enabled and s.schedule_minutes is not null and s.next_run_at <= now()
       and not exists (select 1 from public.feed_runs r
                        where r.source_id = s.id
                          and r.status in ('queued', 'fetching', 'staged', 'applying'))
     for update skip locked
  ), queued as (
    insert into public.feed_runs (source_id, trigger, status)
    select d.id, 'schedule', 'queued' from due d
    on conflict do nothing
    returning source_id
  )
  update public.feed_sources s
     set next_run_at = now() + make_interval(mins => s.schedule_minutes)
    from due d
   where s.id = d.id;
  -- Queued runs, and fetching runs whose chain broke (no heartbeat for 2 minutes).
  with picked as (
    select r.id from public.feed_runs r
     where r.status = 'queued'
        or (r.status = 'fetching'
            and coalesce(r.heartbeat_at, r.started_at, r.created_at) < now() - interval '2 minutes')
     order by r.created_at
     limit greatest(1, least(coalesce(p_max, 3), 20))
     for update skip locked
  ), taken as (
    update public.feed_runs r
       set status = 'fetching', heartbeat_at = now(), started_at = coalesce(r.started_at, now()),
           invocations = r.invocations + 1
      from picked p
     where r.id = p.id
    returning r.id
  )
  select array_agg(t.id) into v_ids from taken t;
  return coalesce((select jsonb_agg(private.feed_work_item(x)) from unnest(v_ids) x), '[]');
end;
$$;
revoke execute on function private.feed_sync_claim(integer) from public, anon, authenticated;
grant execute on function private.feed_sync_claim(integer) to service_role;

create function private.feed_sync_take(p_run_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.feed_runs r
     set status = 'fetching', heartbeat_at = now(), started_at = coalesce(r.started_at, now()),
         invocations = r.invocations + 1
   where r.id = p_run_id and r.status in ('queued', 'fetching');
  if not found then
    return null;
  end if;
  return private.feed_work_item(p_run_id);
end;
$$;
revoke execute on function private.feed_sync_take(uuid) from public, anon, authenticated;
grant execute on function private.feed_sync_take(uuid) to service_role;

-- A run the sync works on: 'fetching', else 55000.
create function private.feed_run_fetching(p_run_id uuid)
returns public.feed_runs
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_run public.feed_runs;
begin
  select * into v_run from public.feed_runs r where r.id = p_run_id for update;
  if not found or v_run.status <> 'fetching' then
    raise exception 'This feed run is not being read (status %)', coalesce(v_run.status, 'none')
      using errcode = '55000';
  end if;
  return v_run;
end;
$$;
revoke execute on function private.feed_run_fetching(uuid) from public, anon, authenticated;

create function private.feed_sync_progress(p_run_id uuid, p_patch jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke execute on function private.feed_sync_progress(uuid, jsonb) from public, anon, authenticated;
grant execute on function private.feed_sync_progress(uuid, jsonb) to service_role;

-- A batch of rows (<= 5000). Values over 4096 characters are kept cut to 4097 so that apply
-- refuses them ('field_too_long'); a staged line again replaces it (a resumed chunk).
create function private.feed_stage_rows(p_run_id uuid, p_rows jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  perform private.feed_run_fetching(p_run_id);
  if jsonb_typeof(p_rows) is distinct from 'array' then
    raise exception 'The rows are an array' using errcode = '22023', hint = 'rows';
  end if;
  if jsonb_array_length(p_rows) > 5000 then
    raise exception 'At most 5,000 rows a batch' using errcode = '22023', hint = 'rows';
  end if;
  if exists (select 1 from jsonb_array_elements(p_rows) e
              where jsonb_typeof(e) <> 'object' or jsonb_typeof(e -> 'line') <> 'number'
                 or (e ->> 'line')::numeric not between 1 and 2147483647
                 or (e ->> 'line')::numeric <> trunc((e ->> 'line')::numeric)) then
    raise exception 'Each row is an object with its line number (1 or more)'
      using errcode = '22023', hint = 'line';
  end if;
  if (select count(*) from (select 1 from private.feed_staged_rows s
                             where s.run_id = p_run_id limit 2000001) x)
     + jsonb_array_length(p_rows) > 2000000 then
    raise exception 'A feed has at most 2,000,000 rows' using errcode = '54000', hint = 'rows';
  end if;
  insert into private.feed_staged_rows
    (run_id, line, id, gtin, title, link, price, sale_price, currency, delivery, availability,
     image, brand)
  select distinct on (x.line) p_run_id, x.line,
         left(nullif(btrim(x.e ->> 'id'), ''), 4097), left(nullif(btrim(x.e ->> 'gtin'), ''), 4097),
         left(nullif(btrim(x.e ->> 'title'), ''), 4097), left(nullif(btrim(x.e ->> 'link'), ''), 4097),
         left(nullif(btrim(x.e ->> 'price'), ''), 4097),
         left(nullif(btrim(x.e ->> 'sale_price'), ''), 4097),
         left(nullif(btrim(x.e ->> 'currency'), ''), 4097),
         left(nullif(btrim(x.e ->> 'delivery'), ''), 4097),
         left(nullif(btrim(x.e ->> 'availability'), ''), 4097),
         left(nullif(btrim(x.e ->> 'image'), ''), 4097), left(nullif(btrim(x.e ->> 'brand'), ''), 4097)
    from (select e, (e ->> 'line')::integer as line, n
            from jsonb_array_elements(p_rows) with ordinality as a(e, n)) x
   order by x.line, x.n desc
  on conflict (run_id, line) do update
    set id = excluded.id, gtin = excluded.gtin, title = excluded.title, link = excluded.link,
        price = excluded.price, sale_price = excluded.sale_price, currency = excluded.currency,
        delivery = excluded.delivery, availability = excluded.availability,
        image = excluded.image, brand = excluded.brand;
  get diagnostics v_count = row_count;
  update public.feed_runs r set heartbeat_at = now() where r.id = p_run_id;
  return v_count;
end;
$$;
revoke execute on function private.feed_stage_rows(uuid, jsonb) from public, anon, authenticated;
grant execute on function private.feed_stage_rows(uuid, jsonb) to service_role;

-- The file changed between chunks: start again.
create function private.feed_run_restart(p_run_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.feed_run_fetching(p_run_id);
  delete from private.feed_staged_rows s where s.run_id = p_run_id;
  update public.feed_runs r
     set resume_bytes = 0, rows_read = 0, resume_state = null, heartbeat_at = now()
   where r.id = p_run_id;
end;
$$;
revoke execute on function private.feed_run_restart(uuid) from public, anon, authenticated;
grant execute on function private.feed_run_restart(uuid) to service_role;

-- 304 or the same ETag: nothing to read. The source's offers are confirmed (only those whose
-- confirmation is older than a day: cheap when recent).
create function private.feed_run_unchanged(p_run_id uuid, p_http_status integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_run public.feed_runs;
  v_prev text := coalesce(current_setting('offers.write_source', true), '');
begin
  select * into v_run from public.feed_runs r where r.id = p_run_id for update;
  if not found or v_run.status not in ('queued', 'fetching') then
    raise exception 'This feed run is not being read' using errcode = '55000';
  end if;
  perform set_config('offers.write_source', 'feed', true);
  update public.offers o
     set price_confirmed_at = now()
   where o.feed_source_id = v_run.source_id and o.price_gbp is not null
     and o.price_confirmed_at < now() - interval '1 day';
  perform set_config('offers.write_source', v_prev, true);
  delete from private.feed_staged_rows s where s.run_id = p_run_id;
  update public.feed_runs r
     set status = 'unchanged', http_status = p_http_status, finished_at = now(),
         heartbeat_at = now()
   where r.id = p_run_id
  returning * into v_run;
  update public.feed_sources s
     set last_run_id = v_run.id, last_status = 'unchanged', last_run_at = now(),
         failing_since = null
   where s.id = v_run.source_id;
  perform private.feed_run_log(p_run_id);
  return private.feed_run_report(v_run);
end;
$$;
revoke execute on function private.feed_run_unchanged(uuid, integer) from public, anon, authenticated;
grant execute on function private.feed_run_unchanged(uuid, integer) to service_role;

create function private.feed_run_fail(p_run_id uuid, p_error text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_run public.feed_runs;
begin
  select * into v_run from public.feed_runs r where r.id = p_run_id for update;
  if not found or v_run.status not in ('queued', 'fetching', 'staged', 'applying') then
    raise exception 'This feed run has finished already' using errcode = '55000';
  end if;
  delete from private.feed_staged_rows s where s.run_id = p_run_id;
  update public.feed_runs r
     set status = 'failed', finished_at = now(), heartbeat_at = now(),
         error = left(coalesce(nullif(btrim(p_error), ''), 'The feed could not be read.'), 2000)
   where r.id = p_run_id
  returning * into v_run;
  update public.feed_sources s
     set last_run_id = v_run.id, last_status = 'failed', last_run_at = now(),
         failing_since = coalesce(s.failing_since, now())
   where s.id = v_run.source_id;
  perform private.feed_run_log(p_run_id);
  return private.feed_run_report(v_run) || jsonb_build_object('error', v_run.error);
end;
$$;
revoke execute on function private.feed_run_fail(uuid, text) from public, anon, authenticated;
grant execute on function private.feed_run_fail(uuid, text) to service_role;

create function private.feed_run_staged(p_run_id uuid, p_etag text, p_last_modified text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.feed_run_fetching(p_run_id);
  update public.feed_runs r
     set status = 'staged', etag = left(p_etag, 1000), last_modified = left(p_last_modified, 200),
         heartbeat_at = now()
   where r.id = p_run_id;
end;
$$;
revoke execute on function private.feed_run_staged(uuid, text, text) from public, anon, authenticated;
grant execute on function private.feed_run_staged(uuid, text, text) to service_role;
