-- Contact messages. The `contact` edge function stores every message a visitor sends here BEFORE
-- any e-mail is attempted, so a mail outage loses nothing; the row then records the delivery
-- outcome, and `npm run contact:retry` (POST /functions/v1/contact/retry) re-sends what failed.
--
-- Access: only the service role (the edge function) writes; admins read through the Data API
-- (RLS, private.is_admin()); anon and other signed-in users see and change nothing.
-- Privileges are explicit (revoke, then grant) so this behaves the same whether or not the
-- project auto-exposes new tables to the API roles.
--
-- Delivery states:
--   pending  stored, no mail transport was configured yet (sent by the next retry)
--   sending  claimed by one sender (claimed_at); only the claimer may send the mail
--   sent     delivered to the mail provider (sent_at)
--   failed   the last attempt failed (last_error); the next retry claims it again

create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  email text not null,
  message text not null,
  -- The visitor's address as seen through the gateway (x-forwarded-for); NULL when unknown.
  ip inet,
  created_at timestamptz not null default now(),
  delivery_status text not null default 'pending',
  attempts integer not null default 0,
  last_error text,
  claimed_at timestamptz,
  sent_at timestamptz,
  -- true: stored after the day's mail cap was reached; mailed in a digest (contact flood, 0203).
  digest boolean not null default false,
  -- The owner's inbox (REQ-PATH-16): read and archived, changed by admins only.
  is_read boolean not null default false,
  archived boolean not null default false,
  constraint contact_messages_name_check check (
    char_length(name) between 1 and 100
    and name !~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$'
    and name !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]'
  ),
  -- Every stored address came through the function, which has always checked this grammar.
  constraint contact_messages_email_check check (
    char_length(email) <= 254
    and email ~ '^(?:[A-Za-z0-9_''+-]+\.)*[A-Za-z0-9_''+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$'
  ),
  constraint contact_messages_message_check check (
    char_length(message) between 1 and 5000
    and message !~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$'
    and message !~ '[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]'
  ),
  constraint contact_messages_delivery_status_check check (
    delivery_status in ('pending', 'sending', 'sent', 'failed')
  ),
  constraint contact_messages_attempts_check check (attempts >= 0),
  constraint contact_messages_last_error_check check (char_length(last_error) <= 2000),
  -- A claim exists exactly while a sender holds the row; sent_at exactly when it was sent.
  constraint contact_messages_claim_check check ((delivery_status = 'sending') = (claimed_at is not null)),
  constraint contact_messages_sent_check check ((delivery_status = 'sent') = (sent_at is not null))
);
comment on table public.contact_messages is
  'Messages from the Contact Us form. Written only by the contact edge function (service role); '
  'admins read them.';
comment on column public.contact_messages.delivery_status is
  'pending | sending (claimed, see claimed_at) | sent | failed (see last_error)';
-- Admin list, newest first.
create index contact_messages_created_at_idx on public.contact_messages (created_at desc);
-- Rate limits: recent messages per address and per IP.
create index contact_messages_email_recent_idx on public.contact_messages (lower(email), created_at);
create index contact_messages_ip_recent_idx on public.contact_messages (ip, created_at)
  where ip is not null;
-- Retry: only undelivered rows.
create index contact_messages_undelivered_idx on public.contact_messages (created_at)
  where delivery_status <> 'sent';
alter table public.contact_messages enable row level security;
revoke all on table public.contact_messages from public, anon, authenticated, service_role;
grant select on table public.contact_messages to authenticated;
-- service_role bypasses RLS but still needs the table privileges. DELETE lets the store honour
-- data-deletion requests (privacy policy).
grant select, insert, update, delete on table public.contact_messages to service_role;
create policy "Admins read contact messages"
  on public.contact_messages for select to authenticated
  using ((select private.is_admin()));
-- The inbox (REQ-PATH-16): admins mark messages read or unread and archive them. Only those two
-- columns: a visitor's words, address and the delivery record stay as the function stored them.
grant update (is_read, archived) on table public.contact_messages to authenticated;
create policy "Admins mark contact messages"
  on public.contact_messages for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));
