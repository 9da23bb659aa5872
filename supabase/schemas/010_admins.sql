-- Admin model: who may manage the catalogue is decided here, in the database, never by anything a
-- user can edit (user_metadata, local storage). An admin invites an e-mail address; the account
-- with that address becomes an admin once its e-mail is confirmed (trigger on auth.users).
--
-- Privileges are stated explicitly (revoke, then grant exactly what the policies need) so the
-- schema behaves the same whether or not the project auto-exposes new tables to the API roles.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------

create table public.admins (
  user_id uuid primary key references auth.users (id) on delete cascade,
  email text not null,
  created_at timestamptz not null default now()
);
comment on table public.admins is
  'Accounts with admin rights. Written only by the invite trigger and the service role.';

create table public.admin_invites (
  email text primary key,
  invited_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  accepted_at timestamptz,
  -- The account created for this invite: only it can accept it (see the invite functions).
  user_id uuid references auth.users (id) on delete cascade,
  last_sent_at timestamptz,
  constraint admin_invites_email_check check (
    email = lower(btrim(email))
    and char_length(email) between 3 and 254
    and email ~ '^[^@[:space:][:cntrl:]]+@[^@[:space:][:cntrl:]]+$'
  )
);
comment on table public.admin_invites is
  'E-mail addresses an admin has invited. The account with that e-mail becomes an admin once the '
  'e-mail is confirmed.';
-- Covers the foreign key (lint 0001) and "invites I sent".
create index admin_invites_invited_by_idx on public.admin_invites (invited_by);

alter table public.admins enable row level security;

alter table public.admin_invites enable row level security;

-- Admin rights need a live session. An access token is valid until it expires (an hour), and
-- is_admin() used to look only at its user id: after logout, "sign out everywhere" or "sign out
-- other devices" the ended session's token still wrote the catalogue. Auth deletes a session's
-- row in auth.sessions when it ends, and every access token names its session (session_id), so
-- admin rights now also need that row to exist and not be past its not_after.
--
-- The policies call private.is_admin() as an init plan ((select private.is_admin())), so this is
-- one primary-key lookup per statement, not per row (bench/session-check-cost.ts measures it).
-- The service role has no session and needs none: it bypasses RLS.
--
-- Two-factor sign-in (REQ-MFA-2; docs/decisions/0251): a password alone must not give admin
-- rights to an admin who turned on a second factor, or to any admin once the store requires one.
-- So an admin's session also needs aal2 (the token says the code was entered), unless the admin
-- has no verified factor and store_settings.admins_require_mfa is off. An aal2 token skips both
-- lookups; otherwise they are one index probe on auth.mfa_factors (user_id) and the settings
-- row's primary key, still once per statement.
create or replace function private.is_admin()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
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
$$;
revoke execute on function private.is_admin() from public, anon;
grant execute on function private.is_admin() to authenticated, service_role;

-- The RPC the SPA calls. Invoker rights; a visitor without a session simply gets false.
create function public.is_admin()
returns boolean
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    return false;
  end if;
  return private.is_admin();
end;
$$;
comment on function public.is_admin() is 'True when the signed-in user is an admin.';
revoke execute on function public.is_admin() from public;
grant execute on function public.is_admin() to anon, authenticated, service_role;

