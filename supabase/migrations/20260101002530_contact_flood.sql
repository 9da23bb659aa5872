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

alter table public.contact_messages add column digest boolean not null default false;
comment on column public.contact_messages.digest is
  'true: stored after the day''s mail cap was reached; mailed in a digest, not on its own';

-- The day's count of messages mailed on their own: at most p_daily_mail_cap rows to look at.
create index contact_messages_single_day_idx on public.contact_messages (created_at)
  where not digest;

drop function public.contact_submit(text, text, text, text, integer, integer, boolean, integer);

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
