-- Store settings in the database (docs/decisions/0211, superseding 0162's build-time values):
-- the store's name, contact e-mail, public address, social pages ("Follow us"), the Buy Now
-- disclosure text, and who runs the shop (E-Commerce Regulations 2002 reg. 6: trader's name,
-- geographic address, e-mail address, company and VAT numbers where they exist).
--
-- - One row (id true, as link_health_settings): nobody adds or removes rows, so every reader
--   finds exactly one and the SPA, the pre-rendered pages and the host function read the same.
-- - Everyone reads it as a table: every field is public (shown on the site anyway). One row and
--   no foreign keys, so no embedding or filter can make an anonymous read cost more than a
--   primary-key lookup (docs/decisions/0202).
-- - Admins (private.is_admin()) change it; the service role too. The values are checked here,
--   whatever the client sends, with messages an admin can act on (the Settings tab shows them
--   under the field named in the error's hint).
-- - Changes are logged like a product's: kind 'settings_changed', the changed fields only.

create table public.store_settings (
  id boolean primary key default true constraint store_settings_one_row check (id),
  store_name text not null default 'MAR Online Store UK',
  contact_email text not null default 'privacy@mar-online-store.co.uk',
  -- The public address without a trailing slash; null: the address the page was loaded from.
  site_url text,
  instagram_url text,
  facebook_url text,
  x_url text,
  tiktok_url text,
  youtube_url text,
  disclosure_text text not null default
    'Ad: we earn a commission from the seller when you buy through our links. It does not change the price you pay.',
  -- Who runs the shop (reg. 6). Null until the owner enters them: the site then shows what it has.
  trader_name text,
  trader_address text,
  company_number text,
  vat_number text,
  updated_at timestamptz not null default now(),
  -- Offer freshness (REQ-OFF-3; docs/decisions/0230): a price confirmed longer ago than the
  -- first is "stale" (never in "from £X" or price order); past the second it is not shown at all.
  price_stale_after_days integer not null default 7,
  price_hidden_after_days integer not null default 30,
  -- Every admin must sign in with a second factor (REQ-MFA-2; docs/decisions/0251): an admin
  -- without a verified factor has no admin rights until they enrol one (010_admins.sql).
  admins_require_mfa boolean not null default false
);
comment on table public.store_settings is
  'The store''s own details (one row): everyone reads them, admins change them.';
insert into public.store_settings (id) values (true);
alter table public.store_settings enable row level security;
revoke all on table public.store_settings from public, anon, authenticated, service_role;
grant select on table public.store_settings to anon, authenticated, service_role;
grant update (
  store_name, contact_email, site_url, instagram_url, facebook_url, x_url, tiktok_url,
  youtube_url, disclosure_text, trader_name, trader_address, company_number, vat_number,
  price_stale_after_days, price_hidden_after_days, admins_require_mfa
) on table public.store_settings to authenticated, service_role;
create policy "Everyone reads the store settings"
  on public.store_settings for select to anon, authenticated
  using (true);
create policy "Admins change the store settings"
  on public.store_settings for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

-- Tidies and checks every value. errcode 23514 (check violation); the hint names the column.
create function private.store_settings_check()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_url text := '^https?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?(/[^[:space:]]*)?$';
  v_email text := '^(?:[A-Za-z0-9_''+-]+\.)*[A-Za-z0-9_''+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$';
  v_social record;
begin
  new.store_name := btrim(coalesce(new.store_name, ''));
  new.contact_email := btrim(coalesce(new.contact_email, ''));
  new.disclosure_text := btrim(coalesce(new.disclosure_text, ''));
  -- Optional fields: blank means "none".
  new.site_url := rtrim(nullif(btrim(new.site_url), ''), '/');
  new.instagram_url := nullif(btrim(new.instagram_url), '');
  new.facebook_url := nullif(btrim(new.facebook_url), '');
  new.x_url := nullif(btrim(new.x_url), '');
  new.tiktok_url := nullif(btrim(new.tiktok_url), '');
  new.youtube_url := nullif(btrim(new.youtube_url), '');
  new.trader_name := nullif(btrim(new.trader_name), '');
  new.trader_address := nullif(btrim(new.trader_address), '');
  -- Numbers are compared and shown without spaces, in capitals (SC123456, GB123456789).
  new.company_number := nullif(upper(replace(new.company_number, ' ', '')), '');
  new.vat_number := nullif(upper(replace(new.vat_number, ' ', '')), '');

  if char_length(new.store_name) not between 1 and 80 then
    raise exception 'The store''s name must be 1 to 80 characters'
      using errcode = '23514', hint = 'store_name';
  end if;
  if char_length(new.contact_email) > 254 or new.contact_email !~ v_email then
    raise exception 'The contact e-mail must be an e-mail address such as shop@example.co.uk'
      using errcode = '23514', hint = 'contact_email';
  end if;
  if new.site_url is not null and (char_length(new.site_url) > 300 or new.site_url !~ v_url) then
    raise exception 'The site''s address must start with https:// or http:// (for example https://www.example.co.uk)'
      using errcode = '23514', hint = 'site_url';
  end if;
  for v_social in
    select * from (values
      ('instagram_url', 'Instagram', new.instagram_url),
      ('facebook_url', 'Facebook', new.facebook_url),
      ('x_url', 'X', new.x_url),
      ('tiktok_url', 'TikTok', new.tiktok_url),
      ('youtube_url', 'YouTube', new.youtube_url)
    ) s (col, label, url)
  loop
    if v_social.url is not null and (char_length(v_social.url) > 300 or v_social.url !~ v_url) then
      raise exception 'The % page must be a web address starting with https:// or http://', v_social.label
        using errcode = '23514', hint = v_social.col;
    end if;
  end loop;
  if char_length(new.disclosure_text) not between 1 and 300 then
    raise exception 'The disclosure text must be 1 to 300 characters'
      using errcode = '23514', hint = 'disclosure_text';
  end if;
  if char_length(new.trader_name) > 120 then
    raise exception 'The trader''s name must be at most 120 characters'
      using errcode = '23514', hint = 'trader_name';
  end if;
  if char_length(new.trader_address) > 300 then
    raise exception 'The trader''s address must be at most 300 characters'
      using errcode = '23514', hint = 'trader_address';
  end if;
  if new.company_number !~ '^[A-Z0-9]{8}$' then
    raise exception 'The company number must be the 8 characters Companies House gives (for example 01234567 or SC123456)'
      using errcode = '23514', hint = 'company_number';
  end if;
  if new.vat_number !~ '^GB([0-9]{9}|[0-9]{12}|GD[0-9]{3}|HA[0-9]{3})$' then
    raise exception 'The VAT number must be a UK VAT number such as GB123456789'
      using errcode = '23514', hint = 'vat_number';
  end if;
  if new.price_stale_after_days is null or new.price_stale_after_days not between 1 and 365 then
    raise exception 'A price is stale after 1 to 365 days'
      using errcode = '23514', hint = 'price_stale_after_days';
  end if;
  if new.price_hidden_after_days is null
     or new.price_hidden_after_days not between new.price_stale_after_days and 3650 then
    raise exception 'A price is hidden after at least as many days as it is stale after, and at most 3650'
      using errcode = '23514', hint = 'price_hidden_after_days';
  end if;
  new.updated_at := now();
  return new;
end;
$$;
revoke execute on function private.store_settings_check() from public, anon, authenticated;

create trigger store_settings_check
  before insert or update on public.store_settings
  for each row execute function private.store_settings_check();

-- Nobody deletes the row, whatever grants a role gets later (the SPA always finds one).
create function private.store_settings_keep_row()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'The store settings row cannot be deleted' using errcode = '42501';
end;
$$;
revoke execute on function private.store_settings_keep_row() from public, anon, authenticated;

create trigger store_settings_keep_row
  before delete on public.store_settings
  for each row execute function private.store_settings_keep_row();

-- SECURITY DEFINER for the same reasons as private.log_catalogue_change (no INSERT grant on the
-- log; the actor's e-mail from auth.users).
create function private.log_settings_change()
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
  insert into public.activity_log (actor, actor_email, kind, subject, before, after)
  select v_actor, v_email, 'settings_changed', 'Store settings', d.before, d.after
    from (
      select (select jsonb_object_agg(f.key, o_fields.v -> f.key)
                from jsonb_each(n_fields.v) f
               where f.value is distinct from o_fields.v -> f.key) as before,
             (select jsonb_object_agg(f.key, f.value)
                from jsonb_each(n_fields.v) f
               where f.value is distinct from o_fields.v -> f.key) as after
        from new_rows n
        join old_rows o on o.id = n.id
        cross join lateral (select to_jsonb(n) - array['id', 'updated_at'] as v) n_fields
        cross join lateral (select to_jsonb(o) - array['id', 'updated_at'] as v) o_fields
    ) d
   where d.after is not null;
  return null;
end;
$$;
revoke execute on function private.log_settings_change() from public, anon, authenticated;

create trigger store_settings_log_update after update on public.store_settings
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.log_settings_change();
