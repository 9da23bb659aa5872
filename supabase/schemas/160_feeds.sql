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
  peak_heap_mb integer,
  constraint feed_runs_trigger_check check (trigger in ('schedule', 'manual', 'upload')),
  constraint feed_runs_status_check check (
    status in ('queued', 'fetching', 'staged', 'applying', 'done', 'unchanged', 'failed'))
);
comment on table public.feed_runs is
  'One read of a feed: progress and report (REQ-FEED-2, REQ-FEED-3). Written by the sync RPCs only.';
comment on column public.feed_runs.peak_heap_mb is
  'Largest V8 heap in use plus external memory the function reported (MB): what the hosted '
  'runtime counts against its 256 MB limit. peak_rss_mb is the whole process (stand-in).';
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
