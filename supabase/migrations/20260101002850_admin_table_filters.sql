-- The admin table's filter and sort with both of this release's additions (written by
-- `npm run db:diff -- admin_table_filters` from supabase/schemas/050_admin_table.sql, decision 0220):
-- …2820 taught them the stale-price filter and the "Last price check" sort (REQ-OFF-3), …2830 the
-- link-triage states (failing, blocked; REQ-OFF-6). Each of the two replaced both functions from
-- its own starting point, so after both the sort would lack price_checked; this defines them once
-- with everything, as the schema file does.

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.admin_product_filter(p_query jsonb, OUT where_sql text, OUT cat text, OUT search_key text, OUT search_like text)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION private.admin_product_order(p_query jsonb)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
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
$function$
;
