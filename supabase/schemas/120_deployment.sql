-- The deployment check (`npm run verify:deployment`, docs/decisions/0205) compares the migrations
-- a deployed database has applied with those in the repository. The Supabase CLI records each
-- applied migration in supabase_migrations.schema_migrations (`supabase db push` does so on hosted
-- and on the local stack alike); that schema is not exposed to the Data API, and no API role may
-- read it. This function answers the recorded versions and names to admins only: which
-- migrations ran is a map of the schema, of no use to a shopper.
--
-- SECURITY DEFINER in private (owned by postgres, which owns the CLI's history table), behind an
-- invoker wrapper in public, as the other admin RPCs. Read only.

create function private.applied_migrations()
returns table (version text, name text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only admins can list applied migrations' using errcode = '42501';
  end if;
  return query
    select m.version::text, m.name::text
      from supabase_migrations.schema_migrations m
     order by m.version;
end;
$$;
revoke execute on function private.applied_migrations() from public, anon;
grant execute on function private.applied_migrations() to authenticated;

create function public.applied_migrations()
returns table (version text, name text)
language sql
stable
security invoker
set search_path = ''
as $$
  select m.version, m.name from private.applied_migrations() m;
$$;
comment on function public.applied_migrations() is
  'Admins only: the migrations this database has applied (version, name), for the deployment check.';
revoke execute on function public.applied_migrations() from public, anon;
grant execute on function public.applied_migrations() to authenticated;
