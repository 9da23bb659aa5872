-- Product pages and old names: slugs and their history, product_page, the sitemap, and the
-- categories' old titles. The catalogue tables themselves: 020_catalogue.sql.

-- A page per product at /p/<slug> (REQ-FIND-3) and a sitemap of them (REQ-FIND-6).
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
