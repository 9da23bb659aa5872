-- Wrong two-factor codes are limited per account by the database (REQ-MFA-4; docs/decisions/0253;
-- written by `npm run db:diff -- mfa_attempt_hook` from supabase/schemas/012_mfa_hook.sql). Hosted
-- Supabase Auth limits MFA verify per IP address only, so many addresses could guess codes without
-- end; the per-account limit lived only in the local auth stand-in. Now Auth's "MFA verification
-- attempt" hook, public.hook_mfa_verification_attempt (config.toml [auth.hook.mfa_verification_attempt]),
-- counts wrong codes in private.mfa_failed_attempts and refuses every attempt after 5 of them until
-- 5 quiet minutes passed. Only supabase_auth_admin (the role Auth runs hooks as) may use either.

create table "private"."mfa_failed_attempts" (
    "user_id" uuid not null,
    "failures" integer not null default 0,
    "last_failed_at" timestamp with time zone not null default '-infinity'::timestamp with time zone
      );


alter table "private"."mfa_failed_attempts" enable row level security;

CREATE UNIQUE INDEX mfa_failed_attempts_pkey ON private.mfa_failed_attempts USING btree (user_id);

alter table "private"."mfa_failed_attempts" add constraint "mfa_failed_attempts_pkey" PRIMARY KEY using index "mfa_failed_attempts_pkey";

alter table "private"."mfa_failed_attempts" add constraint "mfa_failed_attempts_failures_check" CHECK ((failures >= 0)) not valid;

alter table "private"."mfa_failed_attempts" validate constraint "mfa_failed_attempts_failures_check";

alter table "private"."mfa_failed_attempts" add constraint "mfa_failed_attempts_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "private"."mfa_failed_attempts" validate constraint "mfa_failed_attempts_user_id_fkey";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.hook_mfa_verification_attempt(event jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

grant delete on table "private"."mfa_failed_attempts" to "supabase_auth_admin";

grant insert on table "private"."mfa_failed_attempts" to "supabase_auth_admin";

grant select on table "private"."mfa_failed_attempts" to "supabase_auth_admin";

grant update on table "private"."mfa_failed_attempts" to "supabase_auth_admin";


  create policy "Auth counts wrong codes"
  on "private"."mfa_failed_attempts"
  as permissive
  for all
  to supabase_auth_admin
using (true)
with check (true);

-- By hand (migra does not write these).
comment on table private.mfa_failed_attempts is
  'Wrong TOTP codes per account since the last right one (REQ-MFA-4); written only by '
  'public.hook_mfa_verification_attempt, which Supabase Auth runs as supabase_auth_admin.';
comment on function public.hook_mfa_verification_attempt(jsonb) is
  'Supabase Auth''s MFA verification attempt hook: at most 5 wrong codes per account per 5 '
  'quiet minutes (REQ-MFA-4, decision 0253). Only supabase_auth_admin may run it.';
revoke all on table private.mfa_failed_attempts from public, anon, authenticated, service_role;
grant usage on schema private to supabase_auth_admin;
revoke execute on function public.hook_mfa_verification_attempt(jsonb)
  from public, anon, authenticated, service_role;
grant execute on function public.hook_mfa_verification_attempt(jsonb) to supabase_auth_admin;
