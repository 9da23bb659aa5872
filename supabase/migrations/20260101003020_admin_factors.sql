-- The Admins tab lists which colleagues use two-factor sign-in, so an admin can remove a lost
-- phone's factor with admin_remove_colleague_factor (REQ-MFA-2; docs/decisions/0254; written by
-- `npm run db:diff -- admin_factors` from supabase/schemas/015_admin_team.sql). public.admin_factors()
-- returns the verified factors of listed admins (user, factor id, added): ids and dates only, never
-- the secret, and to admins only (private.require_admin, so aal2 when the rule asks for it).


set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.admin_factors()
 RETURNS TABLE(user_id uuid, factor_id uuid, created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.require_admin();
  return query
    select f.user_id, f.id, f.created_at
      from auth.mfa_factors f
      join public.admins a on a.user_id = f.user_id
     where f.status::text = 'verified'
     order by f.created_at, f.id;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.admin_factors()
 RETURNS TABLE(user_id uuid, factor_id uuid, created_at timestamp with time zone)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select * from private.admin_factors();
$function$
;

comment on function public.admin_factors() is
  'Admins only (aal2 when required): the verified two-factor factors of every admin (ids and dates, no secret).';

-- migra leaves grants out: only signed-in users may call either function (the check is inside).
revoke execute on function private.admin_factors() from public, anon;
grant execute on function private.admin_factors() to authenticated;
revoke execute on function public.admin_factors() from public, anon;
grant execute on function public.admin_factors() to authenticated;