-- email_registered(): lets the admin SignUP tab say "Email already registered" reliably (the Auth
-- API deliberately hides existing accounts). Admins only, because it reveals who has an account.
create function private.email_registered(p_email text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only admins can check whether an e-mail is registered'
      using errcode = '42501';
  end if;
  return exists (
    select 1 from auth.users u where lower(u.email) = lower(btrim(p_email))
  );
end;
$$;
revoke execute on function private.email_registered(text) from public, anon;
grant execute on function private.email_registered(text) to authenticated;

create function public.email_registered(p_email text)
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  select private.email_registered(p_email);
$$;
comment on function public.email_registered(text) is
  'Admins only: whether an account with this e-mail exists.';
revoke execute on function public.email_registered(text) from public, anon;
grant execute on function public.email_registered(text) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Inviting a removed admin again
-- ---------------------------------------------------------------------------------------------

-- As before, an address with an account cannot be invited, with one exception: a removed admin
-- (confirmed account, recorded in private.removed_admins). Their invite is bound to their account
-- and accepted at once, and the after-insert trigger makes them an admin again: they proved the
-- address when they first became an admin, and a new sign-up is impossible for an existing
-- account. Any other account (unconfirmed, or a shopper's) is still "Email already registered".
create or replace function private.admin_invites_before_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_former uuid;
begin
  new.email := lower(btrim(new.email));
  new.created_at := now();
  new.accepted_at := null;
  new.user_id := null;
  new.last_sent_at := null;
  -- A signed-in caller who is no admin is refused by RLS right after this trigger. Look nothing
  -- up for them, so the refusal is the same, in status, body and time, for every address.
  if coalesce((select auth.role()), '') in ('anon', 'authenticated')
     and not private.is_admin() then
    return new;
  end if;
  select u.id into v_former
    from auth.users u
    join private.removed_admins r on r.user_id = u.id
   where lower(u.email) = new.email
     and u.email_confirmed_at is not null
     and not exists (select 1 from public.admins a where a.user_id = u.id);
  if v_former is not null then
    -- Their earlier, used invite makes way for this one (the primary key is the address).
    delete from public.admin_invites i where i.email = new.email and i.accepted_at is not null;
    new.user_id := v_former;
    new.accepted_at := now();
    return new;
  end if;
  if exists (select 1 from auth.users u where lower(u.email) = new.email) then
    raise exception 'Email already registered'
      using errcode = '23505',
            detail = 'An account with this e-mail already exists, so it cannot be invited.';
  end if;
  delete from public.admin_invites i
   where i.email = new.email
     and i.user_id is null
     and (i.accepted_at is not null
          or i.created_at < now() - private.invite_binding_window());
  return new;
end;
$$;
revoke execute on function private.admin_invites_before_insert() from public, anon, authenticated;

create trigger admin_invites_before_insert
  before insert on public.admin_invites
  for each row execute function private.admin_invites_before_insert();

-- A confirmed e-mail accepts only the invite bound to this very account.
create or replace function private.grant_admin_on_confirmed_invite()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(new.email));
begin
  if new.email_confirmed_at is null or v_email is null or v_email = '' then
    return new;
  end if;
  update public.admin_invites i
     set accepted_at = now()
   where i.user_id = new.id
     and i.email = v_email
     and i.accepted_at is null;
  if found then
    insert into public.admins (user_id, email)
    values (new.id, v_email)
    on conflict (user_id) do nothing;
  end if;
  return new;
end;
$$;
revoke execute on function private.grant_admin_on_confirmed_invite() from public, anon, authenticated;

create trigger on_auth_user_confirmed_grant_admin
  after insert or update of email_confirmed_at, email on auth.users
  for each row
  when (new.email_confirmed_at is not null)
  execute function private.grant_admin_on_confirmed_invite();

-- ---------------------------------------------------------------------------------------------
-- Privileges and policies
-- ---------------------------------------------------------------------------------------------

revoke all on table public.admins from public, anon, authenticated, service_role;
grant select on table public.admins to authenticated;
grant select, insert, update, delete on table public.admins to service_role;
create policy "Admins read the admin list"
  on public.admins for select to authenticated
  using ((select private.is_admin()));

revoke all on table public.admin_invites from public, anon, authenticated, service_role;
grant select, insert on table public.admin_invites to authenticated;
grant select, insert, update, delete on table public.admin_invites to service_role;
create policy "Admins read invites"
  on public.admin_invites for select to authenticated
  using ((select private.is_admin()));
create policy "Admins invite in their own name"
  on public.admin_invites for insert to authenticated
  with check ((select private.is_admin()) and invited_by = (select auth.uid()));
-- 1. An admin may withdraw an invite that has not been used. The SignUP tab does so when the
--    sign-up that follows its invite fails: an open invite left behind would make a stranger's
--    later sign-up with that address an admin as soon as the owner clicks its confirmation link.
grant delete on table public.admin_invites to authenticated;
create policy "Admins withdraw open invites"
  on public.admin_invites for delete to authenticated
  using ((select private.is_admin()) and accepted_at is null);
-- Invites belong to one account and tell non-admins nothing.
--
-- 1. An open invite used to be keyed by e-mail alone. When the invited account was deleted, the
--    invite stayed open; a stranger could sign the address up with their own password and become
--    an admin as soon as the owner clicked the confirmation link. Now the account created for an
--    invite is recorded on it (user_id), only that account can accept it, and the invite is
--    deleted together with the account (on delete cascade).
-- 2. The invite trigger looked at auth.users before RLS refused a non-admin's row, so a signed-in
--    non-admin could tell registered addresses (409) from unknown ones (403). Now it checks admin
--    rights first and, for a non-admin, looks nothing up: RLS refuses every address alike.

comment on column public.admin_invites.user_id is
  'The account created for this invite (set by the database when it is signed up). Only it can '
  'accept the invite, and deleting it deletes the invite.';
-- Covers the foreign key (lint 0001) and the lookups of the auth.users trigger.
create index admin_invites_user_id_idx on public.admin_invites (user_id);

-- An invite binds to the first account created with its address within this time; after that,
-- an unbound invite is void (its sign-up never happened) and inviting the address replaces it.
create function private.invite_binding_window()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '1 day';
$$;
revoke execute on function private.invite_binding_window() from public, anon, authenticated;

-- A new account, confirmed or not, takes the open, unbound invite for its address. Runs inside
-- the Auth server's transaction. Triggers fire in name order: this one ("binds") before
-- on_auth_user_confirmed_grant_admin, so an account created already confirmed is bound first.
create function private.bind_invite_to_new_account()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.admin_invites i
     set user_id = new.id
   where i.email = lower(btrim(new.email))
     and i.user_id is null
     and i.accepted_at is null
     and i.created_at >= now() - private.invite_binding_window();
  return new;
end;
$$;
revoke execute on function private.bind_invite_to_new_account() from public, anon, authenticated;

create trigger on_auth_user_binds_invite
  after insert on auth.users
  for each row
  when (new.email is not null)
  execute function private.bind_invite_to_new_account();

-- The admin team (Admins tab): list admins and open invitations, withdraw an invitation, resend
-- its confirmation e-mail, remove an admin, invite a removed admin again. Every rule is decided
-- here, whatever the client sends: only admins (with a live session, private.is_admin()) call
-- these; nobody removes themselves; the last admin stays. Writes are plain inserts, updates and
-- deletes of public.admins / public.admin_invites made inside the caller's request, so triggers
-- on those tables see them with auth.uid() as the actor.
--
-- The functions in public are invoker-rights wrappers (callable by authenticated only); the work
-- is done by security-definer functions in private, which read auth.users for names.

-- ---------------------------------------------------------------------------------------------
-- Bookkeeping
-- ---------------------------------------------------------------------------------------------

comment on column public.admin_invites.last_sent_at is
  'When an admin last had the confirmation e-mail of this invite sent again (null: never).';

-- Accounts whose admin rights were taken away. Only these confirmed accounts can be invited
-- again in place (see private.admin_invites_before_insert); in private, so the API never sees it.
create table private.removed_admins (
  user_id uuid primary key references auth.users (id) on delete cascade,
  removed_by uuid references auth.users (id) on delete set null,
  removed_at timestamptz not null default now()
);
create index removed_admins_removed_by_idx on private.removed_admins (removed_by);
-- Not exposed by the API and no API role has any privilege on it: only the security-definer
-- functions below read or write it.
revoke all on table private.removed_admins from public, anon, authenticated;

create function private.require_admin()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only admins can do this' using errcode = '42501';
  end if;
end;
$$;
revoke execute on function private.require_admin() from public, anon;
grant execute on function private.require_admin() to authenticated;

-- The name an account gave at sign-up (the spec's "Admin <name>").
create function private.display_name(p_meta jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select nullif(btrim(coalesce(p_meta ->> 'display_name', p_meta ->> 'name', '')), '');
$$;
revoke execute on function private.display_name(jsonb) from public, anon;
grant execute on function private.display_name(jsonb) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Two-factor sign-in for admins (REQ-MFA-2; docs/decisions/0251)
-- ---------------------------------------------------------------------------------------------

-- What an admin's session lacks for admin rights: 'none'; 'code' (the admin has a verified
-- factor and this session has not entered a code: aal1); 'enrol' (the store requires two-factor
-- sign-in and the admin has no verified factor yet). Takes the claims from the caller
-- (private.is_admin, private.my_admin_access); callers check that p_uid is a listed admin.
-- plpgsql: store_settings is created later in the schema files (130_settings.sql).
create function private.admin_mfa_needs(p_uid uuid, p_aal text)
returns text
language plpgsql
stable
set search_path = ''
as $$
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
$$;
revoke execute on function private.admin_mfa_needs(uuid, text) from public, anon, authenticated;

-- For the SPA after sign-in: is this account a listed admin, and what does this session still
-- need (the code step, or enrolling a factor first) before the database gives it admin rights.
create function private.my_admin_access()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
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
$$;
revoke execute on function private.my_admin_access() from public, anon;
grant execute on function private.my_admin_access() to authenticated;

create function public.my_admin_access()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.my_admin_access();
$$;
comment on function public.my_admin_access() is
  'The signed-in account: {"admin": listed as admin, "needs": "none" | "code" | "enrol"} (what '
  'this session lacks for admin rights).';
revoke execute on function public.my_admin_access() from public, anon;
grant execute on function public.my_admin_access() to authenticated;
