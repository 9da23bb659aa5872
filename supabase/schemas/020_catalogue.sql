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
  -- The lowest CURRENT offer price (docs/decisions/0230; maintained by the offer triggers and
  -- private.refresh_offer_summaries, 140_offers.sql); NULL when no current offer has a price, so
  -- such products sort last. Until offers it was the first number in the price text.
  price_value numeric,
  -- Set by the database (products_touch_updated_at); the admin form updates only the version it
  -- loaded, so two admins cannot silently overwrite each other.
  updated_at timestamptz not null default now(),
  constraint products_title_check check (
    title = btrim(title) and char_length(title) between 1 and 120 and title !~ '[[:cntrl:]]'
  ),
  -- The stored text is limited too, not only the trimmed one ('5' and any number of spaces).
  constraint products_price_check
    check (char_length(btrim(price)) >= 1 and char_length(price) <= 40),
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
  'Lowest current offer price (NULL if none; kept by the database). Order by price_value asc nulls last, title, id.';
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
-- Optimistic concurrency for the admin Products tab: every product carries updated_at, set by
-- the database on insert and on every update (never by a client). The admin form remembers the
-- updated_at it loaded with Get Product and updates only `where updated_at = <loaded>`, so two
-- admins editing the same product cannot silently overwrite each other: the second one is told
-- the product changed since Get.

comment on column public.products.updated_at is
  'Set by the database on every write; the admin form updates only the version it loaded.';

-- clock_timestamp(), not now(): two updates inside one transaction still get different values,
-- and the value always moves forward even if the clock does not.
create function private.products_touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- A write of the offer summary (140_offers.sql) is not an edit: the admin's version stays.
  if tg_op = 'UPDATE' and current_setting('offers.summary_write', true) = 'on' then
    new.updated_at := old.updated_at;
    return new;
  end if;
  new.updated_at := clock_timestamp();
  if tg_op = 'UPDATE' and new.updated_at <= old.updated_at then
    new.updated_at := old.updated_at + interval '1 microsecond';
  end if;
  return new;
end;
$$;
revoke execute on function private.products_touch_updated_at() from public, anon, authenticated;

create trigger products_touch_updated_at
  before insert or update on public.products
  for each row execute function private.products_touch_updated_at();
-- Look-alike titles. "Ball" was unique ignoring case and outer spaces only, so "Ball" followed by
-- a no-break space, "Ｂａｌｌ" (full width), "Ball" with a zero-width space, a Cyrillic "а", a
-- combining accent or a line separator were all new products (and categories). Titles are now
-- 1. stored normalised (private.normalise_title): NFKC, invisible format characters and controls
--    removed, every run of Unicode white space one plain space, trimmed;
-- 2. unique on a folded key (private.title_key): the normalised title without accents, in lower
--    case, with Cyrillic and Greek letters that look like Latin ones read as those Latin letters.
-- A look-alike is refused as a duplicate (23505, "Title Already in Use" in the admin form). Why
-- fold rather than refuse mixed scripts, and why accents are ignored: docs/decisions/0010.
-- products.cat is normalised the same way, so it still finds its category's stored title.

