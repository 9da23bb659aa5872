-- Admins need two-factor sign-in for admin rights (REQ-MFA-2; docs/decisions/0251; written by
-- `npm run db:diff -- admin_mfa` from supabase/schemas/010_admins.sql, 015_admin_team.sql,
-- 040_activity_log.sql and 130_settings.sql). A stolen or guessed password alone gave an admin
-- who had turned on a second factor every admin right. Now private.is_admin() also needs an aal2
-- token when the admin has a verified factor, or when store_settings.admins_require_mfa is on;
-- my_admin_access() tells the SPA what the session lacks; admin_remove_colleague_factor() lets
-- an admin remove the factor of a colleague who lost their phone, logged as
-- 'admin_factor_removed'.


alter table "public"."activity_log" drop constraint "activity_log_kind_check";

alter table "public"."store_settings" add column "admins_require_mfa" boolean not null default false;

alter table "public"."activity_log" add constraint "activity_log_kind_check" CHECK ((kind = ANY (ARRAY['product_added'::text, 'product_changed'::text, 'product_deleted'::text, 'category_added'::text, 'category_changed'::text, 'category_deleted'::text, 'admin_invited'::text, 'invite_withdrawn'::text, 'admin_confirmed'::text, 'admin_removed'::text, 'admin_factor_removed'::text, 'settings_changed'::text, 'offer_added'::text, 'offer_changed'::text, 'offer_removed'::text, 'seller_added'::text, 'seller_changed'::text, 'seller_removed'::text, 'feed_added'::text, 'feed_changed'::text, 'feed_removed'::text, 'feed_run'::text]))) not valid;

alter table "public"."activity_log" validate constraint "activity_log_kind_check";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.admin_mfa_needs(p_uid uuid, p_aal text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  if p_aal = 'aal2' then
    return 'none';
  end if;
  if exists (
    select 1 from auth.mfa_factors f where f.user_id = p_uid and f.status = 'verified'
  ) then
    return 'code';
  end if;
  if coalesce((select s.admins_require_mfa from public.store_settings s where s.id), false) then
    return 'enrol';
  end if;
  return 'none';
end;
$function$
;

CREATE OR REPLACE FUNCTION private.admin_remove_colleague_factor(p_factor_id uuid)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_actor uuid := (select auth.uid());
  v_factor record;
begin
  perform private.require_admin();
  select f.id, f.user_id, f.friendly_name, f.factor_type::text as factor_type,
         f.status::text as status, f.created_at, coalesce(u.email, a.email) as email
    into v_factor
    from auth.mfa_factors f
    join public.admins a on a.user_id = f.user_id
    left join auth.users u on u.id = f.user_id
   where f.id = p_factor_id
     for update of f;
  if v_factor.id is null then
    raise exception 'No admin has this factor'
      using errcode = 'P0002', hint = 'factor_not_found';
  end if;
  if v_factor.user_id = v_actor then
    raise exception 'Remove your own factor in your account (it asks for a code)'
      using errcode = '42501', hint = 'own_factor';
  end if;
  delete from auth.mfa_challenges c where c.factor_id = p_factor_id;
  delete from auth.mfa_factors f where f.id = p_factor_id;
  insert into public.activity_log (actor, actor_email, kind, subject, before)
  select v_actor, u.email, 'admin_factor_removed', v_factor.email,
         jsonb_build_object('friendly_name', v_factor.friendly_name,
                            'factor_type', v_factor.factor_type,
                            'status', v_factor.status,
                            'created_at', v_factor.created_at)
    from (select (select u2.email from auth.users u2 where u2.id = v_actor) as email) u;
  return v_factor.user_id;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.my_admin_access()
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean;
begin
  v_admin := v_uid is not null and exists (select 1 from public.admins a where a.user_id = v_uid);
  return jsonb_build_object(
    'admin', v_admin,
    'needs', case when v_admin
                  then private.admin_mfa_needs(v_uid, (select auth.jwt()) ->> 'aal')
                  else 'none' end
  );
end;
$function$
;

CREATE OR REPLACE FUNCTION public.admin_remove_colleague_factor(p_factor_id uuid)
 RETURNS uuid
 LANGUAGE sql
 SET search_path TO ''
AS $function$
  select private.admin_remove_colleague_factor(p_factor_id);
$function$
;

CREATE OR REPLACE FUNCTION public.my_admin_access()
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select private.my_admin_access();
$function$
;

CREATE OR REPLACE FUNCTION private.is_admin()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_claims jsonb := (select auth.jwt());
  v_session text := v_claims ->> 'session_id';
begin
  if v_uid is null
     or v_session is null
     or v_session !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  if not exists (
    select 1
      from public.admins a
      join auth.sessions s on s.user_id = a.user_id
     where a.user_id = v_uid
       and s.id = v_session::uuid
       and (s.not_after is null or s.not_after > now())
  ) then
    return false;
  end if;
  return private.admin_mfa_needs(v_uid, v_claims ->> 'aal') = 'none';
end;
$function$
;

-- Grants and comments (db:diff does not write them).
grant update (admins_require_mfa) on table public.store_settings to authenticated, service_role;

revoke execute on function private.admin_mfa_needs(uuid, text) from public, anon, authenticated;

revoke execute on function private.my_admin_access() from public, anon;
grant execute on function private.my_admin_access() to authenticated;
comment on function public.my_admin_access() is
  'The signed-in account: {"admin": listed as admin, "needs": "none" | "code" | "enrol"} (what '
  'this session lacks for admin rights).';
revoke execute on function public.my_admin_access() from public, anon;
grant execute on function public.my_admin_access() to authenticated;

revoke execute on function private.admin_remove_colleague_factor(uuid) from public, anon;
grant execute on function private.admin_remove_colleague_factor(uuid) to authenticated;
comment on function public.admin_remove_colleague_factor(uuid) is
  'Admins only (aal2 when required): removes another admin''s two-factor factor (lost phone) and '
  'logs it; answers that admin''s user id. Refuses one''s own factor.';
revoke execute on function public.admin_remove_colleague_factor(uuid) from public, anon;
grant execute on function public.admin_remove_colleague_factor(uuid) to authenticated;
