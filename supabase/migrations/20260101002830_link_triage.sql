-- Link-health triage (REQ-OFF-6, docs/decisions/0234): owners stopped trusting the Broken
-- badge. One failed check hid a product (a seller's page down for a minute), sellers whose bot
-- wall refuses our checker (Cloudflare, Akamai, captcha pages) showed as broken, and an
-- expected redirect (a seller's country page) stayed "Redirected" for ever. Now:
-- - link_checks.failures counts failed checks in a row; the stored status is the confirmed
--   state ('failing' after one failure, 'broken' after two; an answer resets it), and only
--   'broken' hides a product or counts as broken;
-- - 'blocked' (a bot wall, or 403 on every check) is never broken; link_checks.chain keeps each
--   hop's code and host (at most 25 hops) as the evidence;
-- - public.link_redirect_acceptances: admins accept a redirect per product link (forgotten when
--   the link changes) or per seller host -> final host; an accepted redirect is 'ok';
-- - offers: every non-primary offer's link is checked too (link_checks kind 'offer' with
--   offer_id; the primary key (product_id, kind) becomes the unique key (product_id, kind,
--   offer_id)); Buy Now (private.refresh_product_summaries) skips offers confirmed broken, and
--   listing.hidden_product_ids hides a product only when every offer link is confirmed broken.
-- Existing 'broken' results were confirmed by one failure only: they become 'failing' (the next
-- scheduled check confirms or clears them).

drop trigger if exists "link_checks_offer_summary_delete" on "public"."link_checks";

drop trigger if exists "link_checks_offer_summary_insert" on "public"."link_checks";

drop trigger if exists "link_checks_offer_summary_update" on "public"."link_checks";

alter table "public"."link_checks" drop constraint "link_checks_kind_check";

alter table "public"."link_checks" drop constraint "link_checks_status_check";

alter table "public"."link_checks" drop constraint "link_checks_pkey";

drop index if exists "public"."link_checks_pkey";

  create table "public"."link_redirect_acceptances" (
    "id" bigint generated always as identity not null,
    "product_id" uuid,
    "url" text,
    "from_host" text,
    "to_host" text not null,
    "accepted_by" uuid default auth.uid(),
    "accepted_at" timestamp with time zone not null default now()
      );

alter table "public"."link_redirect_acceptances" enable row level security;

alter table "public"."link_checks" add column "failures" integer not null default 0;

alter table "public"."link_checks" add column "chain" jsonb not null default '[]'::jsonb;

alter table "public"."link_checks" add column "offer_id" uuid;

CREATE UNIQUE INDEX link_checks_key ON public.link_checks USING btree (product_id, kind, offer_id) NULLS NOT DISTINCT;

CREATE INDEX link_checks_offer_idx ON public.link_checks USING btree (offer_id) WHERE (offer_id IS NOT NULL);

CREATE UNIQUE INDEX link_redirect_acceptances_hosts_key ON public.link_redirect_acceptances USING btree (from_host, to_host) WHERE (from_host IS NOT NULL);

CREATE UNIQUE INDEX link_redirect_acceptances_link_key ON public.link_redirect_acceptances USING btree (product_id, url, to_host) WHERE (product_id IS NOT NULL);

CREATE UNIQUE INDEX link_redirect_acceptances_pkey ON public.link_redirect_acceptances USING btree (id);

alter table "public"."link_redirect_acceptances" add constraint "link_redirect_acceptances_pkey" PRIMARY KEY using index "link_redirect_acceptances_pkey";

alter table "public"."link_checks" add constraint "link_checks_chain_check" CHECK (((jsonb_typeof(chain) = 'array'::text) AND (jsonb_array_length(chain) <= 25) AND (octet_length((chain)::text) <= 8192))) not valid;

alter table "public"."link_checks" validate constraint "link_checks_chain_check";

alter table "public"."link_checks" add constraint "link_checks_failures_check" CHECK ((failures >= 0)) not valid;

alter table "public"."link_checks" validate constraint "link_checks_failures_check";

alter table "public"."link_checks" add constraint "link_checks_key" UNIQUE using index "link_checks_key";

alter table "public"."link_checks" add constraint "link_checks_offer_check" CHECK (((kind = 'offer'::text) = (offer_id IS NOT NULL))) not valid;

alter table "public"."link_checks" validate constraint "link_checks_offer_check";

alter table "public"."link_checks" add constraint "link_checks_offer_id_fkey" FOREIGN KEY (offer_id) REFERENCES offers(id) ON DELETE CASCADE not valid;

alter table "public"."link_checks" validate constraint "link_checks_offer_id_fkey";

alter table "public"."link_redirect_acceptances" add constraint "link_redirect_acceptances_from_host_check" CHECK ((from_host ~ '^[a-z0-9.:\[\]-]{1,253}$'::text)) not valid;

alter table "public"."link_redirect_acceptances" validate constraint "link_redirect_acceptances_from_host_check";

alter table "public"."link_redirect_acceptances" add constraint "link_redirect_acceptances_product_id_fkey" FOREIGN KEY (product_id) REFERENCES products(id) ON DELETE CASCADE not valid;

alter table "public"."link_redirect_acceptances" validate constraint "link_redirect_acceptances_product_id_fkey";

alter table "public"."link_redirect_acceptances" add constraint "link_redirect_acceptances_scope_check" CHECK ((((product_id IS NOT NULL) AND (url IS NOT NULL) AND (from_host IS NULL)) OR ((product_id IS NULL) AND (url IS NULL) AND (from_host IS NOT NULL)))) not valid;

alter table "public"."link_redirect_acceptances" validate constraint "link_redirect_acceptances_scope_check";

alter table "public"."link_redirect_acceptances" add constraint "link_redirect_acceptances_to_host_check" CHECK ((to_host ~ '^[a-z0-9.:\[\]-]{1,253}$'::text)) not valid;

alter table "public"."link_redirect_acceptances" validate constraint "link_redirect_acceptances_to_host_check";

alter table "public"."link_redirect_acceptances" add constraint "link_redirect_acceptances_url_check" CHECK ((char_length(url) <= 2048)) not valid;

alter table "public"."link_redirect_acceptances" validate constraint "link_redirect_acceptances_url_check";

alter table "public"."link_checks" add constraint "link_checks_kind_check" CHECK ((kind = ANY (ARRAY['link'::text, 'image'::text, 'offer'::text]))) not valid;

alter table "public"."link_checks" validate constraint "link_checks_kind_check";

alter table "public"."link_checks" add constraint "link_checks_status_check" CHECK ((status = ANY (ARRAY['ok'::text, 'redirected'::text, 'failing'::text, 'broken'::text, 'blocked'::text, 'unreachable'::text, 'timed_out'::text]))) not valid;

alter table "public"."link_checks" validate constraint "link_checks_status_check";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.link_chain(p_chain jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(jsonb_agg(jsonb_build_object(
           'code', case when h.e ->> 'code' ~ '^[1-5][0-9]{2}$' then (h.e ->> 'code')::integer end,
           'host', left(coalesce(h.e ->> 'host', ''), 260)) order by h.i), '[]'::jsonb)
    from jsonb_array_elements(case when jsonb_typeof(p_chain) = 'array' then p_chain
                                   else '[]'::jsonb end) with ordinality as h(e, i)
   where h.i <= 25;
$function$
;

CREATE OR REPLACE FUNCTION private.link_checks_forget_offer_url()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  delete from public.link_checks c
   where c.offer_id = new.id and c.url is distinct from new.link;
  delete from public.link_redirect_acceptances a
   where a.product_id = new.product_id and a.url = old.link
     and not exists (select 1 from public.products p where p.id = new.product_id and p.link = old.link)
     and not exists (select 1 from public.offers o
                      where o.product_id = new.product_id and o.id <> new.id and o.link = old.link);
  return null;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.link_redirect_acceptances_apply()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  update public.link_checks c
     set status = 'ok', detail = 'redirect accepted'
   where c.status = 'redirected' and c.kind in ('link', 'offer')
     and private.redirect_accepted(c.product_id, c.url, c.final_url);
  update public.link_checks c
     set status = 'redirected', detail = null
   where c.status = 'ok' and c.detail = 'redirect accepted'
     and not private.redirect_accepted(c.product_id, c.url, c.final_url);
  return null;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.link_verdict(p_verdict text, p_code integer, p_detail text, p_prior_status text, p_prior_code integer, p_prior_failures integer, p_accepted boolean, OUT status text, OUT failures integer, OUT detail text)
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  failures := case when p_verdict in ('broken', 'unreachable', 'timed_out')
                   then coalesce(p_prior_failures, 0) + 1 else 0 end;
  detail := p_detail;
  status := p_verdict;
  if p_verdict = 'redirected' and p_accepted then
    status := 'ok';
    detail := 'redirect accepted';
  elsif p_verdict = 'broken' then
    if p_code = 403 and p_prior_code = 403 and p_prior_status in ('failing', 'blocked') then
      status := 'blocked';
      detail := '403 on every check';
    elsif failures < 2 then
      status := 'failing';
    end if;
  end if;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.redirect_accepted(p_product_id uuid, p_url text, p_final_url text)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select exists (
    select 1 from public.link_redirect_acceptances a
     where a.to_host = private.link_host(p_final_url)
       and ((a.product_id = p_product_id and a.url = p_url)
            or a.from_host = private.link_host(p_url)));
$function$
;

CREATE OR REPLACE FUNCTION listing.hidden_product_ids()
 RETURNS uuid[]
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not coalesce((select s.hide_broken_links from public.link_health_settings s), false)
     or (auth.uid() is not null and private.is_admin()) then
    return '{}'::uuid[];
  end if;
  -- A product goes only when no offer has a working link (REQ-OFF-6): its own link (the primary
  -- offer's) is confirmed broken and so is every other offer's. Buy Now skips broken offers
  -- the same way (private.refresh_product_summaries).
  return coalesce((
    select array_agg(c.product_id) from public.link_checks c
     where c.kind = 'link' and c.status = 'broken'
       and not exists (
             select 1 from public.offers o
              where o.product_id = c.product_id and not o.is_primary
                and not exists (select 1 from public.link_checks oc
                                 where oc.offer_id = o.id and oc.status = 'broken'))),
    '{}'::uuid[]);
end;
$function$
;

CREATE OR REPLACE FUNCTION private.admin_product_filter(p_query jsonb, OUT where_sql text, OUT cat text, OUT search_key text, OUT search_like text)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  v_exact boolean;
  v_health text := nullif(p_query ->> 'health', '');
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
  end;
  if v_order is null then
    raise exception 'Unknown sort column' using errcode = '22023';
  end if;
  return replace(replace(v_order, '#', case when v_asc then 'asc' else 'desc' end),
                 '~', case when v_asc then 'last' else 'first' end);
end;
$function$
;

CREATE OR REPLACE FUNCTION private.link_checks_forget_changed_urls()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  delete from public.link_checks c
   where c.product_id = new.id
     and ((c.kind = 'link' and c.url is distinct from new.link)
          or (c.kind = 'image' and c.url is distinct from new.image));
  -- A redirect accepted for the old link is forgotten with it (REQ-OFF-6), unless another offer
  -- of the product still links there.
  if old.link is distinct from new.link then
    delete from public.link_redirect_acceptances a
     where a.product_id = new.id and a.url = old.link
       and not exists (select 1 from public.offers o
                        where o.product_id = new.id and not o.is_primary and o.link = old.link);
  end if;
  return null;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.refresh_product_summaries(p_ids uuid[])
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_stale interval := make_interval(
    days => coalesce((select s.price_stale_after_days from public.store_settings s), 7));
  v_prev text := coalesce(current_setting('offers.summary_write', true), '');
  v_count integer;
begin
  if p_ids is null or cardinality(p_ids) = 0 then
    return 0;
  end if;
  perform set_config('offers.summary_write', 'on', true);
  with calc as (
    select p.id,
           best.price_gbp as price_value,
           coalesce(cnt.n, 0)::smallint as offer_count,
           coalesce(best.price_confirmed_at, prim.price_confirmed_at) as price_checked_at,
           cnt.fresh_until as price_fresh_until,
           buy.id as buy_offer_id,
           buy.link as buy_link,
           buy.seller as buy_seller
      from public.products p
      left join lateral (
        select o.price_gbp, o.price_confirmed_at
          from public.offers o
         where o.product_id = p.id and o.price_gbp is not null
           and o.price_confirmed_at > now() - v_stale
         order by o.price_gbp, o.delivery_gbp asc nulls last, o.price_confirmed_at desc
         limit 1) best on true
      left join lateral (
        select count(*) as n, min(o.price_confirmed_at) + v_stale as fresh_until
          from public.offers o
         where o.product_id = p.id and o.price_gbp is not null
           and o.price_confirmed_at > now() - v_stale) cnt on true
      left join lateral (
        select o.price_confirmed_at from public.offers o
         where o.product_id = p.id and o.is_primary) prim on true
      left join lateral (
        select o.id, private.tagged_link(o.link, s.affiliate_param, s.affiliate_value) as link,
               s.name as seller
          from public.offers o
          join public.sellers s on s.id = o.seller_id
          cross join lateral (
            select exists (
                     select 1 from public.link_checks c
                      where c.product_id = p.id and c.status = 'broken' and c.url = o.link
                        and ((o.is_primary and c.kind = 'link')
                             or (c.kind = 'offer' and c.offer_id = o.id))) as broken) b
          cross join lateral (
            select o.price_gbp is not null and o.price_confirmed_at > now() - v_stale as current) f
         where o.product_id = p.id
         order by case when o.is_primary and not b.broken then 0
                       when not b.broken and f.current then 1
                       when not b.broken then 2
                       when o.is_primary then 3
                       else 4 end,
                  o.price_gbp asc nulls last, o.delivery_gbp asc nulls last, s.name, o.id
         limit 1) buy on true
     where p.id = any (p_ids)
  )
  update public.products p
     set price_value = c.price_value, offer_count = c.offer_count,
         price_checked_at = c.price_checked_at, price_fresh_until = c.price_fresh_until,
         buy_offer_id = c.buy_offer_id, buy_link = c.buy_link, buy_seller = c.buy_seller
    from calc c
   where p.id = c.id
     and (p.price_value, p.offer_count, p.price_checked_at, p.price_fresh_until, p.buy_offer_id,
          p.buy_link, p.buy_seller)
         is distinct from
         (c.price_value, c.offer_count, c.price_checked_at, c.price_fresh_until, c.buy_offer_id,
          c.buy_link, c.buy_seller);
  get diagnostics v_count = row_count;
  perform set_config('offers.summary_write', v_prev, true);
  return v_count;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.record_link_checks(p_results jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_written integer;
begin
  if jsonb_typeof(p_results) is distinct from 'array' or jsonb_array_length(p_results) > 1000 then
    raise exception 'Results must be an array of at most 1000 items' using errcode = '22023';
  end if;
  -- Each result is judged against the stored one for the same URL (private.link_verdict).
  insert into public.link_checks as c
    (product_id, kind, offer_id, url, status, failures, http_code, final_url, detail, chain,
     checked_at)
  select r.product_id, r.kind, o.id, r.url, v.status, v.failures, r.http_code,
         left(r.final_url, 2048), left(v.detail, 200), private.link_chain(r.chain), now()
    from jsonb_to_recordset(p_results)
           as r(product_id uuid, kind text, offer_id uuid, url text, status text,
                http_code integer, final_url text, detail text, chain jsonb)
    join public.products p on p.id = r.product_id
    left join public.offers o
      on r.kind = 'offer' and o.id = r.offer_id and o.product_id = r.product_id
         and not o.is_primary
    left join public.link_checks prior
      on prior.product_id = r.product_id and prior.kind = r.kind
         and prior.offer_id is not distinct from o.id and prior.url = r.url
   cross join lateral private.link_verdict(
           r.status, r.http_code, r.detail, prior.status, prior.http_code, prior.failures,
           r.status = 'redirected' and r.kind in ('link', 'offer')
             and private.redirect_accepted(r.product_id, r.url, r.final_url)) v
   where ((r.kind = 'link' and p.link = r.url) or (r.kind = 'image' and p.image = r.url)
          or (r.kind = 'offer' and o.link = r.url))
     and r.status in ('ok', 'redirected', 'broken', 'blocked', 'unreachable', 'timed_out')
  on conflict (product_id, kind, offer_id) do update
    set url = excluded.url, status = excluded.status, failures = excluded.failures,
        http_code = excluded.http_code, final_url = excluded.final_url,
        detail = excluded.detail, chain = excluded.chain, checked_at = excluded.checked_at;
  get diagnostics v_written = row_count;
  return v_written;
end;
$function$
;

  create policy "Admins accept redirects"
  on "public"."link_redirect_acceptances"
  as permissive
  for insert
  to authenticated
with check (( SELECT private.is_admin() AS is_admin));

  create policy "Admins read accepted redirects"
  on "public"."link_redirect_acceptances"
  as permissive
  for select
  to authenticated
using (( SELECT private.is_admin() AS is_admin));

  create policy "Admins withdraw accepted redirects"
  on "public"."link_redirect_acceptances"
  as permissive
  for delete
  to authenticated
using (( SELECT private.is_admin() AS is_admin));

CREATE TRIGGER link_redirect_acceptances_apply AFTER INSERT OR DELETE ON public.link_redirect_acceptances FOR EACH STATEMENT EXECUTE FUNCTION private.link_redirect_acceptances_apply();

CREATE TRIGGER offers_link_checks_forget AFTER UPDATE OF link ON public.offers FOR EACH ROW WHEN (((old.link IS DISTINCT FROM new.link) AND (NOT new.is_primary))) EXECUTE FUNCTION private.link_checks_forget_offer_url();

CREATE TRIGGER link_checks_offer_summary_delete AFTER DELETE ON public.link_checks FOR EACH ROW WHEN (((old.kind = ANY (ARRAY['link'::text, 'offer'::text])) AND (old.status = 'broken'::text))) EXECUTE FUNCTION private.offers_link_health_changed();

CREATE TRIGGER link_checks_offer_summary_insert AFTER INSERT ON public.link_checks FOR EACH ROW WHEN (((new.kind = ANY (ARRAY['link'::text, 'offer'::text])) AND (new.status = 'broken'::text))) EXECUTE FUNCTION private.offers_link_health_changed();

CREATE TRIGGER link_checks_offer_summary_update AFTER UPDATE ON public.link_checks FOR EACH ROW WHEN (((new.kind = ANY (ARRAY['link'::text, 'offer'::text])) AND ((old.status = 'broken'::text) IS DISTINCT FROM (new.status = 'broken'::text)))) EXECUTE FUNCTION private.offers_link_health_changed();

-- Grants and comments as in supabase/schemas/100_link_health.sql and 150_offer_link_health.sql.
comment on table public.link_redirect_acceptances is
  'Redirects an admin accepted as expected (per product link, or per seller host to final host); '
  'an accepted redirect shows as ok. Admins only.';
revoke all on table public.link_redirect_acceptances from public, anon, authenticated, service_role;
grant select, delete on table public.link_redirect_acceptances to authenticated;
grant insert (product_id, url, from_host, to_host) on table public.link_redirect_acceptances
  to authenticated;
grant select, insert, delete on table public.link_redirect_acceptances to service_role;
revoke execute on function private.redirect_accepted(uuid, text, text) from public, anon;
grant execute on function private.redirect_accepted(uuid, text, text)
  to authenticated, service_role;
revoke execute on function private.link_redirect_acceptances_apply()
  from public, anon, authenticated;
revoke execute on function private.link_verdict(text, integer, text, text, integer, integer, boolean)
  from public, anon;
grant execute on function private.link_verdict(text, integer, text, text, integer, integer, boolean)
  to service_role;
revoke execute on function private.link_chain(jsonb) from public, anon;
grant execute on function private.link_chain(jsonb) to service_role;
revoke execute on function private.link_checks_forget_offer_url() from public, anon, authenticated;
comment on function listing.hidden_product_ids() is
  'Products the storefront hides while hide_broken_links is on (not for admins): those whose '
  'every offer link is confirmed broken.';

-- Results confirmed by a single failure are not confirmed any more (see above).
update public.link_checks set status = 'failing', failures = 1 where status = 'broken';
update public.link_checks set failures = 1 where status in ('unreachable', 'timed_out');
