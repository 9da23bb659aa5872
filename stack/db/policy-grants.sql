-- What hosted's supautils lets `postgres` do on platform tables it does not own, and nothing
-- more (stack/PLATFORM.md: Roles; decision 0204). Run by the stack as `supabase_admin` on every
-- start, after the auth and storage schemas and before the migrations.
--
-- On hosted, `postgres` is not a member of supabase_auth_admin or supabase_storage_admin (the
-- owners of the auth and storage tables). supautils' `policy_grants` and `drop_trigger_grants`
-- let it CREATE/ALTER/DROP POLICY and DROP TRIGGER on a fixed list of those tables; everything
-- else that needs ownership (ALTER TABLE, CREATE INDEX, …) and anything that needs CREATE on
-- the schemas (a function in `storage`) fails. Vanilla Postgres checks ownership for policies
-- and trigger drops, so the stand-in lends the owners' roles to `postgres` for exactly one such
-- statement: an event trigger grants them when the statement starts and takes them back when it
-- ends, refusing it if it touched a table outside the list. A failing statement rolls the loan
-- back with it.

revoke supabase_storage_admin from postgres;
revoke supabase_auth_admin from postgres;

-- Whether the loan must not cover a statement on this table: it belongs to a lent role and is
-- not in supautils.policy_grants / drop_trigger_grants for "postgres" on hosted (one list).
create or replace function extensions.supautils_refused(schema_name text, table_name text)
returns boolean
language sql stable
set search_path = ''
as $$
  select exists (
    select from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where n.nspname = schema_name and c.relname = table_name
       and c.relowner in ('supabase_auth_admin'::regrole, 'supabase_storage_admin'::regrole)
  ) and format('%s.%s', schema_name, table_name) <> all (array[
    'auth.audit_log_entries', 'auth.identities', 'auth.refresh_tokens', 'auth.sessions',
    'auth.users', 'realtime.messages', 'storage.buckets', 'storage.migrations',
    'storage.objects', 'storage.s3_multipart_uploads', 'storage.s3_multipart_uploads_parts'
  ])
$$;

-- The role a statement runs as: this function runs as its definer, so current_user would not
-- tell; SET ROLE shows in the `role` setting, otherwise it is the session's.
create or replace function extensions.supautils_lend_start() returns event_trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if coalesce(nullif(current_setting('role'), 'none'), session_user) <> 'postgres'
     or tg_tag not in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY', 'DROP TRIGGER') then
    return;
  end if;
  grant supabase_auth_admin, supabase_storage_admin to postgres;
  perform set_config('supautils.lent', 'on', true);
end;
$$;

-- A dropped policy or trigger must not be on a table outside the list (sql_drop fires first).
create or replace function extensions.supautils_lend_drop() returns event_trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  obj record;
begin
  if current_setting('supautils.lent', true) is distinct from 'on' then
    return;
  end if;
  for obj in select * from pg_event_trigger_dropped_objects() loop
    if obj.object_type in ('policy', 'trigger')
       and extensions.supautils_refused(obj.address_names[1], obj.address_names[2]) then
      raise exception 'must be owner of table %', obj.address_names[2]
        using errcode = '42501';
    end if;
  end loop;
end;
$$;

create or replace function extensions.supautils_lend_end() returns event_trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  cmd record;
  tbl record;
begin
  if current_setting('supautils.lent', true) is distinct from 'on' then
    return;
  end if;
  revoke supabase_auth_admin, supabase_storage_admin from postgres;
  perform set_config('supautils.lent', '', true);
  for cmd in select * from pg_event_trigger_ddl_commands() loop
    if cmd.classid = 'pg_catalog.pg_policy'::regclass then
      select n.nspname, c.relname into tbl
        from pg_catalog.pg_policy p
        join pg_catalog.pg_class c on c.oid = p.polrelid
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where p.oid = cmd.objid;
      if found and extensions.supautils_refused(tbl.nspname, tbl.relname) then
        raise exception 'must be owner of table %', tbl.relname using errcode = '42501';
      end if;
    end if;
  end loop;
end;
$$;

revoke all on function extensions.supautils_refused(text, text) from public;
revoke all on function extensions.supautils_lend_start() from public;
revoke all on function extensions.supautils_lend_drop() from public;
revoke all on function extensions.supautils_lend_end() from public;

do $$
begin
  if not exists (select from pg_event_trigger where evtname = 'supautils_lend_start') then
    create event trigger supautils_lend_start on ddl_command_start
      execute procedure extensions.supautils_lend_start();
  end if;
  if not exists (select from pg_event_trigger where evtname = 'supautils_lend_drop') then
    create event trigger supautils_lend_drop on sql_drop
      execute procedure extensions.supautils_lend_drop();
  end if;
  if not exists (select from pg_event_trigger where evtname = 'supautils_lend_end') then
    create event trigger supautils_lend_end on ddl_command_end
      execute procedure extensions.supautils_lend_end();
  end if;
end
$$;