-- Format characters (Cf) and invisible fillers that render as nothing: soft hyphen, combining
-- grapheme joiner, Arabic letter mark, Hangul fillers, Mongolian vowel separator, zero-width
-- space/joiners and direction marks, bidi embeddings and isolates, word joiner and invisible
-- operators, variation selectors, BOM, interlinear annotation, tag characters. C0/C1 controls
-- other than white space are dropped; white space ones become a space below.
-- Pure, and PARALLEL SAFE so that building products_title_folded_key (private.title_key for
-- every row) and big scans may use parallel workers (`npm run seed:bulk -- 1000000`).
create function private.normalise_title(p_title text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select btrim(
    regexp_replace(
      regexp_replace(
        normalize(p_title, nfkc),
        '[\u00ad\u034f\u061c\u115f\u1160\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f'
        '\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U000e0000-\U000e007f'
        '\u0001-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]',
        '', 'g'),
      '[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u2800]+',
      ' ', 'g'),
    ' ');
$$;
comment on function private.normalise_title(text) is
  'A title as stored: NFKC, no invisible or control characters, single plain spaces, trimmed.';

-- private.title_key is PL/pgSQL, not SQL: a SQL function calling the SQL function
-- private.normalise_title cannot be inlined (both `set search_path`), and a non-inlined SQL
-- function builds a fresh executor for every call, so the inner function was parsed and planned
-- again for every title: 46 µs a call on a quiet machine, against 19 µs for the same expression in
-- PL/pgSQL, which keeps its plans for the session. Every insert and update of a title pays it (the
-- unique folded-key indexes, products.search_text), and a CSV import pays it six times a row.
-- Same expression, same results (checked on 20,000 mixed titles), so the indexes that use it stay
-- valid and need no rebuild.
create or replace function private.title_key(p_title text)
returns text
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
begin
  return translate(
    lower(
      regexp_replace(
        normalize(private.normalise_title(p_title), nfd),
        '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]',
        '', 'g')),
    'авеѕіјкмнорстухԁԛԝӏαβεζηικμνορτυχ',
    'abesijkmhopctyxdqwlabezhikmnoptyx');
end;
$$;
comment on function private.title_key(text) is
  'The key titles are unique on: normalised, accents removed, lower case, look-alikes folded.';

revoke execute on function private.normalise_title(text), private.title_key(text)
  from public, anon, authenticated;

-- Row rules: the title (and a product's category name) is stored normalised.
create function private.catagories_normalise_title()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.title := private.normalise_title(new.title);
  return new;
end;
$$;
revoke execute on function private.catagories_normalise_title() from public, anon, authenticated;

create function private.products_normalise_title()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.title := private.normalise_title(new.title);
  new.cat := private.normalise_title(new.cat);
  return new;
end;
$$;
revoke execute on function private.products_normalise_title() from public, anon, authenticated;

-- The triggers and the index run as the writer (an admin or the service role).
grant execute on function private.normalise_title(text), private.title_key(text)
  to authenticated, service_role;

create trigger catagories_normalise_title
  before insert or update of title on public.catagories
  for each row execute function private.catagories_normalise_title();

create trigger products_normalise_title
  before insert or update of title, cat on public.products
  for each row execute function private.products_normalise_title();

create unique index catagories_title_folded_key on public.catagories (private.title_key(title));

create unique index products_title_folded_key on public.products (private.title_key(title));
-- The folded text a search looks in. Stored (not an expression index) so that checking the
-- index's candidates reads it instead of folding up to 2,000 characters of comment per row.
alter table public.products
  add column search_text text
  generated always as (private.title_key(title || ' ' || cat || ' ' || com)) stored;
comment on column public.products.search_text is
  'Title, category and comment folded like unique titles (private.title_key); admin search only.';
create index products_search_trgm_idx
  on public.products using gin (search_text extensions.gin_trgm_ops);
-- Sort by title (and Get Product's exact-title lookup), and by date added.
create index products_title_order_idx on public.products (title, id);
create index products_created_order_idx on public.products (created_at, id);
-- Prices without a number sort last in both directions (as the table always did), so price
-- descending needs its own index rather than the store order's read backwards.
create index products_price_desc_order_idx
  on public.products (price_value desc nulls last, title desc, id desc);
create index products_no_price_order_idx
  on public.products (title, id) where price_value is null;
create index products_cat_no_price_order_idx
  on public.products (cat, title, id) where price_value is null;

-- Newest first within a category (All uses products_created_order_idx backwards). Price high to
-- low reads the price-order indexes (storefront paging, 060_storefront.sql) backwards.
create index products_cat_created_order_idx on public.products (cat, created_at, id);
