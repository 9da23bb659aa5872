-- Link health (REQ-INS-4; docs/decisions/0130, 0131).
-- The edge function `link-health` checks every product's seller link and image URL and records
-- the outcome here. Results live in their own table, not in public.products: a check writes
-- every product, which must neither bump updated_at (the editor's version) nor flood the
-- activity log.
-- - public.link_checks: one row per product and kind ('link' | 'image'); admins read (RLS);
--   nobody writes through the API: only public.record_link_checks, which only the service role
--   (the function, the schedule) may execute.
-- - public.link_health_settings: the store-wide choice "hide products with broken seller links
--   from the storefront until fixed"; admins read and change it.
-- - The products read policy hides those products from everyone but admins, in the database,
--   so every storefront RPC (storefront_page, product pages, prerender) honours it unchanged.
-- - private.admin_product_filter / _order learn the table's link-health filter and sort.
-- - Hosted schedule: pg_cron + pg_net, scheduled here only when both extensions are installed
--   (the local stack's embedded Postgres has neither: it runs its own timer). See the README.
-- Triage (REQ-OFF-6, docs/decisions/0234): a link is broken only after two failed checks in a
-- row ('failing' after one); a seller whose bot wall refuses the checker is 'blocked', never
-- broken, with the redirect chain as evidence; an admin may accept a redirect as expected
-- (public.link_redirect_acceptances), and an accepted redirect is 'ok'.

create table public.link_checks (
  product_id uuid not null references public.products (id) on delete cascade,
  -- 'offer': the link of a product's other (non-primary) offer, offer_id says which
  -- (REQ-OFF-6); the primary offer's link is the product's, checked as 'link'.
  kind text not null constraint link_checks_kind_check check (kind in ('link', 'image', 'offer')),
  -- The URL that was checked: a result is about that URL only (a changed link drops it).
  url text not null constraint link_checks_url_check check (char_length(url) <= 2048),
  -- The confirmed state (private.link_verdict): 'broken' only after two failed checks in a row,
  -- 'failing' after one; 'blocked' = the seller's bot wall refused the checker (not broken).
  status text not null constraint link_checks_status_check
    check (status in ('ok', 'redirected', 'failing', 'broken', 'blocked', 'unreachable',
                      'timed_out')),
  -- Last HTTP status seen (null when no answer: unreachable, timed out, refused).
  http_code integer constraint link_checks_http_code_check check (http_code between 100 and 599),
  final_url text constraint link_checks_final_url_check check (char_length(final_url) <= 2048),
  -- Short machine-made reason (e.g. 'refused: private address', 'too many redirects').
  detail text constraint link_checks_detail_check check (char_length(detail) <= 200),
  checked_at timestamptz not null default now(),
  -- Failed checks in a row (broken, unreachable or timed out); an answer resets it to 0.
  failures integer not null default 0 constraint link_checks_failures_check check (failures >= 0),
  -- Every hop of the last check: [{"code": 301|null, "host": "shop.example"}, ...], bounded.
  chain jsonb not null default '[]'::jsonb constraint link_checks_chain_check
    check (jsonb_typeof(chain) = 'array' and jsonb_array_length(chain) <= 25
           and octet_length(chain::text) <= 8192),
  -- The offer whose link this is (kind 'offer' only; the foreign key is in
  -- 150_offer_link_health.sql, after public.offers).
  offer_id uuid,
  constraint link_checks_offer_check check ((kind = 'offer') = (offer_id is not null)),
  -- One result per product link, image and offer link.
  constraint link_checks_key unique nulls not distinct (product_id, kind, offer_id)
);
comment on table public.link_checks is
  'Link health: the last check of each product''s seller link and image URL. Admins read; only '
  'the link-health function (service role, via record_link_checks) writes.';
-- Broken and redirected first (the Insights list, the table's "needs attention" filter).
create index link_checks_problems_idx on public.link_checks (status, checked_at)
  where status <> 'ok';
-- An offer's result (Buy Now's fallback, hiding, the cascade when an offer goes).
create index link_checks_offer_idx on public.link_checks (offer_id) where offer_id is not null;
-- The schedule checks the oldest results first.
create index link_checks_checked_at_idx on public.link_checks (checked_at);
alter table public.link_checks enable row level security;
revoke all on table public.link_checks from public, anon, authenticated, service_role;
grant select on table public.link_checks to authenticated;
grant select, insert, update, delete on table public.link_checks to service_role;
create policy "Admins read link checks"
  on public.link_checks for select to authenticated
  using ((select private.is_admin()));

-- No insert/update/delete policies: an admin cannot forge a result either.

create table public.link_health_settings (
  -- One row: the store-wide settings.
  id boolean primary key default true constraint link_health_settings_one_row check (id),
  hide_broken_links boolean not null default false,
  updated_at timestamptz not null default now()
);
comment on table public.link_health_settings is
  'Store-wide link-health choices (one row). Admins read and change them.';
insert into public.link_health_settings (id) values (true);
alter table public.link_health_settings enable row level security;
revoke all on table public.link_health_settings from public, anon, authenticated, service_role;
grant select on table public.link_health_settings to authenticated;
grant update (hide_broken_links) on table public.link_health_settings to authenticated;
grant select, update on table public.link_health_settings to service_role;
create policy "Admins read link health settings"
  on public.link_health_settings for select to authenticated
  using ((select private.is_admin()));
create policy "Admins change link health settings"
  on public.link_health_settings for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create function private.link_health_settings_touch()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
revoke execute on function private.link_health_settings_touch() from public, anon, authenticated;

create trigger link_health_settings_touch
  before update on public.link_health_settings
  for each row execute function private.link_health_settings_touch();

-- A changed link or image URL makes its old result meaningless (and must un-hide a product whose
-- broken link the admin just fixed): drop it; the next check records the new URL.
create function private.link_checks_forget_changed_urls()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke execute on function private.link_checks_forget_changed_urls()
  from public, anon, authenticated;

create trigger products_link_checks_forget
  after update of link, image on public.products
  for each row
  when (old.link is distinct from new.link or old.image is distinct from new.image)
  execute function private.link_checks_forget_changed_urls();

-- ---------------------------------------------------------------------------------------------
-- Accepted redirects (REQ-OFF-6): an admin says a redirect is expected, either for one product
-- link (product_id + url: forgotten when the link changes) or for every link from a seller host
-- to a final host (from_host). An accepted redirect shows as 'ok'. Hosts are compared as
-- private.link_host (140_offers.sql, as sellers.host) gives them: lower case, no "www.", no
-- port. Admins read, add and remove them (RLS); who and when is kept on the row (no
-- activity-log kind fits: the log records catalogue, offer and team changes, and this changes
-- none of them).
-- ---------------------------------------------------------------------------------------------
create table public.link_redirect_acceptances (
  id bigint generated always as identity primary key,
  product_id uuid references public.products (id) on delete cascade,
  -- The product link accepted (its redirect to to_host), or null for a host pair.
  url text constraint link_redirect_acceptances_url_check check (char_length(url) <= 2048),
  from_host text constraint link_redirect_acceptances_from_host_check
    check (from_host ~ '^[a-z0-9.:\[\]-]{1,253}$'),
  to_host text not null constraint link_redirect_acceptances_to_host_check
    check (to_host ~ '^[a-z0-9.:\[\]-]{1,253}$'),
  accepted_by uuid default auth.uid(),
  accepted_at timestamptz not null default now(),
  constraint link_redirect_acceptances_scope_check check (
    (product_id is not null and url is not null and from_host is null)
    or (product_id is null and url is null and from_host is not null))
);
comment on table public.link_redirect_acceptances is
  'Redirects an admin accepted as expected (per product link, or per seller host to final host); '
  'an accepted redirect shows as ok. Admins only.';
create unique index link_redirect_acceptances_link_key
  on public.link_redirect_acceptances (product_id, url, to_host) where product_id is not null;
create unique index link_redirect_acceptances_hosts_key
  on public.link_redirect_acceptances (from_host, to_host) where from_host is not null;
alter table public.link_redirect_acceptances enable row level security;
revoke all on table public.link_redirect_acceptances from public, anon, authenticated, service_role;
grant select, delete on table public.link_redirect_acceptances to authenticated;
grant insert (product_id, url, from_host, to_host) on table public.link_redirect_acceptances
  to authenticated;
grant select, insert, delete on table public.link_redirect_acceptances to service_role;
create policy "Admins read accepted redirects"
  on public.link_redirect_acceptances for select to authenticated
  using ((select private.is_admin()));
create policy "Admins accept redirects"
  on public.link_redirect_acceptances for insert to authenticated
  with check ((select private.is_admin()));
create policy "Admins withdraw accepted redirects"
  on public.link_redirect_acceptances for delete to authenticated
  using ((select private.is_admin()));

-- Whether an admin accepted the redirect of this product link to where it ended.
create function private.redirect_accepted(p_product_id uuid, p_url text, p_final_url text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.link_redirect_acceptances a
     where a.to_host = private.link_host(p_final_url)
       and ((a.product_id = p_product_id and a.url = p_url)
            or a.from_host = private.link_host(p_url)));
$$;
revoke execute on function private.redirect_accepted(uuid, text, text) from public, anon;
grant execute on function private.redirect_accepted(uuid, text, text)
  to authenticated, service_role;

-- An acceptance shows at once: the matching 'redirected' results become 'ok'; a withdrawn one
-- turns them back (until the next check judges again).
create function private.link_redirect_acceptances_apply()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke execute on function private.link_redirect_acceptances_apply()
  from public, anon, authenticated;

create trigger link_redirect_acceptances_apply
  after insert or delete on public.link_redirect_acceptances
  for each statement execute function private.link_redirect_acceptances_apply();

-- The confirmed state of a link from this check's verdict and the last stored result for the
-- same URL (null: none). Failed = broken, unreachable or timed out; two in a row confirm
-- 'broken'; 403 on every check of a run is a bot wall ('blocked'), not a missing page.
create function private.link_verdict(
  p_verdict text,
  p_code integer,
  p_detail text,
  p_prior_status text,
  p_prior_code integer,
  p_prior_failures integer,
  p_accepted boolean,
  out status text,
  out failures integer,
  out detail text
)
language plpgsql
immutable
set search_path = ''
as $$
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
$$;
revoke execute on function private.link_verdict(text, integer, text, text, integer, integer, boolean)
  from public, anon;
grant execute on function private.link_verdict(text, integer, text, text, integer, integer, boolean)
  to service_role;

-- The checker's redirect chain as stored: at most 25 hops of {code, host}, nothing else.
create function private.link_chain(p_chain jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'code', case when h.e ->> 'code' ~ '^[1-5][0-9]{2}$' then (h.e ->> 'code')::integer end,
           'host', left(coalesce(h.e ->> 'host', ''), 260)) order by h.i), '[]'::jsonb)
    from jsonb_array_elements(case when jsonb_typeof(p_chain) = 'array' then p_chain
                                   else '[]'::jsonb end) with ordinality as h(e, i)
   where h.i <= 25;
