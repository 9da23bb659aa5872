-- Optimistic concurrency for the admin Products tab: every product carries updated_at, set by
-- the database on insert and on every update (never by a client). The admin form remembers the
-- updated_at it loaded with Get Product and updates only `where updated_at = <loaded>`, so two
-- admins editing the same product cannot silently overwrite each other: the second one is told
-- the product changed since Get.

alter table public.products add column updated_at timestamptz not null default now();
comment on column public.products.updated_at is
  'Set by the database on every write; the admin form updates only the version it loaded.';

-- clock_timestamp(), not now(): two updates inside one transaction still get different values,
-- and the value always moves forward even if the clock does not.
create function private.products_touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := clock_timestamp();
  if tg_op = 'UPDATE' and new.updated_at <= old.updated_at then
    new.updated_at := old.updated_at + interval '1 microsecond';
  end if;
  return new;
end;
$$;
revoke execute on function private.products_touch_updated_at() from public, anon, authenticated;

create trigger products_touch_updated_at
  before insert or update on public.products
  for each row execute function private.products_touch_updated_at();
