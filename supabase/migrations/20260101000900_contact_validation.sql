-- Contact messages, round 2: an overall cap per minute in the insert path, and character rules
-- that match the contact function's validation exactly (tests/integration/contact-validation
-- feeds the same generated inputs to both).

-- ---------------------------------------------------------------------------------------------
-- Overall cap. The per-address and per-IP limits do not stop a sender who rotates addresses
-- (an IPv6 /64 alone has 2^64), so contact_submit also refuses a message when the whole table
-- took p_global_max messages in the last minute. The count lives here, not in the function: on
-- hosted Supabase every function instance has its own memory, while the database is one place
-- and the advisory lock serialises the count-then-insert across all of them.
-- ---------------------------------------------------------------------------------------------
drop function public.contact_submit(text, text, text, text, integer, integer, boolean);

-- Returns {"status":"stored","id":...,"created_at":...}
--      or {"status":"rate_limited","scope":"email"|"ip"|"global","retry_after":<seconds>}.
create function public.contact_submit(
  p_name text,
  p_email text,
  p_message text,
  p_ip text,
  p_max integer,
  p_window_seconds integer,
  p_claim boolean,
  p_global_max integer default 30
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
  v_minute_ago timestamptz := now() - interval '1 minute';
  v_count integer;
  v_oldest timestamptz;
  v_row public.contact_messages;
begin
  if p_max is null or p_max < 1 or p_window_seconds is null or p_window_seconds < 1
     or p_global_max is null or p_global_max < 1 then
    raise exception 'contact_submit: p_max, p_window_seconds and p_global_max must be positive'
      using errcode = '22023';
  end if;

  -- An unparsable forwarded address is treated as unknown rather than refusing the message.
  begin
    v_ip := nullif(btrim(p_ip), '')::inet;
  exception when others then
    v_ip := null;
  end;

  -- Lock order is always address, IP, then the global lock: no deadlocks between submissions.
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
comment on function public.contact_submit(text, text, text, text, integer, integer, boolean, integer) is
  'Service role only: rate-limited insert of a contact message (per address, per IP, overall per minute).';

revoke execute on function public.contact_submit(text, text, text, text, integer, integer, boolean, integer)
  from public, anon, authenticated;
grant execute on function public.contact_submit(text, text, text, text, integer, integer, boolean, integer)
  to service_role;