$$;
revoke execute on function private.link_chain(jsonb) from public, anon;
grant execute on function private.link_chain(jsonb) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Writing results: the service role only. Each result names the URL it checked; a result for a
-- URL the product no longer has (edited while the check ran) or for a deleted product is skipped.
-- p_results: [{"product_id","kind","offer_id","url","status","http_code","final_url","detail",
--              "chain"}, ...]  (offer_id for kind 'offer': a non-primary offer of the product)
-- where status is the check's own verdict; what is stored is the confirmed state.
-- ---------------------------------------------------------------------------------------------
create function public.record_link_checks(p_results jsonb)
returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
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
$$;
comment on function public.record_link_checks(jsonb) is
  'Service role only (the link-health function): stores check results for current URLs.';
revoke execute on function public.record_link_checks(jsonb) from public, anon, authenticated;
grant execute on function public.record_link_checks(jsonb) to service_role;

-- Which products a scheduled run checks: never checked first, then the oldest results.
create function public.link_health_due(p_limit integer)
returns table (id uuid, link text, image text)
language sql
stable
security invoker
set search_path = ''
as $$
  select p.id, p.link, p.image
    from public.products p
    left join lateral (select min(c.checked_at) as checked_at
                         from public.link_checks c where c.product_id = p.id) last on true
   order by last.checked_at asc nulls first, p.id
   limit least(greatest(coalesce(p_limit, 100), 1), 1000);
