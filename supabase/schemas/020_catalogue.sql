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
-- 2. price: the trimmed text was limited to 40 characters, the stored text was not ('5' followed
--    by any number of spaces passed). Limit what is stored.

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
create function private.normalise_title(p_title text)
returns text
language sql
immutable
strict
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

-- private.title_key (migration 0720) was a SQL function calling the SQL function
-- private.normalise_title. Neither can be inlined (both `set search_path`), and a non-inlined SQL
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

-- The look-alike title functions (migration 0720) are pure, but were not marked PARALLEL SAFE, so
-- building products_title_folded_key (which calls private.title_key for every row, ~0.4 ms each)
-- could use only one core: the biggest part of `npm run seed:bulk -- 1000000`. Marking them
-- parallel safe changes no result (same immutable functions); index builds and big scans may now
-- use parallel workers.
alter function private.normalise_title(text) parallel safe;

alter function private.title_key(text) parallel safe;

-- Newest first within a category (All uses products_created_order_idx backwards). Price high to
-- low reads the price-order indexes of migration 1500 backwards.
create index products_cat_created_order_idx on public.products (cat, created_at, id);

-- A page per product at /p/<slug> (issue 17, point 3) and a sitemap of them (point 4).
-- - products.slug: made by the database from the title (lower-case ASCII words joined by '-',
--   accents folded), unique (a -2, -3 … suffix on collision), never typed by anyone: the
--   trigger below overwrites whatever a client sends.
-- - product_slug_history: a renamed product's old slugs, so an old link redirects to the new
--   one. Written only by the trigger (security definer); nobody can write it through the API.
--   A deleted product's slugs go with it (on delete cascade): its old links answer 404.
-- - product_page(slug): one call for the page (found / moved to a new slug / missing).
-- - sitemap_summary(), sitemap_products(page): what sitemap.xml lists, 50,000 URLs a file.
-- All readers run with the caller's rights, so the products' RLS (e.g. a rule hiding some
-- products from visitors) applies to pages, redirects and the sitemap alike.
-- Why: docs/decisions/0150-product-pages-served-by-a-host-function.md.

-- The slug a title asks for, before collisions: accents dropped (NFD, then the combining marks;
-- titles are stored NFKC-normalised already), lower case, a few letters NFD does not split spelt
-- out, '&' read as "and", apostrophes dropped ("Men's" -> "mens"), every other run of
-- non-[a-z0-9] one '-', at most 80 characters (cut at a '-'), and "product" when nothing is left
-- (a title in another script). Built-in string functions only: the migration runs it on every
-- existing product.
create function private.slug_base(p_title text)
returns text
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
declare
  v text := lower(regexp_replace(normalize(p_title, nfd),
                  '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]', '', 'g'));
