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

alter table public.admin_invites
  add column user_id uuid references auth.users (id) on delete cascade;
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

-- Existing rows: a used invite belongs to the admin it made, an open one to the account signed
-- up for it; whatever has no account left is spent or void.
update public.admin_invites i
   set user_id = a.user_id
  from public.admins a
 where i.accepted_at is not null and a.email = i.email;
update public.admin_invites i
   set user_id = u.id
  from auth.users u
 where i.accepted_at is null and lower(u.email) = i.email and u.created_at >= i.created_at;
delete from public.admin_invites i
 where i.user_id is null
   and (i.accepted_at is not null
        or i.created_at < now() - private.invite_binding_window());

create or replace function private.admin_invites_before_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  new.created_at := now();
  new.accepted_at := null;
  new.user_id := null;
  -- A signed-in caller who is no admin is refused by RLS right after this trigger. Look nothing
  -- up for them, so the refusal is the same, in status, body and time, for every address.
  if coalesce((select auth.role()), '') in ('anon', 'authenticated')
     and not private.is_admin() then
    return new;
  end if;
  if exists (select 1 from auth.users u where lower(u.email) = new.email) then
    raise exception 'Email already registered'
      using errcode = '23505',
            detail = 'An account with this e-mail already exists, so it cannot be invited.';
  end if;
  -- A used invite whose account is gone was deleted with it; an open invite whose sign-up never
  -- happened is void after the binding window: inviting the address again replaces it.
  delete from public.admin_invites i
   where i.email = new.email
     and i.user_id is null
     and (i.accepted_at is not null
          or i.created_at < now() - private.invite_binding_window());
  return new;
end;
$$;

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
