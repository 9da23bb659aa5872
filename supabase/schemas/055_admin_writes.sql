-- One request per admin action (docs/decisions/0223). Each write of the Products and Catagories
-- forms is one function: the title check, the version check and the write run in one
-- transaction, so neither check can race the write (as separate requests, each its own
-- transaction, they could), and the unique index (private.title_key) still has the last word
-- (its violation is answered as "title in use", never as a failure).
-- Each answers jsonb {"result": …} with the outcome the form shows:
--   products: added | changed | deleted | not_found | stale | title_in_use,
--   catagories: added | changed | not_found | title_in_use,
-- and for products "unused_image": the picture the product showed before, when it was an upload
-- and no product shows it any more. The browser removes that file through the Storage API:
-- hosted refuses deletes of storage.objects in SQL (stack/PLATFORM.md), and the Storage API also
-- removes the file itself.
--
-- As the other admin RPCs (050_admin_table.sql): public, security invoker, admins only
-- through private.require_admin() (42501 otherwise), and RLS and every trigger of the tables
-- still apply (activity log, updated_at, slugs, old category titles). Every UPDATE and DELETE
-- has a WHERE (docs/decisions/0201). Deleting a category stays public.admin_delete_catagory.

-- The old picture, when the product no longer shows it, it was an upload to the product-images
-- bucket (the browser checks the exact shape and origin again) and no other product shows it.
-- Invoker rights: it reads products as the admin calling it.
create function private.unused_upload(p_before text, p_after text)
returns text
language sql
stable
set search_path = ''
as $$
  select p_before
   where p_before is distinct from p_after
     and p_before like '%/storage/v1/object/public/product-images/%'
     and not exists (select 1 from public.products p where p.image = p_before);
$$;
revoke execute on function private.unused_upload(text, text) from public, anon;
grant execute on function private.unused_upload(text, text) to authenticated;