begin
  v := replace(replace(replace(replace(v, 'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'), 'þ', 'th');
  v := translate(v, 'øłđðħı', 'olddhi');
  v := regexp_replace(v, '\s*&\s*', ' and ', 'g');
  v := regexp_replace(v, '[''’`]', '', 'g');
  v := btrim(regexp_replace(v, '[^a-z0-9]+', '-', 'g'), '-');
  if char_length(v) > 80 then
    v := left(v, 81);
    v := btrim(case when v ~ '-' then regexp_replace(v, '-[^-]*$', '') else left(v, 80) end, '-');
  end if;
  return coalesce(nullif(v, ''), 'product');
end;
$$;
comment on function private.slug_base(text) is
  'The slug a title asks for (before a collision suffix): lower-case ASCII words joined by -.';

-- The trigger products_slug always replaces it; the default tells API clients (and the
-- generated types) that an insert need not send one.
alter table public.products
  add column slug text not null default '' constraint products_slug_key unique;
comment on column public.products.slug is
  'The product page''s address (/p/<slug>): made by the database from the title, unique.';

create table public.product_slug_history (
  slug text primary key,
  product_id uuid not null references public.products (id) on delete cascade,
  replaced_at timestamptz not null default now()
);
comment on table public.product_slug_history is
  'Old slugs of renamed products (old address -> product), written only by a trigger.';
create index product_slug_history_product_idx on public.product_slug_history (product_id);

-- A free slug for a product: the base, or base-2, base-3 … Taken means another product's slug or
-- another product's old slug (its old links keep redirecting to it); this product's own old
-- slugs are free again (renaming back). The advisory lock serialises products whose titles ask
-- for the same base (titles are unique, but "Ball!" and "Ball?" both ask for "ball").
create function private.free_product_slug(p_title text, p_product uuid)
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_base text := private.slug_base(p_title);
  v_slug text := v_base;
  v_n integer := 1;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('product-slug:' || v_base));
  while exists (select 1 from public.products p where p.slug = v_slug and p.id <> p_product)
     or exists (select 1 from public.product_slug_history h
                 where h.slug = v_slug and h.product_id <> p_product) loop
    v_n := v_n + 1;
    v_slug := v_base || '-' || v_n;
  end loop;
  return v_slug;
end;
$$;

-- Before insert or update: the slug follows the title and nothing else. A title change that does
-- not change the base (case, punctuation) keeps the slug, so links do not move for nothing.
-- Named after products_normalise_title: triggers fire in name order, so the title is normalised.
create function private.products_slug()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.slug := private.free_product_slug(new.title, new.id);
  elsif new.title is distinct from old.title
        and private.slug_base(new.title) is distinct from private.slug_base(old.title) then
    new.slug := private.free_product_slug(new.title, new.id);
  else
    new.slug := old.slug;
  end if;
  return new;
end;
$$;

-- After a rename that moved the slug: the old slug now redirects; the new one, if it was an
-- old slug of this product, is current again.
create function private.products_slug_history()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.product_slug_history h where h.slug = new.slug;
  insert into public.product_slug_history (slug, product_id) values (old.slug, new.id)
  on conflict (slug) do update set product_id = excluded.product_id, replaced_at = now();
  return null;
end;
$$;

revoke execute on function private.slug_base(text), private.free_product_slug(text, uuid),
  private.products_slug(), private.products_slug_history() from public, anon, authenticated;

create trigger products_slug
  before insert or update on public.products
  for each row execute function private.products_slug();
create trigger products_slug_history
  after update of title on public.products
  for each row when (old.slug is distinct from new.slug)
  execute function private.products_slug_history();

-- The history: readable as far as its product is (the products' RLS decides, as the visitor);
-- written only by the trigger above (no API role has insert, update or delete, the service role
-- included).
alter table public.product_slug_history enable row level security;
revoke all on table public.product_slug_history from public, anon, authenticated, service_role;
grant select on table public.product_slug_history to anon, authenticated, service_role;
create policy "Old slugs are readable where their product is"
  on public.product_slug_history for select to anon, authenticated
  using (exists (select 1 from public.products p where p.id = product_id));

-- A slug longer than any product's is no product's: missing, without a look-up.
create or replace function public.product_page(p_slug text)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select case when octet_length(p_slug) > 800 or char_length(p_slug) > 200
              then jsonb_build_object('status', 'missing')
              else listing.product_page(p_slug) end;
$$;
comment on function public.product_page(text) is
  'A product page by slug: found (the product), moved (the current slug of a renamed one) or missing.';
revoke execute on function public.product_page(text) from public;
grant execute on function public.product_page(text) to anon, authenticated, service_role;

-- The sitemap's two calls cost what the catalogue's size makes them, whatever is asked (a page of
-- 50,000 slugs: 0.35-0.45 s at 200,000 products on 2 shared cores, later pages the most).
-- PostgREST applies a called function's own statement_timeout to its request: they keep the 3 s
-- they had, so a large catalogue's sitemap stays servable while every other anonymous statement
-- has 1 s.
create or replace function public.sitemap_summary()
returns jsonb
language sql
stable
security invoker
set search_path = ''
set statement_timeout = '3s'
as $$
  select listing.sitemap_summary();
$$;
comment on function public.sitemap_summary() is
  'How many product pages the sitemap lists and when the newest changed.';

create or replace function public.sitemap_products(p_page integer)
returns jsonb
language sql
stable
security invoker
set search_path = ''
set statement_timeout = '3s'
as $$
  -- One JSON array ([[slug, updated_at], …]) rather than rows: PostgREST caps a set at its
  -- max-rows (1,000), a single value it does not.
  select listing.sitemap_products(p_page);
$$;
comment on function public.sitemap_products(integer) is
  'One sitemap file of product pages as [[slug, updated_at], …] (50,000 a page), in slug order.';

revoke execute on function public.sitemap_summary(), public.sitemap_products(integer) from public;
grant execute on function public.sitemap_summary(), public.sitemap_products(integer)
  to anon, authenticated, service_role;

-- Old names of renamed categories (issue 17): a shared `/?cat=Hockey` link keeps working after
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

-- 1. The table reads: admins only.

revoke select on table public.products from anon;
create policy "Admins read products" on public.products for select to authenticated
  using ((select private.is_admin()));

revoke select on table public.product_slug_history from anon;

alter policy "Old slugs are readable where their product is" on public.product_slug_history
  to authenticated;
