-- Old names of renamed categories (REQ-FIND-8): a shared `/?cat=Hockey` link keeps working after
-- Hockey is renamed to "Ice Hockey". A trigger records the old title on every rename; the
-- storefront asks public.catagory_current_title for the category's name today, which reveals
-- nothing but that current (public) name. Nobody writes the history directly: it lives in
-- `private`, which the API does not expose, and no API role has any privilege on it.

create table private.catagory_old_titles (
  -- The folded title (private.title_key: case, accents, look-alike letters), so `/?cat=hockey`
  -- finds "Hockey" as the unique index on catagories would.
  old_key text primary key,
  old_title text not null,
  catagory_id uuid not null references public.catagories (id) on delete cascade,
  renamed_at timestamptz not null default now()
);
create index catagory_old_titles_catagory_id_idx on private.catagory_old_titles (catagory_id);
comment on table private.catagory_old_titles is
  'Former titles of categories, written by the rename trigger; the latest rename owns a name.';
revoke all on table private.catagory_old_titles from public, anon, authenticated, service_role;

-- Security definer: the admin (or service role) renaming a category has no privilege on the
-- history table. It only records what the update itself did.
create function private.catagories_remember_old_title()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.catagory_old_titles (old_key, old_title, catagory_id, renamed_at)
  values (private.title_key(old.title), old.title, new.id, now())
  on conflict (old_key) do update
    set old_title = excluded.old_title,
        catagory_id = excluded.catagory_id,
        renamed_at = excluded.renamed_at;
  return null;
end;
$$;
revoke execute on function private.catagories_remember_old_title()
  from public, anon, authenticated;

create trigger catagories_remember_old_title
  after update of title on public.catagories
  for each row
  when (old.title is distinct from new.title)
  execute function private.catagories_remember_old_title();

-- The category a title names today: a current title (matched like the unique index, ignoring
-- case and look-alike letters) wins; otherwise the category that last carried that title, under
-- its present name; null when neither exists (or the category was deleted). Definer rights
-- (owned by postgres) to read the private history; it answers one current title, which every
-- visitor can read anyway. In a schema of its own: the visitor (anon) has no access to
-- `private`, and a definer function must not sit in the API's exposed schema (db:lint). Nothing
-- else is in this schema, and the API does not expose it.
create schema catalogue_lookup;
revoke all on schema catalogue_lookup from public;
grant usage on schema catalogue_lookup to anon, authenticated, service_role;

create function catalogue_lookup.catagory_current_title(p_title text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select c.title from public.catagories c
      where private.title_key(c.title) = private.title_key(p_title)),
    (select c.title
       from private.catagory_old_titles h
       join public.catagories c on c.id = h.catagory_id
      where h.old_key = private.title_key(p_title))
  )
  where p_title is not null and char_length(p_title) <= 200;
$$;
revoke execute on function catalogue_lookup.catagory_current_title(text) from public;
grant execute on function catalogue_lookup.catagory_current_title(text)
  to anon, authenticated, service_role;

-- The API's entry point (invoker rights; the definer part stays out of the exposed schema).
create function public.catagory_current_title(p_title text)
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select catalogue_lookup.catagory_current_title(p_title);
$$;
comment on function public.catagory_current_title(text) is
  'Current title of the category a (possibly old) title names; null if none. For /?cat= links.';
revoke execute on function public.catagory_current_title(text) from public;
grant execute on function public.catagory_current_title(text)
  to anon, authenticated, service_role;
