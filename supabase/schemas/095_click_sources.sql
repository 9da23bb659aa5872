-- Buy Now clicks, continued: the visitor's address as the database sees it, and the store page
-- a click came from (docs/decisions/0200). The counting itself: 090_clicks.sql.

-- ---------------------------------------------------------------------------------------------
-- 1. The visitor's address
-- ---------------------------------------------------------------------------------------------
create table private.client_address_settings (
  id boolean primary key default true check (id),
  -- The request header (lower-case, as request.headers names it) that carries the caller's
  -- address, set by the platform's edge and overwritten there whatever the client sent.
  header text not null default 'cf-connecting-ip' check (header ~ '^[a-z0-9-]{1,64}$'),
  -- For a header that is a list (x-forwarded-for behind proxies of one's own): how many entries
  -- from the right end the trusted proxies wrote after the caller's. 0: the rightmost.
  hops_from_right integer not null default 0 check (hops_from_right between 0 and 10)
);
comment on table private.client_address_settings is
  'Where the database reads the caller''s address from (docs/decisions/0200). One row.';
insert into private.client_address_settings default values;
-- Like the other private settings tables: no API role has any privilege on it, and the schema
-- is not exposed; the definer functions below read it as its owner.
revoke all on table private.client_address_settings from public, anon, authenticated,
  service_role;

-- One address from a header value: the entry hops_from_right from the right of a list, without
-- a port some proxies keep, an IPv4-mapped IPv6 address as its IPv4 address. NULL for anything
-- that is no address.
create function private.client_address_from(p_value text, p_hops_from_right integer)
returns inet
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_entries text[] := string_to_array(coalesce(p_value, ''), ',');
  v_entry text;
  v_address inet;
begin
  if cardinality(v_entries) = 0 or cardinality(v_entries) > 32
     or p_hops_from_right is null or p_hops_from_right < 0 then
    return null;
  end if;
  v_entry := btrim(v_entries[greatest(1, cardinality(v_entries) - p_hops_from_right)]);
  -- "[2001:db8::1]:443" and "203.0.113.7:51234".
  v_entry := regexp_replace(v_entry, '^\[([^]]+)\](:[0-9]+)?$', '\1');
  v_entry := regexp_replace(v_entry, '^([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+):[0-9]+$', '\1');
  if v_entry !~ '^[0-9A-Fa-f:.]{2,45}$' then
    return null;
  end if;
  begin
    v_address := v_entry::inet;
  exception when others then
    return null;
  end;
  if masklen(v_address) <> (case family(v_address) when 4 then 32 else 128 end) then
    return null;
  end if;
  if family(v_address) = 6 and v_address <<= '::ffff:0.0.0.0/96'::inet then
    v_address := '0.0.0.0'::inet + (v_address - '::ffff:0.0.0.0'::inet);
  end if;
  return v_address;
end;
$$;
revoke execute on function private.client_address_from(text, integer) from public, anon,
  authenticated, service_role;

-- The caller's address under the setting, from the request PostgREST is serving; NULL outside a
-- request or when the header is missing or holds no address. Runs as its (definer) caller.
create function private.request_client_address()
returns inet
language sql
stable
set search_path = ''
as $$
  select private.client_address_from(
           nullif(current_setting('request.headers', true), '')::json ->> s.header,
           s.hops_from_right)
    from private.client_address_settings s;
$$;
revoke execute on function private.request_client_address() from public, anon, authenticated,
  service_role;

-- The source the per-source limits count: an IPv4 address, an IPv6 /48; '' (one shared source)
-- when the address is unknown.
create function private.click_source_key(p_address inet)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
           when p_address is null then ''
           when family(p_address) = 6 then host(network(set_masklen(p_address, 48))) || '/48'
           else host(p_address)
         end;
$$;
revoke execute on function private.click_source_key(inet) from public, anon, authenticated,
  service_role;

-- What the database attributes to the caller, for the deployment check and for an owner who
-- wants to see it: the address itself (nothing is stored). Reading the setting needs the
-- owner's rights, so the reader lives in the unexposed counting schema like count_click.
create function click_counting.request_client_address()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select host(private.request_client_address());
$$;
revoke execute on function click_counting.request_client_address() from public;
grant execute on function click_counting.request_client_address()
  to anon, authenticated, service_role;

create function public.request_client_address()
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select click_counting.request_client_address();
$$;
comment on function public.request_client_address() is
  'The caller''s address as the database sees it (the rule of docs/decisions/0200); NULL if none.';
revoke execute on function public.request_client_address() from public;
grant execute on function public.request_client_address() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 3. The store page a click came from, in the store's own shape
-- ---------------------------------------------------------------------------------------------

-- application/x-www-form-urlencoded, as the browser's URLSearchParams writes it.
create function private.form_encode(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select coalesce(string_agg(
           case when b.b = 32 then '+'
                when b.b < 128 and chr(b.b) ~ '^[A-Za-z0-9*._-]$' then chr(b.b)
                else '%' || upper(lpad(to_hex(b.b), 2, '0')) end, '' order by b.i), '')
    from (select i, get_byte(convert_to(p_text, 'UTF8'), i) as b
            from generate_series(0, octet_length(convert_to(p_text, 'UTF8')) - 1) as i) b;
$$;
revoke execute on function private.form_encode(text) from public, anon, authenticated,
  service_role;

-- The reverse ('+' is a space); NULL when the bytes are no UTF-8.
create function private.form_decode(p_text text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_bytes bytea := ''::bytea;
  v_part text;
begin
  for v_part in
    select m[1] from regexp_matches(coalesce(p_text, ''), '%[0-9A-Fa-f]{2}|[^%]+|%', 'g') as m
  loop
    if v_part ~ '^%[0-9A-Fa-f]{2}$' then
      v_bytes := v_bytes || decode(substr(v_part, 2), 'hex');
    else
      v_bytes := v_bytes || convert_to(replace(v_part, '+', ' '), 'UTF8');
    end if;
  end loop;
  return convert_from(v_bytes, 'UTF8');
exception when others then
  return null;
end;
$$;
revoke execute on function private.form_decode(text) from public, anon, authenticated,
  service_role;

-- The page to store for what a client sent, or NULL when it is no store page: "/" with the
-- store's own parameters (cat naming an existing catagory, a sort other than the default) in a
-- fixed order, or "/p/<slug>" of a product (its slug now or an old one) without a query.
create function private.click_store_page(p_page text)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  v_path text;
  v_part text;
  v_name text;
  v_value text;
  v_cat text;
  v_sort text;
begin
  if p_page is null or length(p_page) > 200
     or p_page !~ '^/[A-Za-z0-9/_.~%?=&+!$''()*,;:@-]*$' then
    return null;
  end if;
  v_path := split_part(p_page, '?', 1);
  if v_path ~ '^/p/[a-z0-9]+(-[a-z0-9]+)*$' then
    if exists (select 1 from public.products p where p.slug = substr(v_path, 4))
       or exists (select 1 from public.product_slug_history h where h.slug = substr(v_path, 4))
    then
      return v_path;
    end if;
    return null;
  end if;
  if v_path <> '/' then
    return null;
  end if;
  foreach v_part in array string_to_array(substr(p_page, 3), '&') loop
    v_name := split_part(v_part, '=', 1);
    v_value := substr(v_part, length(v_name) + 2);
    if v_name = 'cat' and v_cat is null then
      v_cat := private.form_decode(v_value);
      if not exists (select 1 from public.catagories c where c.title = v_cat) then
        v_cat := null;
      end if;
    elsif v_name = 'sort' and v_value in ('price-desc', 'newest') then
      v_sort := v_value;
    end if;
  end loop;
  if v_cat is null and v_sort is null then
    return '/';
  end if;
  return '/?' || concat_ws('&', 'cat=' || private.form_encode(v_cat), 'sort=' || v_sort);
end;
$$;
revoke execute on function private.click_store_page(text) from public, anon, authenticated,
  service_role;

-- Rows counted before the store's page shape (migration …2500) kept whatever page a client sent:
-- this rewrites them to the store's shape (a page that is no store page any more, such as a
-- deleted product's, as "/"), and rows that then name the same day, catagory and page are added
-- up. The migration ran it once; kept as a function so a test can show it on rows of its own.
create function private.normalise_click_pages()
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_moved integer;
begin
  create temporary table click_pages_moved on commit drop as
    select p.day, p.category, p.page as old_page,
           coalesce(private.click_store_page(p.page), '/') as page, p.clicks
      from public.buy_now_clicks_by_page p
     where p.page is distinct from coalesce(private.click_store_page(p.page), '/');
  get diagnostics v_moved = row_count;
  delete from public.buy_now_clicks_by_page p
   using pg_temp.click_pages_moved m
   where p.day = m.day and p.category = m.category and p.page = m.old_page;
  insert into public.buy_now_clicks_by_page as c (day, category, page, clicks)
  select m.day, m.category, m.page, sum(m.clicks)
    from pg_temp.click_pages_moved m
   group by m.day, m.category, m.page
  on conflict (day, category, page) do update set clicks = c.clicks + excluded.clicks;
  drop table pg_temp.click_pages_moved;
  return v_moved;
end;
$$;
revoke execute on function private.normalise_click_pages() from public, anon, authenticated,
  service_role;
