-- Admin model: who may manage the catalogue is decided here, in the database, never by anything a
-- user can edit (user_metadata, local storage). An admin invites an e-mail address; the account
-- with that address becomes an admin once its e-mail is confirmed (trigger on auth.users).
--
-- Privileges are stated explicitly (revoke, then grant exactly what the policies need) so the
-- schema behaves the same whether or not the project auto-exposes new tables to the API roles.

create extension if not exists pgcrypto with schema extensions;

-- Security-definer helpers live in a schema PostgREST does not expose.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;
-- New functions in private are not executable by everyone unless granted one by one.
alter default privileges in schema private revoke execute on functions from public;

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

-- ---------------------------------------------------------------------------------------------
-- is_admin(): the single source of truth for admin rights
-- ---------------------------------------------------------------------------------------------

-- SECURITY DEFINER so policies on admins itself can call it without recursing into RLS.
create function private.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.admins a where a.user_id = (select auth.uid()));
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
-- Invite rules
-- ---------------------------------------------------------------------------------------------

-- Normalises the address, stamps created_at, and refuses an address that already has an account:
-- otherwise someone could sign up with an address they do not own and wait for an invite to turn
-- that unconfirmed account into an admin once the real owner clicks the confirmation link.
-- SECURITY DEFINER only to look up auth.users.
create function private.admin_invites_before_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  new.created_at := now();
  new.accepted_at := null;
  if exists (select 1 from auth.users u where lower(u.email) = new.email) then
    raise exception 'Email already registered'
      using errcode = '23505',
            detail = 'An account with this e-mail already exists, so it cannot be invited.';
  end if;
  -- An invite that was used by an account since deleted is spent; inviting the address again
  -- replaces it (an open invite stays and the duplicate insert fails as usual).
  delete from public.admin_invites i where i.email = new.email and i.accepted_at is not null;
  return new;
end;
$$;
revoke execute on function private.admin_invites_before_insert() from public, anon, authenticated;

create trigger admin_invites_before_insert
  before insert on public.admin_invites
  for each row execute function private.admin_invites_before_insert();

-- Runs inside the Auth server's transaction (as supabase_auth_admin, search_path auth) whenever
-- a user is created or its e-mail/confirmation changes. Only a confirmed e-mail with an open
-- invite grants admin; an invite is used once.
create function private.grant_admin_on_confirmed_invite()
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
   where i.email = v_email
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
