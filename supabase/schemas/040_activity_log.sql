-- Activity log (REQ-LOG-1; docs/decisions/0070): who added, changed or deleted which product or category, and who
-- invited, withdrew, confirmed or removed which admin, and when. Written only by triggers in this
-- file; readable by admins only; append-only for everyone who reaches the database through the
-- API (docs/decisions/0070-activity-log.md).
--
-- - actor is auth.uid() of the request that made the change, read inside the trigger. A client
--   cannot send it: the API roles have no INSERT on the table at all, and the claims auth.uid()
--   reads come from a JWT the gateway/PostgREST verified. NULL means "no signed-in account": the
--   service role key, the Auth server's confirmation trigger, or SQL run by the owner. The SPA
--   shows it as "System".
-- - Statement-level triggers with transition tables: a bulk write (CSV import of 10,000 rows) runs
--   the trigger once and writes its entries with one INSERT ... SELECT; the actor is looked up
--   once per statement, not per row (bench/activity-log.ts measures the cost).
-- - No foreign keys: an entry outlives the product, category or account it names (an ON DELETE
--   SET NULL would also be an UPDATE, which the log refuses). subject, actor_email and the before
--   and after values are copies taken at the time.

create table public.activity_log (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  actor uuid,
  actor_email text,
  kind text not null,
  -- Set for product entries only: the "by product" filter.
  product_id uuid,
  -- Product or category title, or the admin's e-mail, as it was at the time.
  subject text not null,
  -- Insert: the new row's fields in after; delete: the old row's in before; update: only the
  -- fields that changed, in both.
  before jsonb,
  after jsonb,
  constraint activity_log_kind_check check (
    kind in (
      'product_added', 'product_changed', 'product_deleted',
      'category_added', 'category_changed', 'category_deleted',
      'admin_invited', 'invite_withdrawn', 'admin_confirmed', 'admin_removed',
      'admin_factor_removed',
      'settings_changed',
      'offer_added', 'offer_changed', 'offer_removed',
      'seller_added', 'seller_changed', 'seller_removed',
      'feed_added', 'feed_changed', 'feed_removed', 'feed_run'
    )
  )
);
comment on table public.activity_log is
  'Append-only record of catalogue and admin changes, written by triggers. Admins read it.';
comment on column public.activity_log.actor is
  'auth.uid() of the request that made the change; NULL = no signed-in account (system).';
-- Keyset paging newest first ("id < cursor order by id desc"): the primary key for the whole log,
-- and one index per filter so a filtered page is an index range scan too.
create index activity_log_actor_idx on public.activity_log (actor, id desc);
create index activity_log_kind_idx on public.activity_log (kind, id desc);
create index activity_log_product_idx on public.activity_log (product_id, id desc)
  where product_id is not null;
alter table public.activity_log enable row level security;
revoke all on table public.activity_log from public, anon, authenticated, service_role;
grant select on table public.activity_log to authenticated, service_role;
create policy "Admins read the activity log"
  on public.activity_log for select to authenticated
  using ((select private.is_admin()));

-- Append-only also for roles that get past the grants (the owner, a future grant by mistake):
-- UPDATE, DELETE and TRUNCATE fail. Only the owner can drop this trigger, in a migration.
create function private.activity_log_refuse_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'The activity log is append-only' using errcode = '42501';
end;
$$;
revoke execute on function private.activity_log_refuse_change() from public, anon, authenticated;

create trigger activity_log_refuse_update_delete
  before update or delete on public.activity_log
  for each row execute function private.activity_log_refuse_change();
create trigger activity_log_refuse_truncate
  before truncate on public.activity_log
  for each statement execute function private.activity_log_refuse_change();