$$;
comment on function public.link_health_due(integer) is
  'Service role only: the products a scheduled link check should look at next.';
revoke execute on function public.link_health_due(integer) from public, anon, authenticated;
grant execute on function public.link_health_due(integer) to service_role;

create function listing.hidden_product_ids()
returns uuid[]
language plpgsql
stable
security definer
set search_path = ''
as $$
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
$$;
comment on function listing.hidden_product_ids() is
  'Products the storefront hides while hide_broken_links is on (not for admins): those whose '
  'every offer link is confirmed broken.';
revoke execute on function listing.hidden_product_ids() from public;
grant execute on function listing.hidden_product_ids() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Hosted schedule (Supabase Cron). private.link_health_tick() posts to the function with the
-- project URL and a secret key kept in Vault (names 'link_health_url' and 'link_health_key', see
-- the README); without them it does nothing. The job is scheduled here only where pg_cron and
-- pg_net are installed (hosted, after enabling them in the dashboard); elsewhere the README's
-- SQL schedules it later, and the local stack uses its own timer.
-- ---------------------------------------------------------------------------------------------
create function private.link_health_tick()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_url text;
  v_key text;
begin
  if to_regclass('vault.decrypted_secrets') is null or to_regnamespace('net') is null then
    raise notice 'link health: Vault or pg_net is missing; nothing scheduled';
    return;
  end if;
  execute 'select max(decrypted_secret) filter (where name = ''link_health_url''),
                  max(decrypted_secret) filter (where name = ''link_health_key'')
             from vault.decrypted_secrets'
    into v_url, v_key;
  if v_url is null or v_key is null then
    raise notice 'link health: Vault secrets link_health_url / link_health_key are not set';
    return;
  end if;
  execute 'select net.http_post(url := $1, headers := $2, body := $3, timeout_milliseconds := 5000)'
    using rtrim(v_url, '/') || '/functions/v1/link-health',
          jsonb_build_object('Content-Type', 'application/json',
                             'Authorization', 'Bearer ' || v_key, 'apikey', v_key),
          jsonb_build_object('mode', 'due', 'limit', 200);
end;
$$;
comment on function private.link_health_tick() is
  'Supabase Cron: asks the link-health function to check the products checked longest ago.';
revoke execute on function private.link_health_tick() from public, anon, authenticated;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron')
     and exists (select 1 from pg_extension where extname = 'pg_net') then
    execute $sql$select cron.schedule('link-health', '*/15 * * * *',
                                      'select private.link_health_tick()')$sql$;
  end if;
end;
$$;
