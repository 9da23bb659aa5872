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
