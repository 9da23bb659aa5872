-- Wrong two-factor codes are limited per account, whatever the address (REQ-MFA-4; decision
-- 0253). Hosted Supabase Auth limits MFA verify only per IP address; its "MFA verification
-- attempt" Auth Hook is called on every verify with {user_id, factor_id, factor_type, valid} and
-- may answer {decision: 'reject', message}: Auth then refuses the verify (403
-- mfa_verification_rejected) and signs the account out of all its sessions. The local auth
-- stand-in calls the same function the same way when supabase/config.toml enables the hook.
--
-- Auth calls the hook as supabase_auth_admin: that role alone may execute it and touch its table
-- (as Supabase's Auth Hooks guide says); the API roles can do neither. (Every role already has
-- USAGE on schema public, so the guide's grant of it is not repeated.)

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------

create table private.mfa_failed_attempts (
  user_id uuid primary key references auth.users (id) on delete cascade,
  failures integer not null default 0 check (failures >= 0),
  last_failed_at timestamptz not null default '-infinity'
);
comment on table private.mfa_failed_attempts is
  'Wrong TOTP codes per account since the last right one (REQ-MFA-4); written only by '
  'public.hook_mfa_verification_attempt, which Supabase Auth runs as supabase_auth_admin.';

alter table private.mfa_failed_attempts enable row level security;
revoke all on table private.mfa_failed_attempts from public, anon, authenticated, service_role;
grant usage on schema private to supabase_auth_admin;
grant select, insert, update, delete on table private.mfa_failed_attempts to supabase_auth_admin;
create policy "Auth counts wrong codes" on private.mfa_failed_attempts
  as permissive for all to supabase_auth_admin using (true) with check (true);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- 5 wrong codes: every further attempt, the right code too, is refused until the last wrong one
-- is 5 minutes old; refused attempts are not counted. A right code that is let through clears
-- the count. Runs as its caller (supabase_auth_admin); the row lock orders parallel attempts at
-- one account, so none is missed.
create function public.hook_mfa_verification_attempt(event jsonb)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_user uuid := (event ->> 'user_id')::uuid;
  v_failures integer;
  v_last timestamptz;
  v_minutes integer;
begin
  insert into private.mfa_failed_attempts (user_id) values (v_user)
  on conflict (user_id) do nothing;
  select failures, last_failed_at into v_failures, v_last
  from private.mfa_failed_attempts where user_id = v_user for update;

  if v_failures >= 5 and v_last > now() - interval '5 minutes' then
    v_minutes := greatest(1, ceil(extract(epoch from v_last + interval '5 minutes' - now()) / 60));
    return jsonb_build_object(
      'decision', 'reject',
      'message', format('Too many wrong codes for this account. Try again in %s minute%s.',
        v_minutes, case when v_minutes = 1 then '' else 's' end)
    );
  end if;

  if coalesce((event ->> 'valid')::boolean, false) then
    delete from private.mfa_failed_attempts where user_id = v_user;
  else
    update private.mfa_failed_attempts
    set failures = case when last_failed_at > now() - interval '5 minutes'
                        then failures + 1 else 1 end,
        last_failed_at = now()
    where user_id = v_user;
  end if;
  return jsonb_build_object('decision', 'continue');
end;
$$;
comment on function public.hook_mfa_verification_attempt(jsonb) is
  'Supabase Auth''s MFA verification attempt hook: at most 5 wrong codes per account per 5 '
  'quiet minutes (REQ-MFA-4, decision 0253). Only supabase_auth_admin may run it.';

revoke execute on function public.hook_mfa_verification_attempt(jsonb)
  from public, anon, authenticated, service_role;
grant execute on function public.hook_mfa_verification_attempt(jsonb) to supabase_auth_admin;
