-- REQ-FIND-1: the storefront search of a rare word answered from the trigram index at any size.
--
-- public.storefront_search ran with the caller's rights, so the products read policy applied to
-- it. While a row-level policy applies, Postgres evaluates a condition whose operator is not
-- leakproof only after the policy, never inside an index scan, and the search's LIKE is not
-- leakproof: a search for a word few products hold ("butyl", a serial number, a typo of either)
-- read every product. Measured as anon at 1,000,000 products: 1,180-1,490 ms a query, against
-- 4 ms with the policy out of the way (the same plan the admin table met: migration 2200).
--
-- The query moves into a definer function in schema listing (anon may reach it, the API does not
-- expose it). Its plans are those of migration 1900; the one addition is the read policy's rule,
-- applied by the function itself: the same listing.hidden_product_ids() the policy calls, once
-- per search, as one more condition on every plan. public.storefront_search keeps
-- its name, arguments and answers, and stays an invoker-rights entry point.
-- How the plans are chosen: migration 1900 and docs/decisions/0140.

comment on schema listing is
  'Storefront reads for every reader (anon included), past the products read policy, which they '
  'apply themselves; not exposed.';

create function listing.storefront_search(
  p_query text default null,
  p_cat text default null,
  p_sort text default 'price-asc',
  p_after_price text default null,
  p_after_title text default null,
  p_after_created timestamptz default null,
  p_after_id uuid default null,
  p_limit integer default 25
)
returns setof public.products
language plpgsql
stable
security definer
set search_path = ''
-- Every plan reads indexes; a sequential scan of the catalogue is never the better one here.
set enable_seqscan = off
as $$
declare
  c_common constant bigint := 5000;
  c_walk constant integer := 10000;
  v_limit integer := least(greatest(coalesce(p_limit, 25), 1), 1000);
  v_sort text := coalesce(nullif(p_sort, ''), 'price-asc');
  -- The read policy's rule, applied here because definer rights bypass the policy: products
  -- with a broken seller link are hidden while the admins chose so (never from admins).
  v_hidden uuid[] := listing.hidden_product_ids();
  v_cat_sql text := case when nullif(p_cat, '') is null then 'true' else 'p.cat = $1' end
                    || ' and p.id <> all ($8)';
  v_words text[];
  v_word text;
  v_alts text[];
  v_term text;
  v_patterns text[] := '{}';
  v_terms text[] := '{}';
  v_match text := '';
  v_est bigint;
  v_word_est bigint;
  v_plan text;
  v_rows public.products[];
  v_after numeric;
  v_cmp text := case when coalesce(p_sort, '') = 'price-desc' then '<' else '>' end;
  v_dir text := case when coalesce(p_sort, '') = 'price-desc' then 'desc' else 'asc' end;
  v_branches text[][];
  v_branch integer;
  v_part public.products[];
