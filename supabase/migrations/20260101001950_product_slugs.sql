-- A page per product at /p/<slug> (REQ-FIND-3, REQ-FIND-4) and a sitemap of them (REQ-FIND-6).
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

alter table public.products add column slug text;
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

-- The activity log records what an admin typed: the slug is the database's bookkeeping, like
-- updated_at (same function as in 20260101001300_activity_log.sql, with slug added).
create or replace function private.activity_fields(p_row jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select p_row - array['id', 'created_at', 'updated_at', 'price_value', 'search_text', 'slug'];
$$;

-- Existing rows, set-based (one pass, fine at 1,000,000 rows): the oldest product of a base
-- keeps the base, the others get -2, -3 … The row triggers (activity log, updated_at) are off
-- for this one statement: filling a new column is not an admin's change.
alter table public.products disable trigger user;
with numbered as (
  select b.id, b.base, row_number() over (partition by b.base order by b.created_at, b.id) as n
    from (select p.id, p.created_at, private.slug_base(p.title) as base from public.products p) b
)
update public.products p
   set slug = case when numbered.n = 1 then numbered.base else numbered.base || '-' || numbered.n end
  from numbered
 where numbered.id = p.id;

-- A suffixed slug can equal another title's own base ("Ball" twice and "Ball 2"): the suffixed
-- one takes the next free slug (rare; row by row).
do $$
declare
  r record;
begin
  for r in
    select p.id, p.title from public.products p
     where p.slug <> private.slug_base(p.title)
       and exists (select 1 from public.products q where q.slug = p.slug and q.id <> p.id)
  loop
    update public.products p set slug = private.free_product_slug(r.title, r.id) where p.id = r.id;
  end loop;
end;
$$;
alter table public.products enable trigger user;

alter table public.products alter column slug set not null;
-- The trigger always replaces it; the default tells API clients (and the generated types) that
-- an insert need not send one.
alter table public.products alter column slug set default '';
alter table public.products add constraint products_slug_key unique (slug);

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

-- One product page: {"status":"found","product":{…}}, {"status":"moved","slug":"<current>"} or
-- {"status":"missing"}. price_number is the Offer's price (null: no number in the price text).
create function public.product_page(p_slug text)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(
    (select jsonb_build_object(
              'status', 'found',
              'product', jsonb_build_object(
                'id', p.id, 'slug', p.slug, 'title', p.title, 'cat', p.cat, 'image', p.image,
                'price', p.price, 'com', p.com, 'link', p.link, 'updated_at', p.updated_at,
                'price_number', public.price_number(p.price)))
       from public.products p
      where p.slug = p_slug),
    (select jsonb_build_object('status', 'moved', 'slug', p.slug)
       from public.product_slug_history h
       join public.products p on p.id = h.product_id
      where h.slug = p_slug),
    jsonb_build_object('status', 'missing'));
$$;
comment on function public.product_page(text) is
  'A product page by slug: found (the product), moved (the current slug of a renamed one) or missing.';
revoke execute on function public.product_page(text) from public;
grant execute on function public.product_page(text) to anon, authenticated, service_role;

-- The sitemap: how many product pages and when the newest changed (the index's lastmod), then
-- one file's worth (50,000, the protocol's limit per file) in slug order.
create function public.sitemap_summary()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object('products', count(*), 'last_modified', max(p.updated_at))
    from public.products p;
$$;
comment on function public.sitemap_summary() is
  'How many product pages the sitemap lists and when the newest changed.';

create function public.sitemap_products(p_page integer)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  -- One JSON array ([[slug, updated_at], …]) rather than rows: PostgREST caps a set at its
  -- max-rows (1,000), a single value it does not.
  select coalesce(jsonb_agg(jsonb_build_array(s.slug, s.updated_at) order by s.slug), '[]'::jsonb)
    from (select p.slug, p.updated_at
            from public.products p
           order by p.slug
           limit 50000 offset (greatest(p_page, 1) - 1) * 50000) s;
$$;
comment on function public.sitemap_products(integer) is
  'One sitemap file of product pages as [[slug, updated_at], …] (50,000 a page), in slug order.';
revoke execute on function public.sitemap_summary(), public.sitemap_products(integer) from public;
grant execute on function public.sitemap_summary(), public.sitemap_products(integer)
  to anon, authenticated, service_role;
