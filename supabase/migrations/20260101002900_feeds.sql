-- Feeds (REQ-FEED-1..6; docs/decisions/0240): sellers' and networks' product feeds keep offers'
-- prices and availability true. Adds products.gtin, offers.seller_product_id / feed_source_id,
-- the feed tables, the sync and admin RPCs, the apply in one transaction, the feed-uploads
-- bucket and the Cron jobs (where pg_cron is installed). Feed writes to offers log one
-- 'feed_run' activity entry per run instead of one entry per offer.
-- Written from supabase/schemas/160..163 (in that order: migra put a check constraint before
-- the function it calls), 040_activity_log.sql and 145_offer_summary.sql.

alter table public.activity_log drop constraint activity_log_kind_check;
alter table public.activity_log add constraint activity_log_kind_check check (
  kind in (
    'product_added', 'product_changed', 'product_deleted',
    'category_added', 'category_changed', 'category_deleted',
    'admin_invited', 'invite_withdrawn', 'admin_confirmed', 'admin_removed',
    'settings_changed',
    'offer_added', 'offer_changed', 'offer_removed',
    'seller_added', 'seller_changed', 'seller_removed',
    'feed_added', 'feed_changed', 'feed_removed', 'feed_run'
  )
);

create or replace function private.offers_after_change()
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
  perform private.refresh_product_summaries(v_ids);
  return null;
end;
$$;

-- ---- supabase/schemas/160_feeds.sql
-- Product feeds (REQ-FEED-1..4, REQ-FEED-6; docs/decisions/0240): sellers' and networks' feeds
-- keep offers' prices and availability true.
--
-- - public.feed_sources: what admins configure (address or uploaded file, format, mapping,
--   seller, schedule). The sync columns (etag, next_run_at, last_*) only the sync writes.
-- - public.feed_runs: one read of a feed, its progress and its report. Only the sync RPCs write.
-- - private.feed_staged_rows: the rows the edge function read, staged in chunks; applied in ONE
--   transaction by feed_run_apply (all or nothing), then dropped.
-- - public.feed_unmatched / public.feed_held_changes: rows no product matched, and price jumps
--   held for an admin's decision. Changed only through the RPCs below.
-- Feed writes to offers set offers.write_source = 'feed': the per-offer activity entries are
-- not written (one 'feed_run' entry per run instead); the price history still is.

-- ---------------------------------------------------------------------------------------------
-- GTINs (products.gtin) and the offers' feed columns
-- ---------------------------------------------------------------------------------------------

