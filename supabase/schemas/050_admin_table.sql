-- The admin Products table is served by the database (REQ-SCALE-1; docs/decisions/0080).
-- Before, the admin area read the whole catalogue into the browser (100 requests and 44 MB of
-- JSON at 100,000 products) to search, sort and page it there. Now:
-- - admin_product_page(query, offset, limit) returns one page of products for a query
--   ({"search", "cat", "sort", "ascending"}), and admin_product_count(query) how many match
--   (exact up to 1,000, then the planner's estimate, so counting stays cheap at any size);
-- - search is case-, accent- and look-alike-insensitive (the same fold as unique titles,
--   private.title_key) over title, category and comment, and tolerates small typos (pg_trgm word
--   similarity), through a trigram index on a stored search key;
-- - catagory_product_counts() gives every category's product count in one aggregate query;
-- - bulk move/delete of selected products and "move the products, then delete the category" run
--   as single set-based statements through RLS and the tables' triggers (admins only).

-- ---------------------------------------------------------------------------------------------
-- The admin table's filter and sort learn link health (the key 'health' in the query).
-- health: 'attention' (anything not ok), 'broken' (confirmed), 'failing' (failed once),
-- 'blocked' (a bot wall refused the checker), 'redirected', 'unreachable' (unreachable or timed
-- out), 'ok', 'unchecked'. Fixed SQL fragments only; unknown values are refused.
-- sort 'health': broken, failing, redirected, blocked, unreachable, timed out, ok, never checked.
-- The key 'prices' (REQ-OFF-3): 'stale' lists products with any offer whose price was confirmed
-- longer ago than store_settings.price_stale_after_days (or never), 'hidden' those past
-- price_hidden_after_days: the admin's list of prices to check with the sellers, whichever offer
-- (the primary's or another's) it is. sort 'price_checked': products.price_checked_at, never
-- confirmed first (ascending), through products_price_checked_order_idx.
-- ---------------------------------------------------------------------------------------------
create or replace function private.admin_product_filter(
  p_query jsonb,
  out where_sql text,
  out cat text,
  out search_key text,
  out search_like text
)
language plpgsql
stable
set search_path = ''
as $$
declare
  v_exact boolean;
  v_health text := nullif(p_query ->> 'health', '');
  v_prices text := nullif(p_query ->> 'prices', '');
begin
  where_sql := 'true';
  cat := nullif(p_query ->> 'cat', '');
  if cat is not null then
    where_sql := where_sql || ' and p.cat = $1';
  end if;
  if v_health is not null then
    where_sql := where_sql || case v_health
      when 'attention' then ' and exists (select 1 from public.link_checks c where c.product_id = p.id and c.status <> ''ok'')'
      when 'broken' then ' and exists (select 1 from public.link_checks c where c.product_id = p.id and c.status = ''broken'')'
      when 'failing' then ' and exists (select 1 from public.link_checks c where c.product_id = p.id and c.status = ''failing'')'
      when 'blocked' then ' and exists (select 1 from public.link_checks c where c.product_id = p.id and c.status = ''blocked'')'
      when 'redirected' then ' and exists (select 1 from public.link_checks c where c.product_id = p.id and c.status = ''redirected'')'
      when 'unreachable' then ' and exists (select 1 from public.link_checks c where c.product_id = p.id and c.status in (''unreachable'', ''timed_out''))'
      when 'ok' then ' and exists (select 1 from public.link_checks c where c.product_id = p.id) and not exists (select 1 from public.link_checks c where c.product_id = p.id and c.status <> ''ok'')'
      when 'unchecked' then ' and not exists (select 1 from public.link_checks c where c.product_id = p.id)'
    end;
    if where_sql is null then
      raise exception 'Unknown link health filter' using errcode = '22023';
    end if;
  end if;
  if v_prices is not null then
    -- The limit is read once per query (an init plan), not per row.
    where_sql := where_sql || case v_prices
      when 'stale' then ' and exists (select 1 from public.offers o where o.product_id = p.id and o.price_gbp is not null and (o.price_confirmed_at is null or o.price_confirmed_at < now() - (select make_interval(days => s.price_stale_after_days) from public.store_settings s)))'
      when 'hidden' then ' and exists (select 1 from public.offers o where o.product_id = p.id and o.price_gbp is not null and (o.price_confirmed_at is null or o.price_confirmed_at < now() - (select make_interval(days => s.price_hidden_after_days) from public.store_settings s)))'
    end;
    if where_sql is null then
      raise exception 'Unknown price filter' using errcode = '22023';
    end if;
  end if;
  search_key := nullif(btrim(private.title_key(coalesce(p_query ->> 'search', ''))), '');
  if search_key is not null then
    if char_length(search_key) > 200 then
      raise exception 'Search text is too long' using errcode = '22023';
    end if;
    search_like := '%' || replace(replace(replace(search_key, '\', '\\'), '%', '\%'), '_', '\_')
                   || '%';
    -- The key as typed if anything contains it; only when nothing does, words close to it
    -- (pg_trgm word similarity, 0.5). Otherwise "bk-500000" would also list thousands of near
    -- serials and bury the one product that has it.
    execute format(
      'select exists (select 1 from public.products p where %s and p.search_text like $3)',
      where_sql)
      into v_exact using cat, search_key, search_like;
    where_sql := where_sql || case when v_exact then ' and p.search_text like $3'
                                   else ' and $2 operator(extensions.<%) p.search_text' end;
  end if;
end;
$$;
revoke execute on function private.admin_product_filter(jsonb) from public, anon;
grant execute on function private.admin_product_filter(jsonb) to authenticated;

create or replace function private.admin_product_order(p_query jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_asc boolean := coalesce((p_query ->> 'ascending')::boolean, true);
  v_order text;
begin
  v_order := case coalesce(p_query ->> 'sort', 'price')
    when 'title' then 'p.title #, p.id #'
    when 'cat' then 'p.cat #, p.price_value # nulls ~, p.title #, p.id #'
    when 'price' then 'p.price_value # nulls last, p.title #, p.id #'
    when 'created_at' then 'p.created_at #, p.id #'
    -- Worst result of the product's link and image first (ascending), never checked last.
    when 'health' then '(select min(case c.status when ''broken'' then 1 when ''failing'' then 2 '
                       'when ''redirected'' then 3 when ''blocked'' then 4 when ''unreachable'' then 5 '
                       'when ''timed_out'' then 6 else 7 end) '
                       'from public.link_checks c where c.product_id = p.id) # nulls last, '
                       'p.title #, p.id #'
    -- Oldest confirmation first (ascending); a price never confirmed is the oldest of all.
    when 'price_checked' then 'p.price_checked_at # nulls ^, p.title #, p.id #'
  end;
  if v_order is null then
    raise exception 'Unknown sort column' using errcode = '22023';
  end if;
  return replace(replace(replace(v_order, '#', case when v_asc then 'asc' else 'desc' end),
                         '~', case when v_asc then 'last' else 'first' end),
                 '^', case when v_asc then 'first' else 'last' end);
end;
$$;
revoke execute on function private.admin_product_order(jsonb) from public, anon;
grant execute on function private.admin_product_order(jsonb) to authenticated;

-- The API's entry points: invoker rights, the same arguments and answers as before.
create or replace function public.admin_product_page(
  p_query jsonb,
  p_offset integer default 0,
  p_limit integer default 10
)
returns setof public.products
language sql
stable
security invoker
set search_path = ''
as $$
  select * from admin_table.product_page(p_query, p_offset, p_limit);
$$;
comment on function public.admin_product_page(jsonb, integer, integer) is
  'Admins only: one page of products matching {"search","cat","sort","ascending"}.';
revoke execute on function public.admin_product_page(jsonb, integer, integer) from public, anon;
grant execute on function public.admin_product_page(jsonb, integer, integer) to authenticated;

create or replace function public.admin_product_count(p_query jsonb)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select admin_table.product_count(p_query);
$$;
comment on function public.admin_product_count(jsonb) is
  'Admins only: {"total", "exact"} for a query; exact up to 1,000, then the planner''s estimate.';
revoke execute on function public.admin_product_count(jsonb) from public, anon;
grant execute on function public.admin_product_count(jsonb) to authenticated;

-- Every category with its number of products: one aggregate over the (cat, ...) index.
create function public.catagory_product_counts()
returns table (cat text, products bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select c.title, coalesce(n.products, 0)
      from public.catagories c
      left join (select p.cat, count(*) as products from public.products p group by p.cat) n
        on n.cat = c.title
     order by c.title;
end;
$$;
comment on function public.catagory_product_counts() is
  'Admins only: each category title with its number of products.';
revoke execute on function public.catagory_product_counts() from public, anon;
grant execute on function public.catagory_product_counts() to authenticated;

-- The admin form's "title in use" question, which any signed-in account may ask: a title of more
-- than 1,000 characters (the form allows 120) is refused before it is folded.
create or replace function public.catalogue_title_in_use(
  p_table text,
  p_title text,
  p_except_id uuid default null
)
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  perform listing.refuse_long_text(p_title, 'The title', 1000);
  -- Titles are public (the storefront lists them), so any signed-in account may ask; the write
  -- itself is what RLS refuses to a non-admin, with the spec's message. A non-admin reads no
  -- product rows (the read policy), so for products the answer is theirs: false.
  if p_table = 'products' then
    return exists (select 1 from public.products p
                    where private.title_key(p.title) = private.title_key(p_title)
                      and p.id is distinct from p_except_id);
  elsif p_table = 'catagories' then
    return exists (select 1 from public.catagories c
                    where private.title_key(c.title) = private.title_key(p_title)
                      and c.id is distinct from p_except_id);
  end if;
  raise exception 'Unknown table' using errcode = '22023';
end;
$$;
comment on function public.catalogue_title_in_use(text, text, uuid) is
  'Whether another product or category already uses a look-alike of this title (titles are public).';
revoke execute on function public.catalogue_title_in_use(text, text, uuid) from public, anon;
grant execute on function public.catalogue_title_in_use(text, text, uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Bulk actions: one statement each, on the tables (RLS and every trigger apply), admins only.
-- ---------------------------------------------------------------------------------------------

create function public.admin_move_products(p_ids uuid[], p_cat text)
returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_moved integer;
begin
  perform private.require_admin();
  if p_ids is null or cardinality(p_ids) not between 1 and 1000 then
    raise exception 'Choose between 1 and 1000 products' using errcode = '22023';
  end if;
  if not exists (select 1 from public.catagories c where c.title = p_cat) then
    raise exception 'Catagory not found' using errcode = '23503';
  end if;
  update public.products p set cat = p_cat
   where p.id = any (p_ids) and p.cat is distinct from p_cat;
  get diagnostics v_moved = row_count;
  return v_moved;
end;
$$;
comment on function public.admin_move_products(uuid[], text) is
  'Admins only: moves the given products to a category; returns how many moved.';
revoke execute on function public.admin_move_products(uuid[], text) from public, anon;
grant execute on function public.admin_move_products(uuid[], text) to authenticated;

create function public.admin_delete_products(p_ids uuid[])
returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_deleted integer;
begin
  perform private.require_admin();
  if p_ids is null or cardinality(p_ids) not between 1 and 1000 then
    raise exception 'Choose between 1 and 1000 products' using errcode = '22023';
  end if;
  delete from public.products p where p.id = any (p_ids);
  get diagnostics v_deleted = row_count;
  return v_deleted;
end;
$$;
comment on function public.admin_delete_products(uuid[]) is
  'Admins only: deletes the given products; returns how many were deleted.';
revoke execute on function public.admin_delete_products(uuid[]) from public, anon;
grant execute on function public.admin_delete_products(uuid[]) to authenticated;

-- Deletes a category after moving its products to p_move_to (null: move nothing, so a category
-- with products is still refused by its before-delete trigger). One transaction: the category row
-- is locked first, so no product can be added to it between the move and the delete. Returns the
-- number of products moved, or null when the category no longer exists.
create function public.admin_delete_catagory(p_id uuid, p_move_to text default null)
returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_title text;
  v_moved integer := 0;
begin
  perform private.require_admin();
  select c.title into v_title from public.catagories c where c.id = p_id for update;
  if not found then
    return null;
  end if;
  if p_move_to is not null then
    if p_move_to = v_title then
      raise exception 'Choose another catagory to move the products to' using errcode = '22023';
    end if;
    if not exists (select 1 from public.catagories c where c.title = p_move_to for key share) then
      raise exception 'Catagory not found' using errcode = '23503';
    end if;
    update public.products p set cat = p_move_to where p.cat = v_title;
    get diagnostics v_moved = row_count;
  end if;
  delete from public.catagories c where c.id = p_id;
  return v_moved;
end;
$$;
comment on function public.admin_delete_catagory(uuid, text) is
  'Admins only: moves a category''s products to another category, then deletes it.';
revoke execute on function public.admin_delete_catagory(uuid, text) from public, anon;
grant execute on function public.admin_delete_catagory(uuid, text) to authenticated;

create function admin_table.product_page(p_query jsonb, p_offset integer, p_limit integer)
returns setof public.products
language plpgsql
stable
security definer
set search_path = ''
-- One wrong letter in an 8-letter word scores 0.56 (pg_trgm's default needs 0.6).
set pg_trgm.word_similarity_threshold = 0.5
as $$
declare
  f record;
begin
  perform private.require_admin();
  if p_offset is null or p_offset < 0 or p_limit is null or p_limit not between 1 and 1000 then
    raise exception 'Offset must be 0 or more and limit between 1 and 1000' using errcode = '22023';
  end if;
  f := private.admin_product_filter(p_query);
  return query execute format(
    'select p.* from public.products p where %s order by %s limit %s offset %s',
    f.where_sql, private.admin_product_order(p_query), p_limit, p_offset)
    using f.cat, f.search_key, f.search_like;
end;
$$;
comment on function admin_table.product_page(jsonb, integer, integer) is
  'Admins only: public.admin_product_page''s read, past the products read policy.';
revoke execute on function admin_table.product_page(jsonb, integer, integer) from public;
grant execute on function admin_table.product_page(jsonb, integer, integer) to authenticated;

-- How many products match: exact up to 1,000 (the first 100 pages), above that the planner's
-- estimate, because an exact count reads every matching row (1,000,000 index entries unfiltered).
create function admin_table.product_count(p_query jsonb)
returns jsonb
language plpgsql
-- volatile: Postgres refuses EXPLAIN (the estimate) inside a stable function.
volatile
security definer
set search_path = ''
set pg_trgm.word_similarity_threshold = 0.5
as $$
declare
  c_exact_up_to constant integer := 1000;
  f record;
  v_count bigint;
  v_plan jsonb;
begin
  perform private.require_admin();
  f := private.admin_product_filter(p_query);
  execute format('select count(*) from (select 1 from public.products p where %s limit %s) s',
                 f.where_sql, c_exact_up_to + 1)
    into v_count using f.cat, f.search_key, f.search_like;
  if v_count <= c_exact_up_to then
    return jsonb_build_object('total', v_count, 'exact', true);
  end if;
  execute format('explain (format json) select 1 from public.products p where %s', f.where_sql)
    into v_plan using f.cat, f.search_key, f.search_like;
  return jsonb_build_object(
    'total', greatest(c_exact_up_to + 1, (v_plan -> 0 -> 'Plan' ->> 'Plan Rows')::bigint),
    'exact', false);
end;
$$;
comment on function admin_table.product_count(jsonb) is
  'Admins only: public.admin_product_count''s count, past the products read policy.';
revoke execute on function admin_table.product_count(jsonb) from public;
grant execute on function admin_table.product_count(jsonb) to authenticated;
