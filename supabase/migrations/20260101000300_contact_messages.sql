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
  constraint contact_messages_name_check check (
    name = btrim(name) and char_length(name) between 1 and 100 and name !~ '[[:cntrl:]]'
  ),
  constraint contact_messages_email_check check (
    email = btrim(email)
    and char_length(email) between 3 and 254
    and email ~ '^[^@[:space:][:cntrl:]]+@[^@[:space:][:cntrl:]]+$'
  ),
  constraint contact_messages_message_check check (
    message = btrim(message) and char_length(message) between 1 and 5000
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

-- ---------------------------------------------------------------------------------------------
-- Functions the edge function calls (supabase.rpc with the service role). Invoker rights: they
-- only do what the service role may do anyway, in one transaction each. Not callable by
-- anon/authenticated.
-- ---------------------------------------------------------------------------------------------

-- Stores a message unless the address or the IP already sent p_max messages within the last
-- p_window_seconds. Advisory locks serialise submissions per address and per IP so concurrent
-- requests cannot slip past the limit. With p_claim the row is stored already claimed
-- ('sending') by the caller, who sends the mail right away.
-- Returns {"status":"stored","id":...,"created_at":...}
--      or {"status":"rate_limited","scope":"email"|"ip","retry_after":<seconds>}.
create function public.contact_submit(
  p_name text,
  p_email text,
  p_message text,
  p_ip text,
  p_max integer,
  p_window_seconds integer,
  p_claim boolean
)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_ip inet;
  v_since timestamptz := now() - make_interval(secs => p_window_seconds);
  v_count integer;
  v_oldest timestamptz;
  v_row public.contact_messages;
begin
  if p_max is null or p_max < 1 or p_window_seconds is null or p_window_seconds < 1 then
    raise exception 'contact_submit: p_max and p_window_seconds must be positive'
      using errcode = '22023';
  end if;

  -- An unparsable forwarded address is treated as unknown rather than refusing the message.
  begin
    v_ip := nullif(btrim(p_ip), '')::inet;
  exception when others then
    v_ip := null;
  end;

  -- Lock order is always address, then IP: no deadlocks between concurrent submissions.
  perform pg_advisory_xact_lock(hashtextextended('contact_messages:email:' || lower(btrim(p_email)), 0));
  if v_ip is not null then
    perform pg_advisory_xact_lock(hashtextextended('contact_messages:ip:' || host(v_ip), 0));
  end if;

  select count(*), min(m.created_at) into v_count, v_oldest
    from public.contact_messages m
   where lower(m.email) = lower(btrim(p_email)) and m.created_at > v_since;
  if v_count >= p_max then
    return jsonb_build_object(
      'status', 'rate_limited', 'scope', 'email',
      'retry_after', greatest(1, ceil(extract(epoch from (v_oldest - v_since)))::integer));
  end if;

  if v_ip is not null then
    select count(*), min(m.created_at) into v_count, v_oldest
      from public.contact_messages m
     where m.ip = v_ip and m.created_at > v_since;
    if v_count >= p_max then
      return jsonb_build_object(
        'status', 'rate_limited', 'scope', 'ip',
        'retry_after', greatest(1, ceil(extract(epoch from (v_oldest - v_since)))::integer));
    end if;
  end if;

  insert into public.contact_messages (name, email, message, ip, delivery_status, attempts, claimed_at)
  values (
    btrim(p_name), btrim(p_email), btrim(p_message), v_ip,
    case when p_claim then 'sending' else 'pending' end,
    case when p_claim then 1 else 0 end,
    case when p_claim then now() end
  )
  returning * into v_row;

  return jsonb_build_object('status', 'stored', 'id', v_row.id, 'created_at', v_row.created_at);
end;
$$;
comment on function public.contact_submit(text, text, text, text, integer, integer, boolean) is
  'Service role only: rate-limited insert of a contact message.';

-- Claims up to p_limit undelivered messages for sending: pending and failed ones, and ones stuck
-- in 'sending' for longer than p_lease_seconds (their sender died before recording a result).
-- The update is the claim: concurrent callers skip rows another caller has locked, and a claimed
-- row is no longer pending/failed, so each claimed row goes to exactly one sender.
create function public.contact_claim_undelivered(p_limit integer, p_lease_seconds integer)
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
      where c.delivery_status in ('pending', 'failed')
         or (c.delivery_status = 'sending'
             and c.claimed_at < now() - make_interval(secs => p_lease_seconds))
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

revoke execute on function public.contact_submit(text, text, text, text, integer, integer, boolean)
  from public, anon, authenticated;
revoke execute on function public.contact_claim_undelivered(integer, integer)
  from public, anon, authenticated;
revoke execute on function public.contact_record_delivery(uuid, boolean, text)
  from public, anon, authenticated;
grant execute on function public.contact_submit(text, text, text, text, integer, integer, boolean)
  to service_role;
grant execute on function public.contact_claim_undelivered(integer, integer) to service_role;
grant execute on function public.contact_record_delivery(uuid, boolean, text) to service_role;
