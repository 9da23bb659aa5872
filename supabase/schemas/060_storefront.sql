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

create or replace function public.storefront_page(
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
begin
  perform listing.refuse_long_text(p_cat, 'The category', 80);
  perform listing.refuse_long_text(p_after_price, 'The cursor''s price', 40);
  perform listing.refuse_long_text(p_after_title, 'The cursor''s title', 120);
  return query select * from listing.storefront_page(p_cat, p_after_price, p_after_title,
                                                     p_after_id, p_limit);
end;
$$;
comment on function public.storefront_page(text, text, text, uuid, integer) is
  'Storefront page after a cursor (last product''s price, title, id) in the store''s order.';
revoke execute on function public.storefront_page(text, text, text, uuid, integer) from public;
grant execute on function public.storefront_page(text, text, text, uuid, integer)
  to anon, authenticated, service_role;

alter function public.price_number(text) parallel safe;

-- Storefront search and sort (REQ-FIND-1, REQ-FIND-2; why this shape: docs/decisions/0140).
-- public.storefront_search(query, cat, sort, cursor…, limit): one keyset page of the products that
-- contain every word of the query (title, category and comment; case, accents and look-alikes
-- folded as products.search_text is), in one of three orders: price low to high (the store's
-- order, the default), price high to low, newest. A word nothing contains is replaced by the
-- catalogue's closest words (a small typo: "tenis" finds "tennis"), looked up in
-- public.catalogue_words, a dictionary of the catalogue's words that the database keeps current.
-- Invoker rights: the visitor's RLS on public.products applies to every row returned.

-- The fold of private.title_key (normalised, accents removed, lower case, look-alike Cyrillic and
-- Greek read as Latin), repeated here because storefront_search runs as anon, who has no access
-- to schema private. Pure; tests/integration/storefront-search.test.ts checks it gives
-- products.search_text for every product.
create function public.search_key(p_text text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select translate(
    lower(
      regexp_replace(
        normalize(
          btrim(
            regexp_replace(
              regexp_replace(
                normalize(p_text, nfkc),
                '[\u00ad\u034f\u061c\u115f\u1160\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f'
                '\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U000e0000-\U000e007f'
                '\u0001-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]',
                '', 'g'),
              '[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u2800]+',
              ' ', 'g'),
            ' '),
          nfd),
        '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]',
        '', 'g')),
    'авеѕіјкмнорстухԁԛԝӏαβεζηικμνορτυχ',
    'abesijkmhopctyxdqwlabezhikmnoptyx');
$$;
comment on function public.search_key(text) is
  'Search fold (same as private.title_key): normalised, no accents, lower case, look-alikes read as Latin.';
revoke execute on function public.search_key(text) from public;
grant execute on function public.search_key(text) to anon, authenticated, service_role;

-- The words a search matches on: runs of letters and digits, 3 to 40 characters, with a letter
-- (shorter ones carry no trigram for the index; serial numbers are not words to correct to).
-- Every occurrence (no DISTINCT): the list counts occurrences, which is all the typo correction
-- needs (a word is in the list while its count is above 0), and lets the rebuild below run as one
-- aggregate. catalogue_words_rebuild repeats this expression inline.
create function private.search_words(p_folded text)
returns setof text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select w
    from regexp_split_to_table(p_folded, '[^[:alnum:]]+') as w
   where char_length(w) between 3 and 40 and w ~ '[[:alpha:]]';
$$;
revoke execute on function private.search_words(text) from public, anon, authenticated;

-- The catalogue's words and how often the products hold each (typo correction only). Everyone may
-- read it (the words are in the products everyone reads); only the triggers below write it.
create table public.catalogue_words (
  word text primary key,
  occurrences integer not null constraint catalogue_words_occurrences_check check (occurrences >= 0)
);
comment on table public.catalogue_words is
  'Words of products.search_text (kept by triggers) for storefront search''s typo correction; '
  'read only by listing.storefront_search (definer rights), never through the API.';
alter table public.catalogue_words enable row level security;
revoke all on public.catalogue_words from anon, authenticated;
grant select on public.catalogue_words to anon, authenticated;
create index catalogue_words_trgm_idx
  on public.catalogue_words using gin (word extensions.gin_trgm_ops);

-- Two statements that change the same catalogue words at once (two category renames, each moving
-- its products to the new name) could deadlock: each locked the words' rows of
-- public.catalogue_words in the order of its own join, so one could hold "cat" and wait for
-- "prop" while the other held "prop" and waited for "cat" (CI, property-updates.test.ts: "deadlock
-- detected" on concurrent renames). Now every statement first locks the rows it will change in
-- word order, so the second simply waits for the first. The clean-up of words that reached 0
-- looks only at the words this statement changed (it scanned the whole dictionary).
create or replace function private.catalogue_words_sync()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_words text[];
  v_deltas integer[];
begin
  -- The offer summary's own writes (140_offers.sql) change no searched text.
  if current_setting('offers.summary_write', true) = 'on' then
    return null;
  end if;
  if tg_op = 'INSERT' then
    -- Inserted and updated in word order already (the ORDER BY of the insert's rows).
    insert into public.catalogue_words as c (word, occurrences)
    select w, count(*)::integer from new_rows r, private.search_words(r.search_text) as w
     group by w order by w
    on conflict (word) do update set occurrences = c.occurrences + excluded.occurrences;
    return null;
  end if;

  -- The net change per word, in word order: +1 for each occurrence in the new rows, -1 in the
  -- old ones (a delete has no new rows).
  if tg_op = 'DELETE' then
    select coalesce(array_agg(w order by w), '{}'), coalesce(array_agg(n order by w), '{}')
      into v_words, v_deltas
      from (select w, -count(*)::integer as n
              from old_rows r, private.search_words(r.search_text) as w group by w) as d;
  else
    select coalesce(array_agg(w order by w), '{}'), coalesce(array_agg(n order by w), '{}')
      into v_words, v_deltas
      from (select w, sum(n)::integer as n from (
              select w, 1 as n from new_rows r, private.search_words(r.search_text) as w
              union all
              select w, -1 from old_rows r, private.search_words(r.search_text) as w
            ) as x
             group by w having sum(n) <> 0) as d;
  end if;
  if cardinality(v_words) = 0 then
    return null;
  end if;

  -- Lock the rows this statement changes, in word order, before changing any.
  perform 1 from public.catalogue_words c
   where c.word = any (v_words)
   order by c.word
     for update;
  update public.catalogue_words as c set occurrences = greatest(c.occurrences + d.n, 0)
    from unnest(v_words, v_deltas) as d(w, n)
   where c.word = d.w;
  insert into public.catalogue_words as c (word, occurrences)
  select d.w, d.n from unnest(v_words, v_deltas) as d(w, n)
   where d.n > 0
     and not exists (select 1 from public.catalogue_words e where e.word = d.w)
   order by d.w
  on conflict (word) do update set occurrences = c.occurrences + excluded.occurrences;
  delete from public.catalogue_words c where c.word = any (v_words) and c.occurrences = 0;
  return null;
end;
$$;
revoke execute on function private.catalogue_words_sync() from public, anon, authenticated;

create trigger products_catalogue_words_insert
  after insert on public.products referencing new table as new_rows
  for each statement execute function private.catalogue_words_sync();
create trigger products_catalogue_words_update
  after update on public.products referencing old table as old_rows new table as new_rows
  for each statement execute function private.catalogue_words_sync();
create trigger products_catalogue_words_delete
  after delete on public.products referencing old table as old_rows
  for each statement execute function private.catalogue_words_sync();

-- `where true` on the delete: hosted's safeupdate refuses one without WHERE (decision 0201).
create or replace function private.catalogue_words_rebuild()
returns void
language sql
set search_path = ''
as $$
  delete from public.catalogue_words where true;
  -- private.search_words inline: a function call per product costs more than the split itself.
  insert into public.catalogue_words (word, occurrences)
  select w, count(*)::integer
    from public.products p, regexp_split_to_table(p.search_text, '[^[:alnum:]]+') as w
   where char_length(w) between 3 and 40 and w ~ '[[:alpha:]]'
   group by w;
$$;
revoke execute on function private.catalogue_words_rebuild() from public, anon, authenticated;

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
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform listing.refuse_long_text(p_query, 'Search text', 100);
  perform listing.refuse_long_text(p_cat, 'The category', 80);
  perform listing.refuse_long_text(p_sort, 'The sort', 20);
  perform listing.refuse_long_text(p_after_price, 'The cursor''s price', 40);
  perform listing.refuse_long_text(p_after_title, 'The cursor''s title', 120);
  return query select * from listing.storefront_search(p_query, p_cat, p_sort, p_after_price,
                                                       p_after_title, p_after_created,
                                                       p_after_id, p_limit);
end;
$$;
comment on function public.storefront_search(text, text, text, text, text, timestamptz, uuid, integer) is
  'Storefront page for a search (every word, typos corrected), category and sort (price-asc, price-desc, newest) after a cursor.';
revoke execute on function public.storefront_search(text, text, text, text, text, timestamptz, uuid, integer)
  from public;
grant execute on function public.storefront_search(text, text, text, text, text, timestamptz, uuid, integer)
  to anon, authenticated, service_role;

revoke execute on function private.catalogue_words_sync() from public, anon, authenticated;

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

-- The word list: definer functions only (service_role keeps its rights, as on every table).
revoke all on table public.catalogue_words from anon, authenticated;
create policy catalogue_words_no_api_role on public.catalogue_words
  as restrictive for all to anon, authenticated using (false) with check (false);

-- 2. Helpers that are no API call.

revoke execute on function public.price_number(text), public.search_key(text)
  from anon, authenticated;