-- GTIN-8, UPC (12), EAN-13 or GTIN-14 with a valid check digit.
create function private.gtin_valid(p_gtin text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when p_gtin is null then null
    when p_gtin !~ '^([0-9]{8}|[0-9]{12,14})$' then false
    else (10 - (select sum(substr(p_gtin, char_length(p_gtin) - i, 1)::int
                           * case when i % 2 = 1 then 3 else 1 end)
                  from generate_series(1, char_length(p_gtin) - 1) as i) % 10) % 10
         = substr(p_gtin, char_length(p_gtin), 1)::int
  end;
$$;
comment on function private.gtin_valid(text) is
  'True for a GTIN-8/UPC/EAN-13/GTIN-14 (digits only) whose check digit is right.';
revoke execute on function private.gtin_valid(text) from public, anon;
grant execute on function private.gtin_valid(text) to authenticated, service_role;

alter table public.products add column gtin text;
alter table public.products
  add constraint products_gtin_check check (private.gtin_valid(gtin));
comment on column public.products.gtin is
  'GTIN/EAN/UPC (digits, valid check digit): how a feed row finds its product first (REQ-FEED-3).';
create unique index products_gtin_key on public.products (gtin) where gtin is not null;

create table public.feed_sources (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  seller_id uuid not null references public.sellers (id) on delete restrict,
  origin text not null default 'url',
  url text,
  upload_path text,
  format text not null default 'csv',
  compression text not null default 'auto',
  kind text not null default 'full',
  mapping jsonb not null default '{}',
  match_by_title boolean not null default false,
  max_change_pct integer not null default 50,
  schedule_minutes integer,
  enabled boolean not null default true,
  etag text,
  last_modified text,
  next_run_at timestamptz,
  last_run_id uuid,
  last_status text,
  last_run_at timestamptz,
  failing_since timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  created_by uuid default auth.uid(),
  constraint feed_sources_name_check check (
    name = btrim(name) and char_length(name) between 1 and 80 and name !~ '[[:cntrl:]]'),
  constraint feed_sources_origin_check check (origin in ('url', 'upload')),
  constraint feed_sources_url_check check (
    (origin = 'url') = (url is not null)
    and char_length(url) <= 2048
    and url ~* '^https?://[^[:space:][:cntrl:]/?#\\]+([/?#][^[:space:][:cntrl:]]*)?$'),
  constraint feed_sources_upload_path_check check (
    char_length(upload_path) between 1 and 1024 and upload_path !~ '[[:cntrl:]]'),
  constraint feed_sources_format_check
    check (format in ('csv', 'tsv', 'google_xml', 'google_tsv', 'awin_csv')),
  constraint feed_sources_compression_check check (compression in ('auto', 'none', 'gzip')),
  constraint feed_sources_kind_check check (kind in ('full', 'delta')),
  constraint feed_sources_mapping_check check (jsonb_typeof(mapping) = 'object'),
  constraint feed_sources_max_change_pct_check check (max_change_pct between 1 and 1000),
  constraint feed_sources_schedule_check
    check (schedule_minutes in (15, 60, 360, 720, 1440)),
  constraint feed_sources_last_status_check check (
    last_status in ('queued', 'fetching', 'staged', 'applying', 'done', 'unchanged', 'failed'))
);
comment on table public.feed_sources is
  'Product feeds admins configure (REQ-FEED-1). Sync columns are written by the sync RPCs only.';
create unique index feed_sources_name_folded_key on public.feed_sources (private.title_key(name));
create index feed_sources_seller_idx on public.feed_sources (seller_id);
create index feed_sources_next_run_idx on public.feed_sources (next_run_at)
  where next_run_at is not null;

alter table public.feed_sources enable row level security;
revoke all on table public.feed_sources from public, anon, authenticated, service_role;
grant select, delete on table public.feed_sources to authenticated;
grant insert (name, seller_id, origin, url, upload_path, format, compression, kind, mapping,
              match_by_title, max_change_pct, schedule_minutes, enabled),
  update (name, seller_id, origin, url, upload_path, format, compression, kind, mapping,
          match_by_title, max_change_pct, schedule_minutes, enabled)
  on table public.feed_sources to authenticated;
grant select, insert, update, delete on table public.feed_sources to service_role;
create policy "Admins read feeds"
  on public.feed_sources for select to authenticated
  using ((select private.is_admin()));
create policy "Admins add feeds"
  on public.feed_sources for insert to authenticated
  with check ((select private.is_admin()));
create policy "Admins change feeds"
  on public.feed_sources for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));
create policy "Admins delete feeds"
  on public.feed_sources for delete to authenticated
  using ((select private.is_admin()));

-- Which feed last confirmed an offer, and the seller's own id for it.
alter table public.offers
  add column seller_product_id text,
  add column feed_source_id uuid references public.feed_sources (id) on delete set null;
alter table public.offers
  add constraint offers_seller_product_id_check check (
    char_length(seller_product_id) between 1 and 200 and seller_product_id !~ '[[:cntrl:]]');
create unique index offers_seller_product_key on public.offers (seller_id, seller_product_id)
  where seller_product_id is not null;
create index offers_seller_link_idx on public.offers (seller_id, link);
create index offers_feed_source_idx on public.offers (feed_source_id)
  where feed_source_id is not null;
grant insert (seller_product_id), update (seller_product_id)
  on table public.offers to authenticated, service_role;
grant insert (feed_source_id), update (feed_source_id) on table public.offers to service_role;