comment on column public.contact_messages.is_read is
  'Inbox: an admin has read the message (admins may change it)';
comment on column public.contact_messages.archived is
  'Inbox: archived by an admin, hidden from the inbox (admins may change it)';
-- The tab's unread count: unread messages in the inbox.
create index contact_messages_unread_idx on public.contact_messages (created_at)
  where not is_read and not archived;

-- Messages mailed on their own: as before, but never a digest message.
create or replace function public.contact_claim_undelivered(p_limit integer, p_lease_seconds integer)
returns setof public.contact_messages
language sql
volatile
security invoker
set search_path = ''
as $$
  update public.contact_messages m
     set delivery_status = 'sending',
         claimed_at = now(),
         attempts = m.attempts + 1
   where m.id in (
     select c.id
       from public.contact_messages c
      where not c.digest
        and (c.delivery_status in ('pending', 'failed')
             or (c.delivery_status = 'sending'
                 and c.claimed_at < now() - make_interval(secs => p_lease_seconds)))
      order by c.created_at
      limit greatest(p_limit, 0)
      for update skip locked
   )
  returning m.*;
$$;
comment on function public.contact_claim_undelivered(integer, integer) is
  'Service role only: claim undelivered contact messages for (re)sending.';

-- Records the outcome of a send by the claim holder and releases the claim. Returns false when
-- the row was not claimed (nothing changed).
create function public.contact_record_delivery(p_id uuid, p_sent boolean, p_error text default null)
returns boolean
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  update public.contact_messages m
     set delivery_status = case when p_sent then 'sent' else 'failed' end,
         sent_at = case when p_sent then now() end,
         last_error = case when p_sent then null
                           else left(coalesce(nullif(btrim(p_error), ''), 'unknown error'), 2000) end,
         claimed_at = null
   where m.id = p_id and m.delivery_status = 'sending';
  return found;
end;
$$;
comment on function public.contact_record_delivery(uuid, boolean, text) is
  'Service role only: record a contact e-mail delivery result.';

revoke execute on function public.contact_claim_undelivered(integer, integer)
  from public, anon, authenticated;

revoke execute on function public.contact_record_delivery(uuid, boolean, text)
  from public, anon, authenticated;

grant execute on function public.contact_claim_undelivered(integer, integer) to service_role;

grant execute on function public.contact_record_delivery(uuid, boolean, text) to service_role;

-- Contact messages, round 3: a flood no longer closes the form for everyone nor fills the owner's
-- inbox (docs/decisions/0203).
--
-- Before, the per-IP limit counted each IPv6 address on its own (a /64, what one home or phone is
-- usually given, holds 2^64 of them), and every stored message was one mail: about 60 addresses
-- could keep the overall cap full and send the owner ~43,000 mails a day.
--
--   * Per-source limit: an IPv4 address as before; an IPv6 address by its /64 (an IPv4-mapped
--     IPv6 address counts as its IPv4 address, so the mapped range is not one shared source).
--   * Daily mail cap: contact_submit stores every message, but once p_daily_mail_cap messages of
--     the day (UTC) were taken for mails of their own, further ones are stored with
--     digest = true and are not claimed for a mail of their own. The contact function's retry
--     route (run by `npm run contact:retry`, on hosted by Supabase Cron) claims them with
--     contact_claim_digest and sends them together in one digest mail per run.
--   * contact_claim_undelivered no longer claims digest messages, so a retry cannot send them
--     one by one past the cap.
-- The human check (Cloudflare Turnstile) happens in the function, before contact_submit.

comment on column public.contact_messages.digest is
  'true: stored after the day''s mail cap was reached; mailed in a digest, not on its own';
-- The day's count of messages mailed on their own: at most p_daily_mail_cap rows to look at.
create index contact_messages_single_day_idx on public.contact_messages (created_at)
  where not digest;

