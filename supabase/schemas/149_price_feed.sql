-- Price-drop alerts without accounts (REQ-OFF-5, docs/decisions/0232): every product page has an
-- Atom feed of its price drops at /p/<slug>/prices.atom, served by the host's function
-- (src/host/priceFeed.ts). A feed reader polls it; the store learns nothing about who follows.
--
-- - A drop is a row of public.offer_price_history whose price is lower than the row before it
--   of the same offer at the same seller (an offer's first row is its creation, not a drop).
--   A price that comes back after a row without one (the offer lost its price) is not a drop.
--   Per-offer drops, not "the product's lowest price fell": history rows are append-only, so an
--   entry never changes once written and its id (the history row's) stays stable; a lowest-price
--   series would be rewritten whenever an offer is removed (its history goes with it).
-- - The history is for admins (its RLS); this definer function reads it for everyone, in a
--   schema the API does not expose (listing, as the other storefront reads), and applies the
--   storefront's rule itself: a product the storefront hides (listing.hidden_product_ids) or an
--   unknown id gives no rows. It returns prices, dates and seller names only: nothing about any
--   person.
-- - Newest first, at most 100 (default 50): a feed carries recent entries, readers keep the rest.

create function listing.product_price_drops(p_product_id uuid, p_limit integer)
returns table (
  history_id bigint,
  offer_id uuid,
  seller_name text,
  price_gbp numeric,
  previous_gbp numeric,
  changed_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select d.id, d.offer_id, s.name, d.price_gbp, d.previous_gbp, d.changed_at
    from (select h.id, h.offer_id, h.seller_id, h.price_gbp, h.changed_at,
                 lag(h.price_gbp) over (partition by h.offer_id, h.seller_id
                                        order by h.changed_at, h.id) as previous_gbp
            from public.offer_price_history h
           where h.product_id = p_product_id
             and p_product_id <> all ((select listing.hidden_product_ids())::uuid[])) d
    join public.sellers s on s.id = d.seller_id
   where d.previous_gbp is not null and d.price_gbp < d.previous_gbp
   order by d.changed_at desc, d.id desc
   limit least(greatest(coalesce(p_limit, 50), 1), 100);
$$;
comment on function listing.product_price_drops(uuid, integer) is
  'public.product_price_drops''s read, past the history''s admin-only policy (hidden products: none).';
revoke execute on function listing.product_price_drops(uuid, integer) from public;
grant execute on function listing.product_price_drops(uuid, integer)
  to anon, authenticated, service_role;

-- The API's entry point (invoker rights; the definer part stays out of the exposed schema).
create function public.product_price_drops(p_product_id uuid, p_limit integer default 50)
returns table (
  history_id bigint,
  offer_id uuid,
  seller_name text,
  price_gbp numeric,
  previous_gbp numeric,
  changed_at timestamptz
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from listing.product_price_drops(p_product_id, p_limit);
$$;
comment on function public.product_price_drops(uuid, integer) is
  'A product''s price drops (an offer''s price lower than its previous one), newest first: the Atom feed''s entries.';
revoke execute on function public.product_price_drops(uuid, integer) from public;
grant execute on function public.product_price_drops(uuid, integer)
  to anon, authenticated, service_role;
