-- Storefront paging by key (cursor) instead of offset: page 4,000 cost as much as page 1.
-- The store's order (src/lib/storeOrder.ts) is price_value asc nulls last, title, id. A cursor is
-- the last product shown: its price text, title and id. PostgREST filters cannot say "after this
-- row" in that order (a row comparison, and a null region after the numbers), so the page is an
-- RPC. Why keyset and why the cursor carries the price text: docs/decisions/0090.

-- The number in a price, exactly as the generated column products.price_value computes it (the
-- expression is repeated because a generated column cannot call a user function defined later;
-- tests/integration/storefront-cursor.test.ts checks that both agree on every product). In public
-- because storefront_page runs as the visitor (anon), who has no access to schema private; it is
-- a pure function of its argument and reveals nothing.
create function public.price_number(p_price text)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select (regexp_substr(regexp_replace(p_price, '([0-9]),(?=[0-9]{3})', '\1', 'g'),
                        '[0-9]+(\.[0-9]+)?|\.[0-9]+'))::numeric;
$$;
comment on function public.price_number(text) is
  'The first number in a price text (NULL if none): the same value as products.price_value.';
revoke execute on function public.price_number(text) from public;
grant execute on function public.price_number(text) to anon, authenticated, service_role;

-- One page of the catalogue (or one category) after a cursor, in the store's order. Invoker
-- rights: the caller's RLS applies (everyone reads products). Each branch is one index range
-- scan: products_price_order_idx, or products_cat_price_order_idx with a category, for the
-- numbers; then the products without a number (price_value is null) from the start of that range,
-- by the two partial indexes below (the full indexes find that range but not in title order, so
-- a deep page among many number-less prices would sort them all).
-- Dynamic SQL so every call is planned with its own values (no generic plan that has to serve
-- both "with category" and "without").
create function public.storefront_page(
  p_cat text default null,
  p_after_price text default null,
  p_after_title text default null,
  p_after_id uuid default null,
  p_limit integer default 25
)
returns setof public.products
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  v_limit integer := least(greatest(coalesce(p_limit, 25), 1), 1000);
  v_after numeric;
  v_in_nulls boolean := false;
  v_cat text := case when p_cat is null then '' else 'and p.cat = $1' end;
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
      using p_cat, v_after, p_after_title, p_after_id, v_limit;
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
      using p_cat, v_after, p_after_title, p_after_id, v_limit - v_found;
  else
    return query execute format(
      'select p.* from public.products p
        where p.price_value is null %s and (p.title, p.id) > ($3, $4)
        order by p.title, p.id
        limit $5',
      v_cat)
      using p_cat, v_after, p_after_title, p_after_id, v_limit;
  end if;
end;
$$;
create index products_no_price_order_idx
  on public.products (title, id) where price_value is null;
create index products_cat_no_price_order_idx
  on public.products (cat, title, id) where price_value is null;

comment on function public.storefront_page(text, text, text, uuid, integer) is
  'Storefront page after a cursor (last product''s price, title, id) in the store''s order.';
revoke execute on function public.storefront_page(text, text, text, uuid, integer) from public;
grant execute on function public.storefront_page(text, text, text, uuid, integer)
  to anon, authenticated, service_role;