-- Returns {"status":"stored","id":...,"created_at":...,"digest":bool}
--      or {"status":"rate_limited","scope":"email"|"ip"|"global","retry_after":<seconds>}.
-- p_daily_mail_cap null: no cap (every message is mailed on its own).
create function public.contact_submit(
  p_name text,
  p_email text,
  p_message text,
  p_ip text,
  p_max integer,
  p_window_seconds integer,
  p_claim boolean,
  p_global_max integer default 30,
  p_daily_mail_cap integer default null
)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_ip inet;
  v_source inet;
  v_since timestamptz := now() - make_interval(secs => p_window_seconds);
  v_minute_ago timestamptz := now() - interval '1 minute';
  v_day_start timestamptz := date_trunc('day', now(), 'UTC');
  v_count integer;
  v_oldest timestamptz;
  v_digest boolean := false;
  v_row public.contact_messages;
begin
  if p_max is null or p_max < 1 or p_window_seconds is null or p_window_seconds < 1
     or p_global_max is null or p_global_max < 1
     or (p_daily_mail_cap is not null and p_daily_mail_cap < 0) then
    raise exception 'contact_submit: p_max, p_window_seconds and p_global_max must be positive, '
      'p_daily_mail_cap null or not negative'
      using errcode = '22023';
  end if;

  -- An unparsable forwarded address is treated as unknown rather than refusing the message.
  begin
    v_ip := nullif(btrim(p_ip), '')::inet;
  exception when others then
    v_ip := null;
  end;
  if v_ip is not null then
    v_ip := host(v_ip)::inet;
    if family(v_ip) = 6 and v_ip <<= '::ffff:0.0.0.0/96'::inet then
      v_ip := '0.0.0.0'::inet + (v_ip - '::ffff:0.0.0.0'::inet);
    end if;
    -- The source the limit counts: the IPv4 address, or the IPv6 address's /64.
    v_source := case when family(v_ip) = 6 then network(set_masklen(v_ip, 64)) else v_ip end;
  end if;

  -- Lock order is always address, source, then the global lock: no deadlocks between submissions.
  perform pg_advisory_xact_lock(hashtextextended('contact_messages:email:' || lower(btrim(p_email)), 0));
  if v_source is not null then
    perform pg_advisory_xact_lock(hashtextextended('contact_messages:ip:' || v_source::text, 0));
  end if;

  select count(*), min(m.created_at) into v_count, v_oldest
    from public.contact_messages m
   where lower(m.email) = lower(btrim(p_email)) and m.created_at > v_since;
  if v_count >= p_max then
    return jsonb_build_object(
      'status', 'rate_limited', 'scope', 'email',
      'retry_after', greatest(1, ceil(extract(epoch from (v_oldest - v_since)))::integer));
  end if;

  if v_source is not null then
    select count(*), min(m.created_at) into v_count, v_oldest
      from public.contact_messages m
     where m.ip <<= v_source and m.created_at > v_since;
    if v_count >= p_max then
      return jsonb_build_object(
        'status', 'rate_limited', 'scope', 'ip',
        'retry_after', greatest(1, ceil(extract(epoch from (v_oldest - v_since)))::integer));
    end if;
  end if;

  -- Taken last and held to commit: one submission at a time counts and inserts.
  perform pg_advisory_xact_lock(hashtextextended('contact_messages:global', 0));
  select count(*), min(m.created_at) into v_count, v_oldest
    from public.contact_messages m
   where m.created_at > v_minute_ago;
  if v_count >= p_global_max then
    return jsonb_build_object(
      'status', 'rate_limited', 'scope', 'global',
      'retry_after', greatest(1, ceil(extract(epoch from (v_oldest - v_minute_ago)))::integer));
  end if;

  -- Under the global lock, so concurrent submissions cannot both take the day's last mail.
  if p_daily_mail_cap is not null then
    select count(*) into v_count
      from (select 1 from public.contact_messages m
             where not m.digest and m.created_at >= v_day_start
             limit p_daily_mail_cap) s;
    v_digest := v_count >= p_daily_mail_cap;
  end if;

  insert into public.contact_messages
    (name, email, message, ip, digest, delivery_status, attempts, claimed_at)
  values (
    btrim(p_name), btrim(p_email), btrim(p_message), v_ip, v_digest,
    case when p_claim and not v_digest then 'sending' else 'pending' end,
    case when p_claim and not v_digest then 1 else 0 end,
    case when p_claim and not v_digest then now() end
  )
  returning * into v_row;

  return jsonb_build_object(
    'status', 'stored', 'id', v_row.id, 'created_at', v_row.created_at, 'digest', v_row.digest);
