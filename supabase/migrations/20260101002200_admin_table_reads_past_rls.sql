-- REQ-SCALE-1: the admin table's search, answered without reading the whole table.
--
-- public.admin_product_page and admin_product_count ran with the caller's rights, so the products
-- read policy applied to them. While a row-level policy applies, Postgres evaluates a condition
-- whose operator is not leakproof only after the policy, never inside an index scan, and the
-- search's operators (pg_trgm's %>, ILIKE) are not leakproof: every admin search read every
-- product. Measured through the API at 100,000 products: 60-150 ms a search, against 11-27 ms
-- with the policy out of the way (and 0.3 ms for the query alone).
--
-- The policy hides nothing from admins (listing.hidden_product_ids() is empty for them), so the
-- reads move into definer functions, behind the same admin check, in a schema of their own: a
-- definer function must not sit in the API's exposed schema (db:lint), and only signed-in users
-- may reach this one. The public functions keep their names, arguments and answers, and stay
-- invoker-rights entry points.

-- Loads pg_trgm's library in this session, so that its settings are known when the functions
-- below name one (SET pg_trgm.word_similarity_threshold); otherwise a non-superuser (hosted
-- Supabase's postgres) gets "permission denied to set parameter".
select extensions.similarity('', '');

create schema admin_table;
revoke all on schema admin_table from public;
grant usage on schema admin_table to authenticated;

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

create or replace function public.admin_product_count(p_query jsonb)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select admin_table.product_count(p_query);
$$;
