-- The subset of hosted Supabase's `storage` schema that the local Storage service
-- (stack/storage/server.ts) and user migrations need: the same table and column names and types,
-- the path helpers policies use (storage.foldername/filename/extension), row-level security on
-- both tables and the guard against direct deletes (stack/PLATFORM.md: Storage).
--
-- Applied by the bootstrap superuser on every stack start, after stack/db/bootstrap.sql and before
-- the user migrations, so everything here is idempotent. As on hosted, the tables belong to
-- supabase_storage_admin, of which `postgres` is not a member: migrations insert buckets with
-- postgres' table grants and create policies through hosted's policy grants
-- (stack/db/policy-grants.sql), exactly as they can on a hosted project, and nothing more.

do $$
begin
  if not exists (select from pg_roles where rolname = 'supabase_storage_admin') then
    create role supabase_storage_admin login noinherit bypassrls password 'postgres';
  end if;
end
$$;
alter role supabase_storage_admin login noinherit bypassrls password 'postgres';
alter role supabase_storage_admin set search_path = storage;
-- The service switches to the caller's role for each request (as PostgREST does).
grant anon, authenticated, service_role to supabase_storage_admin;
-- `postgres` is not a member (as on hosted since 2025): stack/db/policy-grants.sql.

create schema if not exists storage authorization supabase_storage_admin;
grant usage on schema storage to postgres, anon, authenticated, service_role;

set role supabase_storage_admin;

alter default privileges in schema storage
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema storage
  grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema storage
  grant all on sequences to postgres, anon, authenticated, service_role;

do $$
begin
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace
                 where n.nspname = 'storage' and t.typname = 'buckettype') then
    create type storage.buckettype as enum ('STANDARD', 'ANALYTICS', 'VECTOR');
  end if;
end
$$;

create table if not exists storage.buckets (
  id text not null primary key,
  name text not null,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text,
  type storage.buckettype not null default 'STANDARD'
);
comment on column storage.buckets.owner is 'Field is deprecated, use owner_id instead';
create unique index if not exists bname on storage.buckets using btree (name);

create table if not exists storage.objects (
  id uuid not null default gen_random_uuid() primary key,
  bucket_id text references storage.buckets (id),
  name text collate "C",
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  owner_id text,
  user_metadata jsonb
);
comment on column storage.objects.owner is 'Field is deprecated, use owner_id instead';
create unique index if not exists bucketid_objname on storage.objects using btree (bucket_id, name);
create index if not exists name_prefix_search on storage.objects using btree (name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

grant all on storage.buckets, storage.objects to postgres with grant option;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

create or replace function storage.foldername(name text)
returns text[]
language plpgsql
immutable
as $function$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$function$;

create or replace function storage.filename(name text)
returns text
language plpgsql
immutable
as $function$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$function$;

create or replace function storage.extension(name text)
returns text
language plpgsql
immutable
as $function$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$function$;

create or replace function storage.update_updated_at_column()
returns trigger
language plpgsql
as $function$
begin
  new.updated_at = now();
  return new;
end
$function$;

-- Hosted refuses `delete from storage.objects` outside the Storage API (whose requests set
-- storage.allow_delete_query): a row deleted directly would leave its file behind.
create or replace function storage.protect_delete()
returns trigger
language plpgsql
as $function$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') != 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.',
            errcode = '42501';
  end if;
  return null;
end
$function$;

do $$
begin
  if not exists (select from pg_trigger where tgname = 'update_objects_updated_at'
                 and tgrelid = 'storage.objects'::regclass) then
    create trigger update_objects_updated_at before update on storage.objects
      for each row execute function storage.update_updated_at_column();
  end if;
  if not exists (select from pg_trigger where tgname = 'protect_buckets_delete'
                 and tgrelid = 'storage.buckets'::regclass) then
    create trigger protect_buckets_delete before delete on storage.buckets
      for each statement execute function storage.protect_delete();
  end if;
  if not exists (select from pg_trigger where tgname = 'protect_objects_delete'
                 and tgrelid = 'storage.objects'::regclass) then
    create trigger protect_objects_delete before delete on storage.objects
      for each statement execute function storage.protect_delete();
  end if;
end
$$;

reset role;
