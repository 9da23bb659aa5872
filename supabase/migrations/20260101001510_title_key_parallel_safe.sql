-- The look-alike title functions (migration 0720) are pure, but were not marked PARALLEL SAFE, so
-- building products_title_folded_key (which calls private.title_key for every row, ~0.4 ms each)
-- could use only one core: the biggest part of `npm run seed:bulk -- 1000000`. Marking them
-- parallel safe changes no result (same immutable functions); index builds and big scans may now
-- use parallel workers.
alter function private.normalise_title(text) parallel safe;
alter function private.title_key(text) parallel safe;
alter function public.price_number(text) parallel safe;