begin
  if char_length(coalesce(p_query, '')) > 100 then
    raise exception 'Search text is too long (100 characters at most)' using errcode = '22023';
  end if;
  if v_sort not in ('price-asc', 'price-desc', 'newest') then
    raise exception 'Unknown sort "%": use price-asc, price-desc or newest', left(v_sort, 40)
      using errcode = '22023';
  end if;
  if p_after_id is not null then
    if v_sort = 'newest' and p_after_created is null then
      raise exception 'A newest-first cursor needs the created_at and id of the last product'
        using errcode = '22023';
    elsif v_sort <> 'newest' and p_after_title is null then
      raise exception 'A price cursor needs the price, title and id of the last product'
        using errcode = '22023';
    end if;
  end if;

  -- The query's words, folded like search_text, each once, in the order typed.
  select array_agg(w order by first_at) into v_words
    from (select w, min(o) as first_at
            from regexp_split_to_table(coalesce(public.search_key(p_query), ''), '[^[:alnum:]]+')
                 with ordinality as t(w, o)
           where char_length(w) >= 3
           group by w) as q;

  v_plan := 'all';
  if v_words is not null then
    v_plan := 'rare';
    foreach v_word in array v_words loop
      v_alts := array[v_word];
      v_word_est := null;
      -- Serial numbers and other digit-only words are not in the list: no estimate, no typo.
      if v_word ~ '[[:alpha:]]' then
        select coalesce(sum(c.occurrences), 0) into v_word_est
          from public.catalogue_words c where c.word like '%' || v_word || '%';
        if v_word_est = 0 then
          -- No product holds it: a typo. The catalogue's closest words (pg_trgm similarity, at
          -- most 3) stand in for it.
          select coalesce(array_agg(c.word order by c.score desc, c.word), v_alts),
                 coalesce(sum(c.occurrences), 0)
            into v_alts, v_word_est
            from (select w.word, w.occurrences, extensions.similarity(w.word, v_word) as score
                    from public.catalogue_words w
                   where w.word operator(extensions.%) v_word
                   order by score desc, w.word
                   limit 3) as c;
          if v_word_est = 0 then
            return;
          end if;
        end if;
        v_est := least(coalesce(v_est, v_word_est), v_word_est);
      end if;
      select '(' || string_agg(format('#like $6[%s]', cardinality(v_patterns) + o), ' or ') || ')'
        into v_term
        from unnest(v_alts) with ordinality as a(alt, o);
      v_terms := v_terms || v_term;
      v_patterns := v_patterns || array(select '%' || a || '%' from unnest(v_alts) as a);
    end loop;
    v_match := ' and ' || array_to_string(v_terms, ' and ');
    if v_est >= c_common then
      v_plan := 'walk';
    end if;
  end if;

  -- The order's ranges, each one index range: [condition, order by]. A price order is the prices
  -- with a number (from the cursor) and then those without (by title), as in storefront_page.
  if v_sort = 'newest' then
    v_branches := array[[
      case when p_after_id is null then 'true' else '(p.created_at, p.id) < ($4, $5)' end,
      'p.created_at desc, p.id desc']];
  else
    v_after := public.price_number(p_after_price);
    if p_after_id is not null and v_after is null then
      v_branches := array[[
        format('p.price_value is null and (p.title, p.id) %s ($3, $5)', v_cmp),
        format('p.title %1$s, p.id %1$s', v_dir)]];
    else
      v_branches := array[
        [case when p_after_id is null then 'p.price_value is not null'
              else format('p.price_value is not null and (p.price_value, p.title, p.id) %s ($2, $3, $5)',
                          v_cmp) end,
         format('p.price_value %1$s, p.title %1$s, p.id %1$s', v_dir)],
        ['p.price_value is null', format('p.title %1$s, p.id %1$s', v_dir)]];
    end if;
  end if;

  loop
    v_rows := '{}';
    for v_branch in 1 .. array_length(v_branches, 1) loop
      exit when cardinality(v_rows) >= v_limit;
      execute format(
        case v_plan
          when 'all' then
            'select array(select row(p.*)::public.products from public.products p
                           where %1$s and %2$s order by %3$s limit $7)'
          when 'rare' then
            'select array(select row(p.*)::public.products
                            from (select p.* from public.products p where %1$s %4$s offset 0) as p
                           where %2$s order by %3$s limit $7)'
          else
            'select array(select row(p.*)::public.products
                            from (select p.* from public.products p where %1$s and %2$s
                                   order by %3$s limit %5$s) as p
                           where true %6$s order by %3$s limit $7)'
        end,
        v_cat_sql, v_branches[v_branch][1], v_branches[v_branch][2],
        replace(v_match, '#', 'p.search_text '), c_walk,
        replace(v_match, '#', '(p.search_text || '''') '))
        into v_part
        using nullif(p_cat, ''), v_after, p_after_title, p_after_created, p_after_id, v_patterns,
              v_limit - cardinality(v_rows), v_hidden;
      v_rows := v_rows || v_part;
    end loop;
    -- A walk that did not fill the page may have stopped short of matches further on.
    exit when v_plan <> 'walk' or cardinality(v_rows) >= v_limit;
    v_plan := 'rare';
  end loop;
  return query select * from unnest(v_rows);
end;
$$;
comment on function listing.storefront_search(text, text, text, text, text, timestamptz, uuid, integer) is
  'public.storefront_search''s read, past the products read policy (whose rule it applies).';
revoke execute on function listing.storefront_search(text, text, text, text, text, timestamptz, uuid, integer)
  from public;
grant execute on function listing.storefront_search(text, text, text, text, text, timestamptz, uuid, integer)
  to anon, authenticated, service_role;

create or replace function public.storefront_search(
  p_query text default null,
  p_cat text default null,
  p_sort text default 'price-asc',
  p_after_price text default null,
  p_after_title text default null,
  p_after_created timestamptz default null,
  p_after_id uuid default null,
  p_limit integer default 25
)
returns setof public.products
language sql
stable
security invoker
set search_path = ''
as $$
  select * from listing.storefront_search(p_query, p_cat, p_sort, p_after_price, p_after_title,
                                          p_after_created, p_after_id, p_limit);
$$;
