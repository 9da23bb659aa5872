-- The admin team (Team tab): reading the team, withdrawing an invitation, resending the
-- confirmation e-mail, removing an admin. Tables and rules: 010_admins.sql.

-- ---------------------------------------------------------------------------------------------
-- Reading the team
-- ---------------------------------------------------------------------------------------------

create function private.admin_team()
returns table (
  user_id uuid,
  email text,
  name text,
  admin_since timestamptz,
  invited_by_email text,
  invited_by_name text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select a.user_id, a.email, private.display_name(u.raw_user_meta_data), a.created_at,
           inviter.email::text, private.display_name(inviter.raw_user_meta_data)
      from public.admins a
      join auth.users u on u.id = a.user_id
      left join public.admin_invites i
        on i.user_id = a.user_id and i.accepted_at is not null
      left join auth.users inviter on inviter.id = i.invited_by
     order by a.created_at, a.email;
end;
$$;
revoke execute on function private.admin_team() from public, anon;
grant execute on function private.admin_team() to authenticated;

create function public.admin_team()
returns table (
  user_id uuid,
  email text,
  name text,
  admin_since timestamptz,
  invited_by_email text,
  invited_by_name text
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.admin_team();
$$;
comment on function public.admin_team() is
  'Admins only: every admin with name, e-mail, admin since and who invited them.';
revoke execute on function public.admin_team() from public, anon;
grant execute on function public.admin_team() to authenticated;

-- account: 'none' (no account signed up for it yet), 'unconfirmed' (its account waits for the
-- confirmation link: the e-mail can be resent).
create function private.open_admin_invites()
returns table (
  email text,
  invited_at timestamptz,
  invited_by_email text,
  invited_by_name text,
  account text,
  last_sent_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select i.email, i.created_at, inviter.email::text,
           private.display_name(inviter.raw_user_meta_data),
           case when i.user_id is null then 'none' else 'unconfirmed' end,
           i.last_sent_at
      from public.admin_invites i
      left join auth.users inviter on inviter.id = i.invited_by
     where i.accepted_at is null
     order by i.created_at desc, i.email;
end;
$$;
revoke execute on function private.open_admin_invites() from public, anon;
grant execute on function private.open_admin_invites() to authenticated;

create function public.open_admin_invites()
returns table (
  email text,
  invited_at timestamptz,
  invited_by_email text,
  invited_by_name text,
  account text,
  last_sent_at timestamptz
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.open_admin_invites();
$$;
comment on function public.open_admin_invites() is
  'Admins only: invitations not yet accepted, newest first.';
revoke execute on function public.open_admin_invites() from public, anon;
grant execute on function public.open_admin_invites() to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Withdraw an invitation
-- ---------------------------------------------------------------------------------------------

-- Deletes the open invite and the account its sign-up created, if that account is still
-- unconfirmed: otherwise that account keeps the address "already registered" and the address
-- can never be invited again. A confirmed account is never deleted here. Lock order is the Auth
-- server's (auth.users row, then the invite, via the confirmation trigger), so a confirmation
-- arriving at the same moment waits or wins; it never deadlocks or slips an admin through.
create function private.withdraw_admin_invite(p_email text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_user uuid;
begin
  perform private.require_admin();
  select i.user_id into v_user
    from public.admin_invites i
   where i.email = v_email and i.accepted_at is null;
  if not found then
    return false;
  end if;
  if v_user is not null then
    perform 1 from auth.users u where u.id = v_user for update;
  end if;
  delete from public.admin_invites i
   where i.email = v_email
     and i.accepted_at is null
     and i.user_id is not distinct from v_user;
  if not found then
    return false;
  end if;
  if v_user is not null then
    delete from auth.users u where u.id = v_user and u.email_confirmed_at is null;
  end if;
  return true;
end;
$$;
revoke execute on function private.withdraw_admin_invite(text) from public, anon;
grant execute on function private.withdraw_admin_invite(text) to authenticated;

create function public.withdraw_admin_invite(p_email text)
returns boolean
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.withdraw_admin_invite(p_email);
$$;
comment on function public.withdraw_admin_invite(text) is
  'Admins only: withdraws an open invitation and deletes its still unconfirmed account. False '
  'when there is no open invitation for the address.';
revoke execute on function public.withdraw_admin_invite(text) from public, anon;
grant execute on function public.withdraw_admin_invite(text) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Resend the confirmation e-mail
-- ---------------------------------------------------------------------------------------------

-- The admin step of "Resend": checks that the address has an open invite whose account is still
-- unconfirmed and records the resend. The Admins tab then asks Auth to mail the link (see
-- docs/decisions/0061-resending-invitations.md for why that public endpoint grants nothing).
create function private.resend_admin_invite(p_email text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
begin
  perform private.require_admin();
  update public.admin_invites i
     set last_sent_at = now()
   where i.email = v_email
     and i.accepted_at is null
     and exists (select 1 from auth.users u
                  where u.id = i.user_id and u.email_confirmed_at is null);
  return found;
end;
$$;
revoke execute on function private.resend_admin_invite(text) from public, anon;
grant execute on function private.resend_admin_invite(text) to authenticated;

create function public.resend_admin_invite(p_email text)
returns boolean
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.resend_admin_invite(p_email);
$$;
comment on function public.resend_admin_invite(text) is
  'Admins only: records a resend of an open invitation whose account is unconfirmed; false when '
  'there is none (nothing to resend).';
revoke execute on function public.resend_admin_invite(text) from public, anon;
grant execute on function public.resend_admin_invite(text) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Remove an admin
-- ---------------------------------------------------------------------------------------------

-- Removals run one at a time (a lock on public.admins that conflicts with itself), and the
-- caller's own rights are checked again once the lock is held: of two admins removing each other
-- at the same moment, the second finds that it is no longer an admin and is refused. Plain
-- selects (every RLS check) do not wait for the lock.
create function private.remove_admin(p_user_id uuid)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  -- Refuse non-admins before the lock, so they cannot hold up confirmations; then again under it.
  perform private.require_admin();
  lock table public.admins in share row exclusive mode;
  perform private.require_admin();
  if p_user_id = (select auth.uid()) then
    raise exception 'You cannot remove yourself'
      using errcode = 'P0001', hint = 'remove_self';
  end if;
  if not exists (select 1 from public.admins a where a.user_id = p_user_id) then
    return false;
  end if;
  if (select count(*) from public.admins) <= 1 then
    raise exception 'The last admin cannot be removed'
      using errcode = 'P0001', hint = 'last_admin';
  end if;
  delete from public.admins a where a.user_id = p_user_id;
  insert into private.removed_admins (user_id, removed_by)
  values (p_user_id, (select auth.uid()))
  on conflict (user_id) do update
    set removed_by = excluded.removed_by, removed_at = excluded.removed_at;
  return true;
end;
$$;
revoke execute on function private.remove_admin(uuid) from public, anon;
grant execute on function private.remove_admin(uuid) to authenticated;

create function public.remove_admin(p_user_id uuid)
returns boolean
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.remove_admin(p_user_id);
$$;
comment on function public.remove_admin(uuid) is
  'Admins only: takes admin rights from another admin (the account stays). Refuses oneself and '
  'the last admin; false when the account is no admin.';
revoke execute on function public.remove_admin(uuid) from public, anon;
grant execute on function public.remove_admin(uuid) to authenticated;

create function private.admin_invites_reinstate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.admins (user_id, email)
  values (new.user_id, new.email)
  on conflict (user_id) do nothing;
  delete from private.removed_admins r where r.user_id = new.user_id;
  return new;
end;
$$;
revoke execute on function private.admin_invites_reinstate() from public, anon, authenticated;

create trigger admin_invites_reinstate
  after insert on public.admin_invites
  for each row
  when (new.accepted_at is not null and new.user_id is not null)
  execute function private.admin_invites_reinstate();

-- ---------------------------------------------------------------------------------------------
-- A colleague lost their phone (REQ-MFA-2; docs/decisions/0251)
-- ---------------------------------------------------------------------------------------------

-- An admin with admin rights (so aal2 when they have a factor or the store requires one) removes
-- another admin's factor, so that admin can sign in with the password and enrol a new one. One's
-- own factor is removed through Auth's own API, which asks for an aal2 session. The factor and
-- its challenges go from Auth's tables (hosted gives postgres, the owner of this function, all
-- privileges on the auth tables GoTrue creates); the log says who removed whose factor. The
-- factor's secret is never copied anywhere.
create function private.admin_remove_colleague_factor(p_factor_id uuid)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;
revoke execute on function private.admin_remove_colleague_factor(uuid) from public, anon;
grant execute on function private.admin_remove_colleague_factor(uuid) to authenticated;

create function public.admin_remove_colleague_factor(p_factor_id uuid)
returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.admin_remove_colleague_factor(p_factor_id);
$$;
comment on function public.admin_remove_colleague_factor(uuid) is
  'Admins only (aal2 when required): removes another admin''s two-factor factor (lost phone) and '
  'logs it; answers that admin''s user id. Refuses one''s own factor.';
revoke execute on function public.admin_remove_colleague_factor(uuid) from public, anon;
grant execute on function public.admin_remove_colleague_factor(uuid) to authenticated;

-- The Admins tab shows which colleagues use two-factor sign-in and offers to remove a lost
-- phone's factor (REQ-MFA-2). Only verified factors of listed admins, and never their secret:
-- ids and dates are all the tab needs to call admin_remove_colleague_factor.
create function private.admin_factors()
returns table (user_id uuid, factor_id uuid, created_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select f.user_id, f.id, f.created_at
      from auth.mfa_factors f
      join public.admins a on a.user_id = f.user_id
     where f.status::text = 'verified'
     order by f.created_at, f.id;
end;
$$;
revoke execute on function private.admin_factors() from public, anon;
grant execute on function private.admin_factors() to authenticated;

create function public.admin_factors()
returns table (user_id uuid, factor_id uuid, created_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.admin_factors();
$$;
comment on function public.admin_factors() is
  'Admins only (aal2 when required): the verified two-factor factors of every admin (ids and dates, no secret).';
revoke execute on function public.admin_factors() from public, anon;
grant execute on function public.admin_factors() to authenticated;
