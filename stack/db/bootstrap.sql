-- Bootstrap of a NEW local database, run once by the stack as the bootstrap superuser
-- `supabase_admin`, before stack/auth/schema.sql and the user migrations.
-- It reproduces what Supabase's Postgres image provides to migrations
-- (stack/PLATFORM.md: Roles, Grants and schemas, Extensions, auth functions, Schema cache reload).
--
-- API privileges ("auto-expose" mode): this file installs the LEGACY default privileges
-- (objects that `postgres` creates in `public` are granted to anon/authenticated/service_role),
-- which is what config.toml's `[api] auto_expose_new_tables` means when left unset, as it is
-- in this project. When it is set to false, the stack additionally runs the "secure by default"
-- revoke (stack/db/postgres.ts, SECURE_DEFAULTS_SQL). Migrations state their GRANTs explicitly
-- either way, so they behave the same under both modes and on hosted Supabase.

-- ---------------------------------------------------------------- roles (stack/PLATFORM.md: Roles)
do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit password 'postgres';
  end if;
  if not exists (select from pg_roles where rolname = 'postgres') then
    create role postgres login password 'postgres';
  end if;
  if not exists (select from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin login noinherit password 'postgres';
  end if;
end
$$;

-- anon was switched to INHERIT upstream in 2023; authenticated and service_role inherit.
alter role anon inherit;
alter role authenticated inherit;
alter role service_role inherit bypassrls;
-- `postgres` is deliberately NOT a superuser, as on hosted Supabase: migrations that rely on
-- superuser rights fail here too instead of only in production.
alter role postgres login nosuperuser createdb createrole replication bypassrls password 'postgres';
alter role authenticator login noinherit password 'postgres';
alter role supabase_auth_admin login noinherit nocreaterole password 'postgres';
alter role supabase_admin password 'postgres';

grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres with admin option;
grant pg_read_all_data, pg_signal_backend, pg_monitor to postgres;

alter role supabase_admin set search_path = "$user", public, auth, extensions;
alter role postgres set search_path = "$user", public, extensions;
alter role supabase_auth_admin set search_path = auth;
alter role supabase_auth_admin set idle_in_transaction_session_timeout = '60s';
alter role authenticator set statement_timeout = '8s';
alter role authenticator set lock_timeout = '8s';
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

-- As on hosted, `postgres` owns the database (so it may create schemas such as
-- supabase_migrations and trusted extensions).
alter database postgres owner to postgres;

-- ---------------------------------------------------------------- schemas (stack/PLATFORM.md: Grants and schemas)
grant usage on schema public to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public
  grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public
  grant all on functions to postgres, anon, authenticated, service_role;

create schema if not exists extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
grant all on schema extensions to postgres with grant option;
alter default privileges for role supabase_admin in schema extensions
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema extensions
  grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema extensions
  grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema extensions
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema extensions
  grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema extensions
  grant all on functions to postgres, anon, authenticated, service_role;

create schema if not exists graphql_public;
grant usage on schema graphql_public to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema graphql_public
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema graphql_public
  grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema graphql_public
  grant all on functions to postgres, anon, authenticated, service_role;

-- Placeholder like the image's when pg_graphql is off, so `graphql_public` is a valid
-- exposed schema for PostgREST.
create or replace function graphql_public.graphql(
  "operationName" text default null,
  query text default null,
  variables jsonb default null,
  extensions jsonb default null
) returns jsonb
language sql
set search_path = ''
as $$
  select jsonb_build_object(
    'errors', jsonb_build_array(jsonb_build_object('message', 'pg_graphql extension is not enabled.'))
  );
$$;

-- auth: owned by supabase_admin; the auth service's role creates and owns the tables
-- (stack/auth/schema.sql). `postgres` gets ALL on them (FKs to auth.users, triggers on it).
create schema if not exists auth authorization supabase_admin;
grant usage on schema auth to postgres, anon, authenticated, service_role;
grant all on schema auth to supabase_auth_admin;
alter default privileges for role supabase_auth_admin in schema auth
  grant all on tables to postgres;
alter default privileges for role supabase_auth_admin in schema auth
  grant all on sequences to postgres;
alter default privileges for role supabase_auth_admin in schema auth
  grant all on functions to postgres;

-- ---------------------------------------------------------------- extensions (stack/PLATFORM.md: Extensions)
create extension if not exists pgcrypto with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;

-- ---------------------------------------------------------------- auth.* functions (stack/PLATFORM.md: auth functions)
-- The modern, coalescing form: PostgREST 12 only sets `request.jwt.claims`; the legacy
-- per-claim settings are still honoured; '' (a setting reset after its transaction) is NULL.
create or replace function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
comment on function auth.uid() is 'Deprecated. Use auth.jwt() -> ''sub'' instead.';

create or replace function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;
comment on function auth.role() is 'Deprecated. Use auth.jwt() -> ''role'' instead.';

create or replace function auth.email() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;
comment on function auth.email() is 'Deprecated. Use auth.jwt() -> ''email'' instead.';

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

alter function auth.uid() owner to supabase_auth_admin;
alter function auth.role() owner to supabase_auth_admin;
alter function auth.email() owner to supabase_auth_admin;
alter function auth.jwt() owner to supabase_auth_admin;
grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt()
  to public, postgres, anon, authenticated, service_role;

-- ---------------------------------------------------------------- realtime publication (stack/PLATFORM.md)
do $$
begin
  if not exists (select from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;
-- Owned by postgres so that migrations may `alter publication supabase_realtime add table ...`.
alter publication supabase_realtime owner to postgres;

-- ---------------------------------------------------------------- schema-cache reload (stack/PLATFORM.md)
-- The event triggers hosted databases carry: any DDL (migrations, SQL editor, tests) makes
-- PostgREST reload its schema cache.
create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql
as $$
declare
  cmd record;
begin
  for cmd in select * from pg_event_trigger_ddl_commands()
  loop
    if cmd.command_tag in (
      'CREATE SCHEMA', 'ALTER SCHEMA', 'CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO',
      'ALTER TABLE', 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE', 'CREATE VIEW', 'ALTER VIEW',
      'CREATE MATERIALIZED VIEW', 'ALTER MATERIALIZED VIEW', 'CREATE FUNCTION', 'ALTER FUNCTION',
      'CREATE TRIGGER', 'CREATE TYPE', 'ALTER TYPE', 'CREATE RULE', 'COMMENT'
    )
    and coalesce(cmd.schema_name, '') not in ('pg_temp', 'auth', 'storage', 'realtime')
    then
      notify pgrst, 'reload schema';
    end if;
  end loop;
end;
$$;

create or replace function extensions.pgrst_drop_watch() returns event_trigger
language plpgsql
as $$
declare
  obj record;
begin
  for obj in select * from pg_event_trigger_dropped_objects()
  loop
    if obj.object_type in (
      'schema', 'table', 'foreign table', 'view', 'materialized view', 'function', 'trigger',
      'type', 'rule'
    )
    and obj.is_temporary is false
    and coalesce(obj.schema_name, '') not in ('auth', 'storage', 'realtime')
    then
      notify pgrst, 'reload schema';
    end if;
  end loop;
end;
$$;

do $$
begin
  if not exists (select from pg_event_trigger where evtname = 'pgrst_ddl_watch') then
    create event trigger pgrst_ddl_watch on ddl_command_end execute procedure extensions.pgrst_ddl_watch();
  end if;
  if not exists (select from pg_event_trigger where evtname = 'pgrst_drop_watch') then
    create event trigger pgrst_drop_watch on sql_drop execute procedure extensions.pgrst_drop_watch();
  end if;
end
$$;