-- The mapping's fields (REQ-FEED-1): feed field -> the feed's column name.
create function private.feed_mapping_problem(p_mapping jsonb, p_format text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_mapping) is distinct from 'object' then 'The mapping must be an object'
    when exists (select 1 from jsonb_each(p_mapping) e
                  where e.key not in ('id', 'gtin', 'title', 'link', 'price', 'sale_price',
                                      'currency', 'delivery', 'availability', 'image', 'brand'))
      then 'Unknown mapping field: ' || (select min(e.key) from jsonb_each(p_mapping) e
                  where e.key not in ('id', 'gtin', 'title', 'link', 'price', 'sale_price',
                                      'currency', 'delivery', 'availability', 'image', 'brand'))
    when exists (select 1 from jsonb_each(p_mapping) e
                  where jsonb_typeof(e.value) <> 'string'
                     or char_length(btrim(e.value #>> '{}')) not between 1 and 200
                     or (e.value #>> '{}') ~ '[[:cntrl:]]')
      then 'Each mapped column is a name of 1 to 200 characters'
    when p_format <> 'google_xml'
         and (p_mapping ->> 'link' is null or p_mapping ->> 'price' is null)
      then 'Map the link and price columns'
  end;
$$;
revoke execute on function private.feed_mapping_problem(jsonb, text) from public, anon;
grant execute on function private.feed_mapping_problem(jsonb, text) to authenticated, service_role;

-- Clear messages before the constraints' names (hint = the field); ids, times and the schedule
-- from the database.
create function private.feed_sources_before_write()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_problem text;
begin
  if tg_op = 'INSERT' then
    new.id := gen_random_uuid();
    new.created_at := now();
    new.created_by := auth.uid();
  elsif new.id is distinct from old.id or new.created_at is distinct from old.created_at
        or new.created_by is distinct from old.created_by then
    raise exception 'id, created_at and created_by cannot be changed' using errcode = '23514';
  end if;
  new.name := btrim(new.name);
  new.url := nullif(btrim(new.url), '');
  new.upload_path := nullif(btrim(new.upload_path), '');
  if new.name is null or char_length(new.name) not between 1 and 80 or new.name ~ '[[:cntrl:]]' then
    raise exception 'Give the feed a name of 1 to 80 characters'
      using errcode = '23514', hint = 'name';
  end if;
  if new.origin is null or new.origin not in ('url', 'upload') then
    raise exception 'A feed is read from an address (url) or an uploaded file (upload)'
      using errcode = '22023', hint = 'origin';
  end if;
  if new.origin = 'url' and (new.url is null or char_length(new.url) > 2048
      or new.url !~* '^https?://[^[:space:][:cntrl:]/?#\\]+([/?#][^[:space:][:cntrl:]]*)?$') then
    raise exception 'Give the feed''s address: http:// or https://, at most 2048 characters'
      using errcode = '23514', hint = 'url';
  end if;
  if new.origin = 'upload' then
    new.url := null;
  end if;
  if new.format is null
     or new.format not in ('csv', 'tsv', 'google_xml', 'google_tsv', 'awin_csv') then
    raise exception 'Choose the feed''s format: csv, tsv, google_xml, google_tsv or awin_csv'
      using errcode = '22023', hint = 'format';
  end if;
  if new.compression is null or new.compression not in ('auto', 'none', 'gzip') then
    raise exception 'Compression is auto, none or gzip' using errcode = '22023', hint = 'compression';
  end if;
  if new.kind is null or new.kind not in ('full', 'delta') then
    raise exception 'A feed is full (every offer) or delta (changes only)'
      using errcode = '22023', hint = 'kind';
  end if;
  v_problem := private.feed_mapping_problem(new.mapping, new.format);
  if v_problem is not null then
    raise exception '%', v_problem using errcode = '22023', hint = 'mapping';
  end if;
  if new.max_change_pct is null or new.max_change_pct not between 1 and 1000 then
    raise exception 'The largest price change is 1 to 1000 %%'
      using errcode = '23514', hint = 'max_change_pct';
  end if;
  if new.schedule_minutes is not null and new.schedule_minutes not in (15, 60, 360, 720, 1440) then
    raise exception 'Read the feed every 15 minutes, hour, 6 hours, 12 hours or day, or only by hand'
      using errcode = '23514', hint = 'schedule_minutes';
  end if;
  if tg_op = 'INSERT'
     or new.schedule_minutes is distinct from old.schedule_minutes
     or new.enabled is distinct from old.enabled then
    new.next_run_at := case when new.schedule_minutes is not null and new.enabled then now() end;
  end if;
  new.updated_at := clock_timestamp();
  if tg_op = 'UPDATE' and new.updated_at <= old.updated_at then
    new.updated_at := old.updated_at + interval '1 microsecond';
  end if;
  return new;
end;
$$;
revoke execute on function private.feed_sources_before_write() from public, anon, authenticated;

create trigger feed_sources_before_write
  before insert or update on public.feed_sources
  for each row execute function private.feed_sources_before_write();

-- Admins' changes are logged; the sync's own columns are not a change.
create function private.feed_sources_after_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_email text;
  v_skip text[] := array['id', 'created_at', 'updated_at', 'created_by', 'etag', 'last_modified',
                         'next_run_at', 'last_run_id', 'last_status', 'last_run_at',
                         'failing_since'];
  v_before jsonb;
  v_after jsonb;
begin
  if v_actor is not null then
    select u.email into v_email from auth.users u where u.id = v_actor;
  end if;
  if tg_op = 'INSERT' then
    insert into public.activity_log (actor, actor_email, kind, subject, after)
    values (v_actor, v_email, 'feed_added', new.name, to_jsonb(new) - v_skip);
  elsif tg_op = 'DELETE' then
    insert into public.activity_log (actor, actor_email, kind, subject, before)
    values (v_actor, v_email, 'feed_removed', old.name, to_jsonb(old) - v_skip);
  else
    select jsonb_object_agg(f.key, (to_jsonb(old) - v_skip) -> f.key),
           jsonb_object_agg(f.key, f.value)
      into v_before, v_after
      from jsonb_each(to_jsonb(new) - v_skip) f
     where f.value is distinct from (to_jsonb(old) - v_skip) -> f.key;
    if v_after is not null then
      insert into public.activity_log (actor, actor_email, kind, subject, before, after)
      values (v_actor, v_email, 'feed_changed', new.name, v_before, v_after);
    end if;
  end if;
  return null;
end;
$$;
revoke execute on function private.feed_sources_after_change() from public, anon, authenticated;

create trigger feed_sources_after_change
  after insert or update or delete on public.feed_sources
  for each row execute function private.feed_sources_after_change();

-- ---------------------------------------------------------------------------------------------
-- Runs, staged rows, unmatched rows, held changes
-- ---------------------------------------------------------------------------------------------

create table public.feed_runs (
  id uuid primary key default gen_random_uuid(),
  source_id uuid not null references public.feed_sources (id) on delete cascade,
  trigger text not null,
  requested_by uuid,
  status text not null default 'queued',
  created_at timestamptz not null default now(),
  started_at timestamptz,
  heartbeat_at timestamptz,
  finished_at timestamptz,
  http_status integer,
  etag text,
  last_modified text,
  bytes_read bigint not null default 0,
  resume_bytes bigint not null default 0,
  resume_state jsonb,
  invocations integer not null default 0,
  peak_rss_mb integer,
  rows_read integer not null default 0,
  matched integer not null default 0,
  added integer not null default 0,
  changed integer not null default 0,
  unchanged integer not null default 0,
  unmatched integer not null default 0,
  refused integer not null default 0,
  held integer not null default 0,
  made_unavailable integer not null default 0,
  refused_by_code jsonb not null default '{}',
  refused_sample jsonb not null default '[]',
  error text,
  constraint feed_runs_trigger_check check (trigger in ('schedule', 'manual', 'upload')),
  constraint feed_runs_status_check check (
    status in ('queued', 'fetching', 'staged', 'applying', 'done', 'unchanged', 'failed'))
);
comment on table public.feed_runs is
  'One read of a feed: progress and report (REQ-FEED-2, REQ-FEED-3). Written by the sync RPCs only.';
create unique index feed_runs_one_active_key on public.feed_runs (source_id)
  where status in ('queued', 'fetching', 'staged', 'applying');
create index feed_runs_source_idx on public.feed_runs (source_id, created_at desc);
create index feed_runs_status_idx on public.feed_runs (status, created_at)
  where status in ('queued', 'fetching', 'staged', 'applying');
alter table public.feed_runs enable row level security;
revoke all on table public.feed_runs from public, anon, authenticated, service_role;
grant select on table public.feed_runs to authenticated, service_role;
create policy "Admins read feed runs"
  on public.feed_runs for select to authenticated
  using ((select private.is_admin()));

create table private.feed_staged_rows (
  run_id uuid not null references public.feed_runs (id) on delete cascade,
  line integer not null,
  id text,
  gtin text,
  title text,
  link text,
  price text,
  sale_price text,
  currency text,
  delivery text,
  availability text,
  image text,
  brand text,
  primary key (run_id, line)
);
comment on table private.feed_staged_rows is
  'Rows of a feed run as read (trimmed), until feed_run_apply applies them in one transaction.';
revoke all on table private.feed_staged_rows from public, anon, authenticated, service_role;

create table public.feed_unmatched (
  id uuid primary key default gen_random_uuid(),
  source_id uuid not null references public.feed_sources (id) on delete cascade,
  match_key text not null,
  seller_product_id text,
  gtin text,
  title text,
  link text,
  price text,
  image text,
  brand text,
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  last_run_id uuid,
  status text not null default 'open',
  product_id uuid,
  constraint feed_unmatched_status_check check (status in ('open', 'ignored', 'created')),
  constraint feed_unmatched_key unique (source_id, match_key)
);
comment on table public.feed_unmatched is
  'Feed rows no product matched (REQ-FEED-5): admins create a product or ignore them, via RPCs.';
alter table public.feed_unmatched enable row level security;
revoke all on table public.feed_unmatched from public, anon, authenticated, service_role;
grant select on table public.feed_unmatched to authenticated, service_role;
create policy "Admins read unmatched feed rows"
  on public.feed_unmatched for select to authenticated
  using ((select private.is_admin()));

create table public.feed_held_changes (
  id uuid primary key default gen_random_uuid(),
  run_id uuid references public.feed_runs (id) on delete set null,
  source_id uuid not null references public.feed_sources (id) on delete cascade,
  offer_id uuid not null references public.offers (id) on delete cascade,
  product_id uuid not null,
  old_price numeric(12, 2),
  new_price numeric(12, 2),
  change jsonb not null,
  created_at timestamptz not null default now(),
  status text not null default 'held',
  decided_by uuid,
  decided_at timestamptz,
  constraint feed_held_changes_status_check check (status in ('held', 'applied', 'rejected'))
);
comment on table public.feed_held_changes is
  'Feed changes whose price jumped more than the feed allows, waiting for an admin (REQ-FEED-4).';
create index feed_held_changes_offer_idx on public.feed_held_changes (offer_id);
create index feed_held_changes_source_idx on public.feed_held_changes (source_id, status);
create index feed_held_changes_run_idx on public.feed_held_changes (run_id);
alter table public.feed_held_changes enable row level security;
revoke all on table public.feed_held_changes from public, anon, authenticated, service_role;
grant select on table public.feed_held_changes to authenticated, service_role;
create policy "Admins read held feed changes"
  on public.feed_held_changes for select to authenticated
  using ((select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Storage: uploaded feed files (private bucket, admins only).
-- ---------------------------------------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit)
values ('feed-uploads', 'feed-uploads', false, 209715200)
on conflict (id) do update
  set public = excluded.public, file_size_limit = excluded.file_size_limit;

create policy "feed-uploads: admins read"
  on storage.objects for select
  to authenticated
  using (bucket_id = 'feed-uploads' and (select private.is_admin()));
create policy "feed-uploads: admins upload"
  on storage.objects for insert
  to authenticated
  with check (bucket_id = 'feed-uploads' and (select private.is_admin()));
create policy "feed-uploads: admins replace"
  on storage.objects for update
  to authenticated
  using (bucket_id = 'feed-uploads' and (select private.is_admin()))
  with check (bucket_id = 'feed-uploads' and (select private.is_admin()));
create policy "feed-uploads: admins delete"
  on storage.objects for delete
  to authenticated
  using (bucket_id = 'feed-uploads' and (select private.is_admin()));

-- ---- supabase/schemas/161_feed_sync.sql
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

-- ---- supabase/schemas/162_feed_apply.sql
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

  update public.offers o
     set price_gbp = t.price, delivery_gbp = coalesce(t.delivery, o.delivery_gbp),
         availability = t.availability,
         link = case when o.is_primary then o.link else t.link end,
         seller_product_id = t.new_spid, feed_source_id = v_src.id,
         price_confirmed_at = now(), price_source = 'feed'
    from pg_temp.feed_apply_rows t
   where o.id = t.offer_id and t.outcome in ('changed', 'unchanged');

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

-- ---- supabase/schemas/163_feed_admin.sql
-- Feeds: the admin RPCs (REQ-FEED-5) and the public wrappers of every feed RPC. Wrappers are
-- security invoker; the work is done by the private definer functions, which check who calls:
-- admins for the admin ones (42501 otherwise), service_role only for the sync ones (grants).

create function private.feed_admin_only()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not coalesce(private.is_admin(), false) then
    raise exception 'Only admins can manage feeds' using errcode = '42501';
  end if;
end;
$$;
revoke execute on function private.feed_admin_only() from public, anon, authenticated;

create function private.feed_run_request(p_source_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_src public.feed_sources;
  v_id uuid;
begin
  perform private.feed_admin_only();
  select * into v_src from public.feed_sources s where s.id = p_source_id for update;
  if not found then
    raise exception 'This feed does not exist' using errcode = '22023', hint = 'source_id';
  end if;
  if v_src.origin = 'upload' and v_src.upload_path is null then
    raise exception 'Upload a feed file first' using errcode = '22023', hint = 'upload_path';
  end if;
  if exists (select 1 from public.feed_runs r
              where r.source_id = p_source_id
                and r.status in ('queued', 'fetching', 'staged', 'applying')) then
    raise exception 'This feed is already being read' using errcode = '55000';
  end if;
  begin
    insert into public.feed_runs (source_id, trigger, requested_by, status)
    values (p_source_id, case when v_src.origin = 'upload' then 'upload' else 'manual' end,
            auth.uid(), 'queued')
    returning id into v_id;
  exception when unique_violation then
    raise exception 'This feed is already being read' using errcode = '55000';
  end;
  return v_id;
end;
$$;
revoke execute on function private.feed_run_request(uuid) from public, anon;
grant execute on function private.feed_run_request(uuid) to authenticated;

create function private.feed_unmatched_set(p_ids uuid[], p_from text, p_to text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  perform private.feed_admin_only();
  update public.feed_unmatched u set status = p_to
   where u.id = any (coalesce(p_ids, '{}')) and u.status = p_from;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke execute on function private.feed_unmatched_set(uuid[], text, text)
  from public, anon, authenticated;

create function private.feed_unmatched_ignore(p_ids uuid[])
returns integer
language sql
security definer
set search_path = ''
as $$
  select private.feed_unmatched_set(p_ids, 'open', 'ignored');
$$;
revoke execute on function private.feed_unmatched_ignore(uuid[]) from public, anon;
grant execute on function private.feed_unmatched_ignore(uuid[]) to authenticated;

create function private.feed_unmatched_reopen(p_ids uuid[])
returns integer
language sql
security definer
set search_path = ''
as $$
  select private.feed_unmatched_set(p_ids, 'ignored', 'open');
$$;
revoke execute on function private.feed_unmatched_reopen(uuid[]) from public, anon;
grant execute on function private.feed_unmatched_reopen(uuid[]) to authenticated;

-- A product from an unmatched row, through public.products (every product rule, trigger and
-- log applies), then the feed seller's offer for it.
create function private.feed_unmatched_create_product(p_id uuid, p_cat text, p_com text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.feed_unmatched;
  v_src public.feed_sources;
  v_product uuid;
  v_price numeric;
  v_spid text;
begin
  perform private.feed_admin_only();
  select * into v_row from public.feed_unmatched u where u.id = p_id for update;
  if not found then
    raise exception 'This feed row does not exist' using errcode = '22023', hint = 'id';
  end if;
  if v_row.status = 'created' then
    raise exception 'A product was made from this row already' using errcode = '55000', hint = 'id';
  end if;
  if v_row.title is null then
    raise exception 'This row has no title: a product needs one' using errcode = '22023', hint = 'title';
  end if;
  if v_row.image is null then
    raise exception 'This row has no image: a product needs one' using errcode = '22023', hint = 'image';
  end if;
  if v_row.link is null or v_row.price is null then
    raise exception 'This row has no link or price' using errcode = '22023', hint = 'link';
  end if;
  if p_cat is null or not exists (select 1 from public.catagories c where c.title = p_cat) then
    raise exception 'Choose an existing category' using errcode = '23503', hint = 'cat';
  end if;
  if p_com is null or btrim(p_com) = '' then
    raise exception 'Write the product''s comment' using errcode = '23514', hint = 'com';
  end if;
  select * into v_src from public.feed_sources s where s.id = v_row.source_id;
  insert into public.products (title, cat, image, price, com, link, gtin)
  values (private.normalise_title(v_row.title), p_cat, v_row.image, v_row.price, p_com,
          v_row.link, v_row.gtin)
  returning id into v_product;
  v_price := coalesce(private.feed_money(v_row.price), private.offer_price(v_row.price));
  v_spid := case when v_row.seller_product_id is not null
                  and not exists (select 1 from public.offers o
                                   where o.seller_id = v_src.seller_id
                                     and o.seller_product_id = v_row.seller_product_id)
                 then v_row.seller_product_id end;
  if exists (select 1 from public.offers o
              where o.product_id = v_product and o.seller_id = v_src.seller_id) then
    update public.offers o
       set seller_product_id = coalesce(v_spid, o.seller_product_id), feed_source_id = v_src.id,
           price_gbp = v_price, price_source = 'feed', price_confirmed_at = now()
     where o.product_id = v_product and o.seller_id = v_src.seller_id;
  else
    insert into public.offers
      (product_id, seller_id, link, price_gbp, availability, price_confirmed_at, price_source,
       seller_product_id, feed_source_id)
    values (v_product, v_src.seller_id, v_row.link, v_price, 'in_stock', now(), 'feed', v_spid,
            v_src.id);
  end if;
  update public.feed_unmatched u set status = 'created', product_id = v_product
   where u.id = p_id;
  return v_product;
end;
$$;
revoke execute on function private.feed_unmatched_create_product(uuid, text, text)
  from public, anon;
grant execute on function private.feed_unmatched_create_product(uuid, text, text)
  to authenticated;

-- Held price jumps: applied (the change written, price_source 'feed'; the offer's own activity
-- entry names the admin) or rejected.
create function private.feed_held_decide(p_ids uuid[], p_apply boolean)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  perform private.feed_admin_only();
  if p_apply is null then
    raise exception 'Apply or reject?' using errcode = '22023', hint = 'apply';
  end if;
  if p_apply then
    update public.offers o
       set price_gbp = (h.change ->> 'price_gbp')::numeric,
           delivery_gbp = (h.change ->> 'delivery_gbp')::numeric,
           availability = h.change ->> 'availability',
           link = case when o.is_primary then o.link else coalesce(h.change ->> 'link', o.link) end,
           seller_product_id = case
             when exists (select 1 from public.offers x
                           where x.seller_id = o.seller_id and x.id <> o.id
                             and x.seller_product_id = h.change ->> 'seller_product_id')
               then o.seller_product_id
             else h.change ->> 'seller_product_id' end,
           feed_source_id = h.source_id, price_confirmed_at = now(), price_source = 'feed'
      from public.feed_held_changes h
     where h.id = any (coalesce(p_ids, '{}')) and h.status = 'held' and o.id = h.offer_id;
  end if;
  update public.feed_held_changes h
     set status = case when p_apply then 'applied' else 'rejected' end,
         decided_by = auth.uid(), decided_at = now()
   where h.id = any (coalesce(p_ids, '{}')) and h.status = 'held';
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke execute on function private.feed_held_decide(uuid[], boolean) from public, anon;
grant execute on function private.feed_held_decide(uuid[], boolean) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Public wrappers (the API's names). Admin ones: authenticated; sync ones: service_role.
-- ---------------------------------------------------------------------------------------------
create function public.feed_run_request(p_source_id uuid)
returns uuid language sql security invoker set search_path = ''
as $$ select private.feed_run_request(p_source_id); $$;
create function public.feed_unmatched_ignore(p_ids uuid[])
returns integer language sql security invoker set search_path = ''
as $$ select private.feed_unmatched_ignore(p_ids); $$;
create function public.feed_unmatched_reopen(p_ids uuid[])
returns integer language sql security invoker set search_path = ''
as $$ select private.feed_unmatched_reopen(p_ids); $$;
create function public.feed_unmatched_create_product(p_id uuid, p_cat text, p_com text)
returns uuid language sql security invoker set search_path = ''
as $$ select private.feed_unmatched_create_product(p_id, p_cat, p_com); $$;
create function public.feed_held_decide(p_ids uuid[], p_apply boolean)
returns integer language sql security invoker set search_path = ''
as $$ select private.feed_held_decide(p_ids, p_apply); $$;
revoke execute on function public.feed_run_request(uuid), public.feed_unmatched_ignore(uuid[]),
  public.feed_unmatched_reopen(uuid[]), public.feed_unmatched_create_product(uuid, text, text),
  public.feed_held_decide(uuid[], boolean)
  from public, anon;
grant execute on function public.feed_run_request(uuid), public.feed_unmatched_ignore(uuid[]),
  public.feed_unmatched_reopen(uuid[]), public.feed_unmatched_create_product(uuid, text, text),
  public.feed_held_decide(uuid[], boolean)
  to authenticated;

create function public.feed_sync_claim(p_max integer default 3)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_sync_claim(p_max); $$;
create function public.feed_sync_take(p_run_id uuid)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_sync_take(p_run_id); $$;
create function public.feed_sync_progress(p_run_id uuid, p_patch jsonb)
returns void language sql security invoker set search_path = ''
as $$ select private.feed_sync_progress(p_run_id, p_patch); $$;
create function public.feed_stage_rows(p_run_id uuid, p_rows jsonb)
returns integer language sql security invoker set search_path = ''
as $$ select private.feed_stage_rows(p_run_id, p_rows); $$;
create function public.feed_run_restart(p_run_id uuid)
returns void language sql security invoker set search_path = ''
as $$ select private.feed_run_restart(p_run_id); $$;
create function public.feed_run_unchanged(p_run_id uuid, p_http_status integer)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_run_unchanged(p_run_id, p_http_status); $$;
create function public.feed_run_fail(p_run_id uuid, p_error text)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_run_fail(p_run_id, p_error); $$;
create function public.feed_run_staged(p_run_id uuid, p_etag text, p_last_modified text)
returns void language sql security invoker set search_path = ''
as $$ select private.feed_run_staged(p_run_id, p_etag, p_last_modified); $$;
create function public.feed_run_apply(p_run_id uuid)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_run_apply(p_run_id); $$;
revoke execute on function public.feed_sync_claim(integer), public.feed_sync_take(uuid),
  public.feed_sync_progress(uuid, jsonb), public.feed_stage_rows(uuid, jsonb),
  public.feed_run_restart(uuid), public.feed_run_unchanged(uuid, integer),
  public.feed_run_fail(uuid, text), public.feed_run_staged(uuid, text, text),
  public.feed_run_apply(uuid)
  from public, anon, authenticated;
grant execute on function public.feed_sync_claim(integer), public.feed_sync_take(uuid),
  public.feed_sync_progress(uuid, jsonb), public.feed_stage_rows(uuid, jsonb),
  public.feed_run_restart(uuid), public.feed_run_unchanged(uuid, integer),
  public.feed_run_fail(uuid, text), public.feed_run_staged(uuid, text, text),
  public.feed_run_apply(uuid)
  to service_role;

