-- Admin rights need a live session. An access token is valid until it expires (an hour), and
-- is_admin() used to look only at its user id: after logout, "sign out everywhere" or "sign out
-- other devices" the ended session's token still wrote the catalogue. Auth deletes a session's
-- row in auth.sessions when it ends, and every access token names its session (session_id), so
-- admin rights now also need that row to exist and not be past its not_after.
--
-- The policies call private.is_admin() as an init plan ((select private.is_admin())), so this is
-- one primary-key lookup per statement, not per row (bench/session-check-cost.ts measures it).
-- The service role has no session and needs none: it bypasses RLS.

create or replace function private.is_admin()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_session text := (select auth.jwt()) ->> 'session_id';
begin
  if v_uid is null
     or v_session is null
     or v_session !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  return exists (
    select 1
      from public.admins a
      join auth.sessions s on s.user_id = a.user_id
     where a.user_id = v_uid
       and s.id = v_session::uuid
       and (s.not_after is null or s.not_after > now())
  );
end;
$$;
