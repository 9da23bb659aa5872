-- The privacy page's retention facts, enforced here and named once (docs/decisions/0214).
--
-- 1. Contact messages were kept for ever, and with them the sender's IP address, although the
--    Privacy Policy promised about a year and the address is only needed for the form's limits
--    (CONTACT_RATE_LIMIT_WINDOW_SECONDS, at most 7 days). Now a message is deleted 12 months
--    after it was sent, and its address is cleared after 7 days. Both happen whenever a message
--    is stored (a statement trigger) and, where Supabase Cron (pg_cron) is enabled, once a day,
--    so they also happen when nobody writes.
-- 2. The Buy Now working tables keep what identifies a source or a page view for fixed times
--    (a source's per-minute counter 2 minutes, a page view a day, a (source, product) pair the
--    repeat window of 30 minutes, a day's salt until the day ends). Those times were literals
--    inside private.wipe_click_sources(); they are named functions now, so the page and its
--    tests read the same values the clean-up uses.
-- Each retention is a named constant (not a setting), like private.click_repeat_window(): no
-- caller can change it, and tests/integration/privacy-facts.test.ts compares every one with
-- src/features/pages/privacyFacts.ts, the module the Privacy Policy page renders.

create function private.contact_message_retention()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '12 months';
$$;

create function private.contact_address_retention()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '7 days';
$$;

create function private.click_source_counter_retention()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '2 minutes';
$$;

create function private.click_page_view_retention()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '1 day';
$$;

revoke execute on function private.contact_message_retention() from public, anon, authenticated,
  service_role;
revoke execute on function private.contact_address_retention() from public, anon, authenticated,
  service_role;
revoke execute on function private.click_source_counter_retention() from public, anon,
  authenticated, service_role;
revoke execute on function private.click_page_view_retention() from public, anon, authenticated,
  service_role;

-- As migration …2100, with the named retentions.
create or replace function private.wipe_click_sources()
returns void
language sql
security definer
set search_path = ''
as $$
  delete from private.click_source_minutes
   where minute < now() - private.click_source_counter_retention();
  delete from private.click_repeats where seen_at < now() - private.click_repeat_window();
  delete from private.click_page_views where seen_at < now() - private.click_page_view_retention();
  delete from private.click_salts where day < private.click_today();
$$;
revoke execute on function private.wipe_click_sources() from public, anon, authenticated;

-- Deletes contact messages past their retention and clears the address of those past its own.
create function private.forget_old_contact_messages()
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.contact_messages
   where created_at < now() - private.contact_message_retention();
  update public.contact_messages set ip = null
   where ip is not null and created_at < now() - private.contact_address_retention();
$$;
revoke execute on function private.forget_old_contact_messages() from public, anon,
  authenticated, service_role;

create function private.forget_old_contact_messages_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.forget_old_contact_messages();
  return null;
end;
$$;
revoke execute on function private.forget_old_contact_messages_trigger() from public, anon,
  authenticated, service_role;

create trigger contact_messages_forget_old
  after insert on public.contact_messages
  for each statement execute function private.forget_old_contact_messages_trigger();

-- What a new message needs no longer: the existing ones are brought in line now.
select private.forget_old_contact_messages();

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    execute $cron$select cron.schedule('forget-old-contact-messages', '17 3 * * *',
      'select private.forget_old_contact_messages()')$cron$;
  end if;
end;
$$;
