-- Catalogue: categories ("catagories", the spec's spelling) and products.
-- The database enforces the rules whatever client writes: trimmed, case-insensitively unique
-- titles; http(s)-only links; length limits; database-assigned ids and immutable created_at;
-- categories carry their products when renamed and cannot be deleted while they have products.
-- Visitors read; only admins (private.is_admin()) write.

-- A URL that may end up in href/src: http(s) with a host, no whitespace or control characters.
-- (Written out in each check so the constraint does not depend on a function.)

create table public.catagories (
  id uuid primary key default gen_random_uuid(),
  -- Plain unique constraint: the target of products.cat (ON UPDATE CASCADE needs it).
  title text not null constraint catagories_title_key unique,
  created_at timestamptz not null default now(),
  constraint catagories_title_check check (
    title = btrim(title) and char_length(title) between 1 and 80 and title !~ '[[:cntrl:]]'
  )
);
comment on table public.catagories is 'Product categories (spelling kept from the spec).';
-- "Football" and " football " are the same title.
create unique index catagories_title_lower_key on public.catagories (lower(btrim(title)));

create table public.products (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  cat text not null
    constraint products_cat_fkey references public.catagories (title)
      on update cascade on delete restrict,
  image text not null,
  price text not null,
  com text not null,
  link text not null,
  created_at timestamptz not null default now(),
  -- First number in the price as typed ("£1,299.99" -> 1299.99, "from £5" -> 5); NULL when there
  -- is none, so such products sort last. Thousands separators are dropped first.
  price_value numeric generated always as (
    (regexp_substr(regexp_replace(price, '([0-9]),(?=[0-9]{3})', '\1', 'g'),
                   '[0-9]+(\.[0-9]+)?|\.[0-9]+'))::numeric
  ) stored,
  constraint products_title_check check (
    title = btrim(title) and char_length(title) between 1 and 120 and title !~ '[[:cntrl:]]'
  ),
  constraint products_price_check check (char_length(btrim(price)) between 1 and 40),
  constraint products_com_check check (char_length(btrim(com)) >= 1 and char_length(com) <= 2000),
  -- Absolute http(s) URL, or a site-relative path such as /products/football.svg (not //host).
  constraint products_image_check check (
    char_length(image) <= 2048
    and (
      image ~* '^https?://[^[:space:][:cntrl:]/?#\\]+([/?#][^[:space:][:cntrl:]]*)?$'
      or image ~ '^/[^/\\[:space:][:cntrl:]][^[:space:][:cntrl:]]*$'
    )
  ),
  constraint products_link_check check (
    char_length(link) <= 2048
    and link ~* '^https?://[^[:space:][:cntrl:]/?#\\]+([/?#][^[:space:][:cntrl:]]*)?$'
  )
);
comment on table public.products is 'Catalogue products. price stays as typed; price_value orders it.';
comment on column public.products.price_value is
  'First number in price (NULL if none). Order by price_value asc nulls last, title, id.';

create unique index products_title_lower_key on public.products (lower(btrim(title)));
-- The storefront's order, and the same within a category (also covers the cat foreign key).
create index products_price_order_idx
  on public.products (price_value asc nulls last, title asc, id asc);
create index products_cat_price_order_idx
  on public.products (cat, price_value asc nulls last, title asc, id asc);

alter table public.catagories enable row level security;
alter table public.products enable row level security;

-- ---------------------------------------------------------------------------------------------
-- Row rules (triggers). Invoker rights: they only touch the row being written or read the
-- public catalogue.
-- ---------------------------------------------------------------------------------------------

-- ids and created_at come from the database; titles are stored trimmed.
create function private.catalogue_before_insert()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.id := gen_random_uuid();
  new.created_at := now();
  new.title := btrim(new.title);
  return new;
end;
$$;
revoke execute on function private.catalogue_before_insert() from public, anon, authenticated;

-- id and created_at never change; a changed title is trimmed.
create function private.catalogue_before_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.id is distinct from old.id then
    raise exception 'id cannot be changed' using errcode = '23514';
  end if;
  if new.created_at is distinct from old.created_at then
    raise exception 'created_at cannot be changed' using errcode = '23514';
  end if;
  new.title := btrim(new.title);
  return new;
end;
$$;
revoke execute on function private.catalogue_before_update() from public, anon, authenticated;

-- Say why a category cannot go (the foreign key would refuse anyway, with a technical message).
create function private.catagories_before_delete()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_count bigint;
begin
  select count(*) into v_count from public.products p where p.cat = old.title;
  if v_count > 0 then
    raise exception 'Catagory still has products'
      using errcode = '23503',
            detail = format('Catagory "%s" is used by %s product(s).', old.title, v_count),
            hint = 'Move or delete its products first.';
  end if;
  return old;
end;
$$;
revoke execute on function private.catagories_before_delete() from public, anon, authenticated;

create trigger catagories_before_insert
  before insert on public.catagories
  for each row execute function private.catalogue_before_insert();
create trigger catagories_before_update
  before update on public.catagories
  for each row execute function private.catalogue_before_update();
create trigger catagories_before_delete
  before delete on public.catagories
  for each row execute function private.catagories_before_delete();

create trigger products_before_insert
  before insert on public.products
  for each row execute function private.catalogue_before_insert();
create trigger products_before_update
  before update on public.products
  for each row execute function private.catalogue_before_update();

-- ---------------------------------------------------------------------------------------------
-- Privileges and policies: everyone reads, admins write.
-- ---------------------------------------------------------------------------------------------

revoke all on table public.catagories, public.products
  from public, anon, authenticated, service_role;
grant select on table public.catagories, public.products to anon;
grant select, insert, update, delete on table public.catagories, public.products
  to authenticated, service_role;

create policy "Everyone reads categories"
  on public.catagories for select to anon, authenticated
  using (true);
create policy "Admins add categories"
  on public.catagories for insert to authenticated
  with check ((select private.is_admin()));
create policy "Admins change categories"
  on public.catagories for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));
create policy "Admins delete categories"
  on public.catagories for delete to authenticated
  using ((select private.is_admin()));

create policy "Everyone reads products"
  on public.products for select to anon, authenticated
  using (true);
create policy "Admins add products"
  on public.products for insert to authenticated
  with check ((select private.is_admin()));
create policy "Admins change products"
  on public.products for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));
create policy "Admins delete products"
  on public.products for delete to authenticated
  using ((select private.is_admin()));