-- The activity log records what an admin typed: the slug and the offer summary (140_offers.sql)
-- are the database's bookkeeping, like updated_at.
create or replace function private.activity_fields(p_row jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select p_row - array['id', 'created_at', 'updated_at', 'price_value', 'search_text', 'slug',
                       'offer_count', 'price_checked_at', 'price_fresh_until', 'buy_offer_id',
                       'buy_link', 'buy_seller'];
$$;
revoke execute on function private.activity_fields(jsonb) from public, anon, authenticated;

-- Products and categories. SECURITY DEFINER: the log has no INSERT grant for the caller, and the
-- actor's e-mail is read from auth.users.
create function private.log_catalogue_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_email text;
  v_prefix text := case tg_table_name when 'products' then 'product' else 'category' end;
  v_products boolean := tg_table_name = 'products';
begin
  -- The offer summary's own writes (140_offers.sql) change nothing an admin typed.
  if current_setting('offers.summary_write', true) = 'on' then
    return null;
  end if;
  if v_actor is not null then
    select u.email into v_email from auth.users u where u.id = v_actor;
  end if;

  if tg_op = 'INSERT' then
    insert into public.activity_log (actor, actor_email, kind, product_id, subject, after)
    select v_actor, v_email, v_prefix || '_added', case when v_products then n.id end, n.title,
           private.activity_fields(to_jsonb(n))
      from new_rows n;
  elsif tg_op = 'DELETE' then
    insert into public.activity_log (actor, actor_email, kind, product_id, subject, before)
    select v_actor, v_email, v_prefix || '_deleted', case when v_products then o.id end, o.title,
           private.activity_fields(to_jsonb(o))
      from old_rows o;
  else
    -- id cannot change (catalogue_before_update), so old and new rows pair up by id. An update
    -- that changes no field the admin sees writes no entry.
    insert into public.activity_log (actor, actor_email, kind, product_id, subject, before, after)
    select v_actor, v_email, v_prefix || '_changed', case when v_products then d.id end, d.title,
           d.before, d.after
      from (
        select n.id, n.title,
               (select jsonb_object_agg(f.key, o_fields.v -> f.key)
                  from jsonb_each(n_fields.v) f
                 where f.value is distinct from o_fields.v -> f.key) as before,
               (select jsonb_object_agg(f.key, f.value)
                  from jsonb_each(n_fields.v) f
                 where f.value is distinct from o_fields.v -> f.key) as after
          from new_rows n
          join old_rows o on o.id = n.id
          cross join lateral (select private.activity_fields(to_jsonb(n)) as v) n_fields
          cross join lateral (select private.activity_fields(to_jsonb(o)) as v) o_fields
      ) d
     where d.after is not null;
  end if;
  return null;
end;
$$;
revoke execute on function private.log_catalogue_change() from public, anon, authenticated;

create trigger products_log_insert after insert on public.products
  referencing new table as new_rows
  for each statement execute function private.log_catalogue_change();
create trigger products_log_update after update on public.products
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.log_catalogue_change();
create trigger products_log_delete after delete on public.products
  referencing old table as old_rows
  for each statement execute function private.log_catalogue_change();

create trigger catagories_log_insert after insert on public.catagories
  referencing new table as new_rows
  for each statement execute function private.log_catalogue_change();
create trigger catagories_log_update after update on public.catagories
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.log_catalogue_change();
create trigger catagories_log_delete after delete on public.catagories
  referencing old table as old_rows
  for each statement execute function private.log_catalogue_change();

-- Admin events. admin_invites insert = invited; delete of an open invite = withdrawn (a used
-- invite deleted as housekeeping is not an event). admins insert = confirmed (the confirmation
-- trigger inside the Auth server, so actor NULL); admins delete = removed.
create function private.log_admin_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_email text;
begin
  if v_actor is not null then
    select u.email into v_email from auth.users u where u.id = v_actor;
  end if;

  if tg_table_name = 'admin_invites' and tg_op = 'INSERT' then
    insert into public.activity_log (actor, actor_email, kind, subject)
    select v_actor, v_email, 'admin_invited', n.email from new_rows n;
  elsif tg_table_name = 'admin_invites' then
    insert into public.activity_log (actor, actor_email, kind, subject)
    select v_actor, v_email, 'invite_withdrawn', o.email from old_rows o
     where o.accepted_at is null;
  elsif tg_op = 'INSERT' then
    insert into public.activity_log (actor, actor_email, kind, subject)
    select v_actor, v_email, 'admin_confirmed', n.email from new_rows n;
  else
    insert into public.activity_log (actor, actor_email, kind, subject)
    select v_actor, v_email, 'admin_removed', o.email from old_rows o;
  end if;
  return null;
end;
$$;
revoke execute on function private.log_admin_change() from public, anon, authenticated;

create trigger admin_invites_log_insert after insert on public.admin_invites
  referencing new table as new_rows
  for each statement execute function private.log_admin_change();
create trigger admin_invites_log_delete after delete on public.admin_invites
  referencing old table as old_rows
  for each statement execute function private.log_admin_change();

create trigger admins_log_insert after insert on public.admins
  referencing new table as new_rows
  for each statement execute function private.log_admin_change();
create trigger admins_log_delete after delete on public.admins
  referencing old table as old_rows
  for each statement execute function private.log_admin_change();

-- ---------------------------------------------------------------------------------------------
-- Activity log: a settings change is an entry like a product change (the changed fields only).
-- ---------------------------------------------------------------------------------------------