end;
$$;
comment on function public.contact_submit(text, text, text, text, integer, integer, boolean, integer, integer) is
  'Service role only: rate-limited insert of a contact message (per address, per IPv4 address '
  'or IPv6 /64, overall per minute); past the daily mail cap the message waits for a digest.';

-- Claims up to p_limit undelivered digest messages, oldest first, for one digest mail. The same
-- claim rules as contact_claim_undelivered: a row goes to exactly one sender, and a claim left
-- by a sender that died is taken over after p_lease_seconds.
create function public.contact_claim_digest(p_limit integer, p_lease_seconds integer)
returns setof public.contact_messages
language sql
volatile
security invoker
set search_path = ''
as $$
  update public.contact_messages m
     set delivery_status = 'sending',
         claimed_at = now(),
         attempts = m.attempts + 1
   where m.id in (
     select c.id
       from public.contact_messages c
      where c.digest
        and (c.delivery_status in ('pending', 'failed')
             or (c.delivery_status = 'sending'
                 and c.claimed_at < now() - make_interval(secs => p_lease_seconds)))
      order by c.created_at
      limit greatest(p_limit, 0)
      for update skip locked
   )
  returning m.*;
$$;
comment on function public.contact_claim_digest(integer, integer) is
  'Service role only: claim digest contact messages (over the daily mail cap) for one digest mail.';

-- Records the outcome of one digest mail for all its messages and releases their claims.
-- Returns how many rows were claimed and are now recorded.
create function public.contact_record_digest(p_ids uuid[], p_sent boolean, p_error text default null)
returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_count integer;
begin
  update public.contact_messages m
     set delivery_status = case when p_sent then 'sent' else 'failed' end,
         sent_at = case when p_sent then now() end,
         last_error = case when p_sent then null
                           else left(coalesce(nullif(btrim(p_error), ''), 'unknown error'), 2000) end,
         claimed_at = null
   where m.id = any(p_ids) and m.digest and m.delivery_status = 'sending';
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
comment on function public.contact_record_digest(uuid[], boolean, text) is
  'Service role only: record the delivery result of one digest mail.';

revoke execute on function public.contact_submit(text, text, text, text, integer, integer, boolean, integer, integer)
  from public, anon, authenticated;

revoke execute on function public.contact_claim_digest(integer, integer)
  from public, anon, authenticated;

revoke execute on function public.contact_record_digest(uuid[], boolean, text)
  from public, anon, authenticated;

grant execute on function public.contact_submit(text, text, text, text, integer, integer, boolean, integer, integer)
  to service_role;

grant execute on function public.contact_claim_digest(integer, integer) to service_role;

grant execute on function public.contact_record_digest(uuid[], boolean, text) to service_role;

-- Retention (docs/decisions/0214): a message is deleted 12 months after it was sent, as the
-- Privacy Policy says, and its sender's IP address is cleared after 7 days: the address is only
-- needed for the form's limits (CONTACT_RATE_LIMIT_WINDOW_SECONDS, at most 7 days). Both happen
-- whenever a message is stored (a statement trigger) and, where Supabase Cron (pg_cron) is
-- enabled, once a day, so they also happen when nobody writes.
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

revoke execute on function private.contact_message_retention() from public, anon, authenticated,
  service_role;
revoke execute on function private.contact_address_retention() from public, anon, authenticated,
  service_role;

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

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    execute $cron$select cron.schedule('forget-old-contact-messages', '17 3 * * *',
      'select private.forget_old_contact_messages()')$cron$;
  end if;
end;
$$;
