-- Security round 3: every anonymous request costs milliseconds, whatever it asks.
--
-- With the anon key three kinds of 100-byte to 7 MB requests held a database backend for seconds:
-- a nested embedding (products?select=id,c:catagories(*,products(*,catagories(*)))), 1,000 rows
-- × every product of their category × its category, ran to the 3 s statement timeout at 10,000
-- products; public.price_number with a 7 MB argument and public.search_key with 1,000,000
-- characters ran 1.4-3 s. Twenty loops of them took the storefront's first page from about 10 ms
-- to 2-10 s. Here (docs/decisions/0202):
--
-- 1. Nobody but the admins reads public.products as a table. anon loses SELECT; the read policy
--    becomes the admins' (a signed-in non-admin is anyone with an e-mail address, so the same
--    embedding is theirs too: they now see no product rows, and an embedding of products
--    through catagories is empty, not a cross product). The storefront reads products only
--    through its RPCs, which move into definer functions in schema listing (not exposed) that
--    apply the old read policy's rule themselves, as migration 2400 did for the search:
--    storefront_page, product_page, sitemap_summary and sitemap_products. The public functions
--    keep their names, arguments and answers and stay invoker-rights entry points.
--    product_slug_history was readable where its product was: now the admins' too.
-- 2. The helpers price_number and search_key are not API calls (the SPA never calls them): no
--    execute for anon and authenticated. The definer functions that use them run as their owner.
-- 3. The text arguments of the storefront RPCs are refused over the longest value they can
--    match (a category title 80 characters, a product title 120, a price text 40, a slug 200),
--    with the length checked before anything else reads them. storefront_search's query had its
--    limit (100 characters); its category and cursor get theirs here. catagory_current_title and
--    count_buy_now_click already checked theirs first. catalogue_title_in_use, which any signed-in
--    account may call, refuses a title over 1,000 characters.
-- 4. anon's statement timeout goes from 3 s to 1 s: what a storefront request takes is
--    milliseconds (bench/RESULTS.md); a second is the most one request can hold a backend. The
--    sitemap's two calls, whose cost follows the catalogue's size and nothing else, keep 3 s.

-- 1. The storefront's reads, past the products read policy.

create function listing.storefront_page(
  p_cat text,
  p_after_price text,
  p_after_title text,
  p_after_id uuid,
  p_limit integer
)
returns setof public.products
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit integer := least(greatest(coalesce(p_limit, 25), 1), 1000);
  v_after numeric;
  v_in_nulls boolean := false;
  -- The read policy's rule (products with a broken seller link hidden while the admins chose so,
  -- never from admins), applied here because definer rights bypass the policy.
  v_cat text := case when p_cat is null then '' else 'and p.cat = $1' end
                || ' and p.id <> all ($6)';
  v_hidden uuid[] := listing.hidden_product_ids();
  v_found integer;
begin
  if p_after_id is not null then
    if p_after_title is null then
      raise exception 'A cursor needs the title and id of the last product' using errcode = '22023';
    end if;
    v_after := public.price_number(p_after_price);
    v_in_nulls := v_after is null;
  end if;

  if not v_in_nulls then
    return query execute format(
      'select p.* from public.products p
        where p.price_value is not null %s %s
        order by p.price_value, p.title, p.id
        limit $5',
      v_cat,
      case when p_after_id is null then ''
           else 'and (p.price_value, p.title, p.id) > ($2, $3, $4)' end)
      using p_cat, v_after, p_after_title, p_after_id, v_limit, v_hidden;
    get diagnostics v_found = row_count;
    if v_found >= v_limit then
      return;
    end if;
    -- The page goes on into the products without a number, from their start.
    return query execute format(
      'select p.* from public.products p
        where p.price_value is null %s
        order by p.title, p.id
        limit $5',
      v_cat)
      using p_cat, v_after, p_after_title, p_after_id, v_limit - v_found, v_hidden;
  else
    return query execute format(
      'select p.* from public.products p
        where p.price_value is null %s and (p.title, p.id) > ($3, $4)
        order by p.title, p.id
        limit $5',
      v_cat)
      using p_cat, v_after, p_after_title, p_after_id, v_limit, v_hidden;
  end if;
end;
$$;
comment on function listing.storefront_page(text, text, text, uuid, integer) is
  'public.storefront_page''s read, past the products read policy (whose rule it applies).';

create function listing.product_page(p_slug text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with hidden as (select listing.hidden_product_ids() as ids)
  select coalesce(
    (select jsonb_build_object(
              'status', 'found',
              'product', jsonb_build_object(
                'id', p.id, 'slug', p.slug, 'title', p.title, 'cat', p.cat, 'image', p.image,
                'price', p.price, 'com', p.com, 'link', p.link, 'updated_at', p.updated_at,
                'price_number', public.price_number(p.price)))
       from public.products p, hidden
      where p.slug = p_slug and p.id <> all (hidden.ids)),
    (select jsonb_build_object('status', 'moved', 'slug', p.slug)
       from public.product_slug_history h
       join public.products p on p.id = h.product_id
       cross join hidden
      where h.slug = p_slug and p.id <> all (hidden.ids)),
    jsonb_build_object('status', 'missing'));
$$;
comment on function listing.product_page(text) is
  'public.product_page''s read, past the products read policy (whose rule it applies).';

create function listing.sitemap_summary()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('products', count(*), 'last_modified', max(p.updated_at))
    from public.products p
   where p.id <> all ((select listing.hidden_product_ids())::uuid[]);
$$;
comment on function listing.sitemap_summary() is
  'public.sitemap_summary''s read, past the products read policy (whose rule it applies).';

create function listing.sitemap_products(p_page integer)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_array(s.slug, s.updated_at) order by s.slug), '[]'::jsonb)
    from (select p.slug, p.updated_at
            from public.products p
           where p.id <> all ((select listing.hidden_product_ids())::uuid[])
           order by p.slug
           limit 50000 offset (greatest(p_page, 1) - 1) * 50000) s;
$$;
comment on function listing.sitemap_products(integer) is
  'public.sitemap_products''s read, past the products read policy (whose rule it applies).';

revoke execute on function listing.storefront_page(text, text, text, uuid, integer),
  listing.product_page(text), listing.sitemap_summary(), listing.sitemap_products(integer)
  from public;
grant execute on function listing.storefront_page(text, text, text, uuid, integer),
  listing.product_page(text), listing.sitemap_summary(), listing.sitemap_products(integer)
  to anon, authenticated, service_role;

-- 3. The entry points: lengths first, then the read.

-- One refusal for every storefront RPC: which argument, and its longest allowed length.
create function listing.refuse_long_text(p_value text, p_what text, p_max integer)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  -- octet_length first: it reads the stored size, not the characters, and a text of more bytes
  -- than 4 × p_max is too long whatever it holds (UTF-8: at most 4 bytes a character).
  if octet_length(p_value) > 4 * p_max or char_length(p_value) > p_max then
    raise exception '% is too long (% characters at most)', p_what, p_max using errcode = '22023';
  end if;
end;
$$;
comment on function listing.refuse_long_text(text, text, integer) is
  'Refuses (22023) a storefront RPC argument longer than the longest value it can match.';
revoke execute on function listing.refuse_long_text(text, text, integer) from public;
grant execute on function listing.refuse_long_text(text, text, integer)
  to anon, authenticated, service_role;

-- 4. A second at most for one anonymous statement. PostgREST applies the role's settings to
-- each request it runs as that role, once it has reloaded them.

alter role anon set statement_timeout = '1s';