-- Whether a unique violation just caught is a title index of `p_table`: the folded one, or the
-- older case-insensitive one, which Postgres checks first (index order) when two writers race for
-- one new title and the second waits for the first's commit.
create function private.is_title_violation(p_constraint text, p_table text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_constraint in (p_table || '_title_folded_key', p_table || '_title_lower_key');
$$;
revoke execute on function private.is_title_violation(text, text) from public, anon;
grant execute on function private.is_title_violation(text, text) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Products (REQ-PROD-3, REQ-PROD-6, REQ-PROD-7)
-- ---------------------------------------------------------------------------------------------

create function public.admin_add_product(
  p_title text,
  p_cat text,
  p_price text,
  p_com text,
  p_image text,
  p_link text
)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_id uuid;
  v_constraint text;
begin
  perform private.require_admin();
  if exists (select 1 from public.products p
              where private.title_key(p.title) = private.title_key(p_title)) then
    return jsonb_build_object('result', 'title_in_use');
  end if;
  begin
    insert into public.products (title, cat, price, com, image, link)
    values (p_title, p_cat, p_price, p_com, p_image, p_link)
    returning id into v_id;
  exception when unique_violation then
    get stacked diagnostics v_constraint = constraint_name;
    if not private.is_title_violation(v_constraint, 'products') then
      raise;
    end if;
    return jsonb_build_object('result', 'title_in_use');
  end;
  return jsonb_build_object('result', 'added', 'id', v_id);
end;
$$;
comment on function public.admin_add_product(text, text, text, text, text, text) is
  'Admins only: adds a product; {"result": "added" | "title_in_use", "id"}.';
revoke execute on function public.admin_add_product(text, text, text, text, text, text)
  from public, anon;
grant execute on function public.admin_add_product(text, text, text, text, text, text)
  to authenticated;

-- Writes the product only if it still has the updated_at Get loaded (optimistic concurrency,
-- migration …0500): otherwise "stale" and nothing is written. The row is locked before the
-- comparison, so a concurrent update either finished before (stale) or waits for this one.
create function public.admin_update_product(
  p_id uuid,
  p_loaded_updated_at timestamptz,
  p_title text,
  p_cat text,
  p_price text,
  p_com text,
  p_image text,
  p_link text
)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_version timestamptz;
  v_before text;
  v_constraint text;
begin
  perform private.require_admin();
  if p_loaded_updated_at is null then
    raise exception 'The version Get loaded is required' using errcode = '22023';
  end if;
  -- The title first, as the form always told it first.
  if exists (select 1 from public.products p
              where private.title_key(p.title) = private.title_key(p_title)
                and p.id <> p_id) then
    return jsonb_build_object('result', 'title_in_use');
  end if;
  select p.updated_at, p.image into v_version, v_before
    from public.products p where p.id = p_id for update;
  if not found then
    return jsonb_build_object('result', 'not_found');
  end if;
  if v_version <> p_loaded_updated_at then
    return jsonb_build_object('result', 'stale');
  end if;
  begin
    update public.products p
       set title = p_title, cat = p_cat, price = p_price, com = p_com, image = p_image,
           link = p_link
     where p.id = p_id;
  exception when unique_violation then
    get stacked diagnostics v_constraint = constraint_name;
    if not private.is_title_violation(v_constraint, 'products') then
      raise;
    end if;
    return jsonb_build_object('result', 'title_in_use');
  end;
  return jsonb_build_object('result', 'changed',
                            'unused_image', private.unused_upload(v_before, p_image));
end;
$$;
comment on function public.admin_update_product(uuid, timestamptz, text, text, text, text, text, text) is
  'Admins only: updates the version Get loaded; {"result": "changed" | "not_found" | "stale" | '
  '"title_in_use", "unused_image"}.';
revoke execute on function
  public.admin_update_product(uuid, timestamptz, text, text, text, text, text, text)
  from public, anon;
grant execute on function
  public.admin_update_product(uuid, timestamptz, text, text, text, text, text, text)
  to authenticated;

create function public.admin_delete_product(p_id uuid)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_before text;
begin
  perform private.require_admin();
  delete from public.products p where p.id = p_id returning p.image into v_before;
  if not found then
    return jsonb_build_object('result', 'not_found');
  end if;
  return jsonb_build_object('result', 'deleted',
                            'unused_image', private.unused_upload(v_before, null));
end;
$$;
comment on function public.admin_delete_product(uuid) is
  'Admins only: deletes a product; {"result": "deleted" | "not_found", "unused_image"}.';
revoke execute on function public.admin_delete_product(uuid) from public, anon;
grant execute on function public.admin_delete_product(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Catagories (REQ-CAT-2, REQ-CAT-4). A rename carries the products along (ON UPDATE CASCADE).
-- ---------------------------------------------------------------------------------------------

create function public.admin_add_catagory(p_title text)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_id uuid;
  v_constraint text;
begin
  perform private.require_admin();
  if exists (select 1 from public.catagories c
              where private.title_key(c.title) = private.title_key(p_title)) then
    return jsonb_build_object('result', 'title_in_use');
  end if;
  begin
    insert into public.catagories (title) values (p_title) returning id into v_id;
  exception when unique_violation then
    get stacked diagnostics v_constraint = constraint_name;
    if not private.is_title_violation(v_constraint, 'catagories') then
      raise;
    end if;
    return jsonb_build_object('result', 'title_in_use');
  end;
  return jsonb_build_object('result', 'added', 'id', v_id);
end;
$$;
comment on function public.admin_add_catagory(text) is
  'Admins only: adds a category; {"result": "added" | "title_in_use", "id"}.';
revoke execute on function public.admin_add_catagory(text) from public, anon;
grant execute on function public.admin_add_catagory(text) to authenticated;

create function public.admin_update_catagory(p_id uuid, p_title text)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_constraint text;
begin
  perform private.require_admin();
  if exists (select 1 from public.catagories c
              where private.title_key(c.title) = private.title_key(p_title)
                and c.id <> p_id) then
    return jsonb_build_object('result', 'title_in_use');
  end if;
  begin
    update public.catagories c set title = p_title where c.id = p_id;
    if not found then
      return jsonb_build_object('result', 'not_found');
    end if;
  exception when unique_violation then
    get stacked diagnostics v_constraint = constraint_name;
    if not private.is_title_violation(v_constraint, 'catagories') then
      raise;
    end if;
    return jsonb_build_object('result', 'title_in_use');
  end;
  return jsonb_build_object('result', 'changed');
end;
$$;
comment on function public.admin_update_catagory(uuid, text) is
  'Admins only: renames a category; {"result": "changed" | "not_found" | "title_in_use"}.';
revoke execute on function public.admin_update_catagory(uuid, text) from public, anon;
grant execute on function public.admin_update_catagory(uuid, text) to authenticated;
