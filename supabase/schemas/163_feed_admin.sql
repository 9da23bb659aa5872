-- Feeds: the admin RPCs (REQ-FEED-5) and the public wrappers of every feed RPC. Wrappers are
-- security invoker; the work is done by the private definer functions, which check who calls:
-- admins for the admin ones (42501 otherwise), service_role only for the sync ones (grants).

create function private.feed_admin_only()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not coalesce(private.is_admin(), false) then
    raise exception 'Only admins can manage feeds' using errcode = '42501';
  end if;
end;
$$;
revoke execute on function private.feed_admin_only() from public, anon, authenticated;

create function private.feed_run_request(p_source_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_src public.feed_sources;
  v_id uuid;
begin
  perform private.feed_admin_only();
  select * into v_src from public.feed_sources s where s.id = p_source_id for update;
  if not found then
    raise exception 'This feed does not exist' using errcode = '22023', hint = 'source_id';
  end if;
  if v_src.origin = 'upload' and v_src.upload_path is null then
    raise exception 'Upload a feed file first' using errcode = '22023', hint = 'upload_path';
  end if;
  if exists (select 1 from public.feed_runs r
              where r.source_id = p_source_id
                and r.status in ('queued', 'fetching', 'staged', 'applying')) then
    raise exception 'This feed is already being read' using errcode = '55000';
  end if;
  begin
    insert into public.feed_runs (source_id, trigger, requested_by, status)
    values (p_source_id, case when v_src.origin = 'upload' then 'upload' else 'manual' end,
            auth.uid(), 'queued')
    returning id into v_id;
  exception when unique_violation then
    raise exception 'This feed is already being read' using errcode = '55000';
  end;
  return v_id;
end;
$$;
revoke execute on function private.feed_run_request(uuid) from public, anon;
grant execute on function private.feed_run_request(uuid) to authenticated;

create function private.feed_unmatched_set(p_ids uuid[], p_from text, p_to text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  perform private.feed_admin_only();
  update public.feed_unmatched u set status = p_to
   where u.id = any (coalesce(p_ids, '{}')) and u.status = p_from;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke execute on function private.feed_unmatched_set(uuid[], text, text)
  from public, anon, authenticated;

create function private.feed_unmatched_ignore(p_ids uuid[])
returns integer
language sql
security definer
set search_path = ''
as $$
  select private.feed_unmatched_set(p_ids, 'open', 'ignored');
$$;
revoke execute on function private.feed_unmatched_ignore(uuid[]) from public, anon;
grant execute on function private.feed_unmatched_ignore(uuid[]) to authenticated;

create function private.feed_unmatched_reopen(p_ids uuid[])
returns integer
language sql
security definer
set search_path = ''
as $$
  select private.feed_unmatched_set(p_ids, 'ignored', 'open');
$$;
revoke execute on function private.feed_unmatched_reopen(uuid[]) from public, anon;
grant execute on function private.feed_unmatched_reopen(uuid[]) to authenticated;

-- A product from an unmatched row, through public.products (every product rule, trigger and
-- log applies), then the feed seller's offer for it.
create function private.feed_unmatched_create_product(p_id uuid, p_cat text, p_com text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.feed_unmatched;
  v_src public.feed_sources;
  v_product uuid;
  v_price numeric;
  v_spid text;
begin
  perform private.feed_admin_only();
  select * into v_row from public.feed_unmatched u where u.id = p_id for update;
  if not found then
    raise exception 'This feed row does not exist' using errcode = '22023', hint = 'id';
  end if;
  if v_row.status = 'created' then
    raise exception 'A product was made from this row already' using errcode = '55000', hint = 'id';
  end if;
  if v_row.title is null then
    raise exception 'This row has no title: a product needs one' using errcode = '22023', hint = 'title';
  end if;
  if v_row.image is null then
    raise exception 'This row has no image: a product needs one' using errcode = '22023', hint = 'image';
  end if;
  if v_row.link is null or v_row.price is null then
    raise exception 'This row has no link or price' using errcode = '22023', hint = 'link';
  end if;
  if p_cat is null or not exists (select 1 from public.catagories c where c.title = p_cat) then
    raise exception 'Choose an existing category' using errcode = '23503', hint = 'cat';
  end if;
  if p_com is null or btrim(p_com) = '' then
    raise exception 'Write the product''s comment' using errcode = '23514', hint = 'com';
  end if;
  select * into v_src from public.feed_sources s where s.id = v_row.source_id;
  insert into public.products (title, cat, image, price, com, link, gtin)
  values (private.normalise_title(v_row.title), p_cat, v_row.image, v_row.price, p_com,
          v_row.link, v_row.gtin)
  returning id into v_product;
  v_price := coalesce(private.feed_money(v_row.price), private.offer_price(v_row.price));
  v_spid := case when v_row.seller_product_id is not null
                  and not exists (select 1 from public.offers o
                                   where o.seller_id = v_src.seller_id
                                     and o.seller_product_id = v_row.seller_product_id)
                 then v_row.seller_product_id end;
  if exists (select 1 from public.offers o
              where o.product_id = v_product and o.seller_id = v_src.seller_id) then
    update public.offers o
       set seller_product_id = coalesce(v_spid, o.seller_product_id), feed_source_id = v_src.id,
           price_gbp = v_price, price_source = 'feed', price_confirmed_at = now()
     where o.product_id = v_product and o.seller_id = v_src.seller_id;
  else
    insert into public.offers
      (product_id, seller_id, link, price_gbp, availability, price_confirmed_at, price_source,
       seller_product_id, feed_source_id)
    values (v_product, v_src.seller_id, v_row.link, v_price, 'in_stock', now(), 'feed', v_spid,
            v_src.id);
  end if;
  update public.feed_unmatched u set status = 'created', product_id = v_product
   where u.id = p_id;
  return v_product;
end;
$$;
revoke execute on function private.feed_unmatched_create_product(uuid, text, text)
  from public, anon;
grant execute on function private.feed_unmatched_create_product(uuid, text, text)
  to authenticated;

-- Held price jumps: applied (the change written, price_source 'feed'; the offer's own activity
-- entry names the admin) or rejected.
create function private.feed_held_decide(p_ids uuid[], p_apply boolean)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  perform private.feed_admin_only();
  if p_apply is null then
    raise exception 'Apply or reject?' using errcode = '22023', hint = 'apply';
  end if;
  if p_apply then
    update public.offers o
       set price_gbp = (h.change ->> 'price_gbp')::numeric,
           delivery_gbp = (h.change ->> 'delivery_gbp')::numeric,
           availability = h.change ->> 'availability',
           link = case when o.is_primary then o.link else coalesce(h.change ->> 'link', o.link) end,
           seller_product_id = case
             when exists (select 1 from public.offers x
                           where x.seller_id = o.seller_id and x.id <> o.id
                             and x.seller_product_id = h.change ->> 'seller_product_id')
               then o.seller_product_id
             else h.change ->> 'seller_product_id' end,
           feed_source_id = h.source_id, price_confirmed_at = now(), price_source = 'feed'
      from public.feed_held_changes h
     where h.id = any (coalesce(p_ids, '{}')) and h.status = 'held' and o.id = h.offer_id;
  end if;
  update public.feed_held_changes h
     set status = case when p_apply then 'applied' else 'rejected' end,
         decided_by = auth.uid(), decided_at = now()
   where h.id = any (coalesce(p_ids, '{}')) and h.status = 'held';
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke execute on function private.feed_held_decide(uuid[], boolean) from public, anon;
grant execute on function private.feed_held_decide(uuid[], boolean) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Public wrappers (the API's names). Admin ones: authenticated; sync ones: service_role.
-- ---------------------------------------------------------------------------------------------
create function public.feed_run_request(p_source_id uuid)
returns uuid language sql security invoker set search_path = ''
as $$ select private.feed_run_request(p_source_id); $$;
create function public.feed_unmatched_ignore(p_ids uuid[])
returns integer language sql security invoker set search_path = ''
as $$ select private.feed_unmatched_ignore(p_ids); $$;
create function public.feed_unmatched_reopen(p_ids uuid[])
returns integer language sql security invoker set search_path = ''
as $$ select private.feed_unmatched_reopen(p_ids); $$;
create function public.feed_unmatched_create_product(p_id uuid, p_cat text, p_com text)
returns uuid language sql security invoker set search_path = ''
as $$ select private.feed_unmatched_create_product(p_id, p_cat, p_com); $$;
create function public.feed_held_decide(p_ids uuid[], p_apply boolean)
returns integer language sql security invoker set search_path = ''
as $$ select private.feed_held_decide(p_ids, p_apply); $$;
revoke execute on function public.feed_run_request(uuid), public.feed_unmatched_ignore(uuid[]),
  public.feed_unmatched_reopen(uuid[]), public.feed_unmatched_create_product(uuid, text, text),
  public.feed_held_decide(uuid[], boolean)
  from public, anon;
grant execute on function public.feed_run_request(uuid), public.feed_unmatched_ignore(uuid[]),
  public.feed_unmatched_reopen(uuid[]), public.feed_unmatched_create_product(uuid, text, text),
  public.feed_held_decide(uuid[], boolean)
  to authenticated;

create function public.feed_sync_claim(p_max integer default 3)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_sync_claim(p_max); $$;
create function public.feed_sync_take(p_run_id uuid)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_sync_take(p_run_id); $$;
create function public.feed_sync_progress(p_run_id uuid, p_patch jsonb)
returns void language sql security invoker set search_path = ''
as $$ select private.feed_sync_progress(p_run_id, p_patch); $$;
create function public.feed_stage_rows(p_run_id uuid, p_rows jsonb)
returns integer language sql security invoker set search_path = ''
as $$ select private.feed_stage_rows(p_run_id, p_rows); $$;
create function public.feed_run_restart(p_run_id uuid)
returns void language sql security invoker set search_path = ''
as $$ select private.feed_run_restart(p_run_id); $$;
create function public.feed_run_unchanged(p_run_id uuid, p_http_status integer)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_run_unchanged(p_run_id, p_http_status); $$;
create function public.feed_run_fail(p_run_id uuid, p_error text)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_run_fail(p_run_id, p_error); $$;
create function public.feed_run_staged(p_run_id uuid, p_etag text, p_last_modified text)
returns void language sql security invoker set search_path = ''
as $$ select private.feed_run_staged(p_run_id, p_etag, p_last_modified); $$;
create function public.feed_run_apply(p_run_id uuid)
returns jsonb language sql security invoker set search_path = ''
as $$ select private.feed_run_apply(p_run_id); $$;
revoke execute on function public.feed_sync_claim(integer), public.feed_sync_take(uuid),
  public.feed_sync_progress(uuid, jsonb), public.feed_stage_rows(uuid, jsonb),
  public.feed_run_restart(uuid), public.feed_run_unchanged(uuid, integer),
  public.feed_run_fail(uuid, text), public.feed_run_staged(uuid, text, text),
  public.feed_run_apply(uuid)
  from public, anon, authenticated;
grant execute on function public.feed_sync_claim(integer), public.feed_sync_take(uuid),
  public.feed_sync_progress(uuid, jsonb), public.feed_stage_rows(uuid, jsonb),
  public.feed_run_restart(uuid), public.feed_run_unchanged(uuid, integer),
  public.feed_run_fail(uuid, text), public.feed_run_staged(uuid, text, text),
  public.feed_run_apply(uuid)
  to service_role;
