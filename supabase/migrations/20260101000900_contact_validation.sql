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

-- ---------------------------------------------------------------------------------------------
-- Character rules, identical to the contact function's (supabase/functions/contact/text-rules.ts
-- and schema.ts). Before, the table refused C1 controls such as U+0085 that the function let
-- through (a 500, nothing stored), and both let text-direction overrides (U+202E) and line
-- separators (U+2028) into names.
--   whitespace at either end: none (the function trims with String.prototype.trim, whose
--     whitespace set is the class below; btrim only knew the ASCII space)
--   name: 1..100 characters; no C0/DEL/C1 controls, no direction marks, embeddings, overrides or
--     isolates (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), no U+2028/U+2029
--   email: at most 254 characters and the function's e-mail grammar (zod's, ASCII only)
--   message: 1..5000 characters; no controls other than tab, line feed and carriage return
-- char_length counts characters (code points), as the function now does.
-- ---------------------------------------------------------------------------------------------

-- Existing rows stored before these rules: drop the now-refused invisible characters from names
-- and messages and trim them, so the new checks hold for every row (an update of the delivery
-- state rechecks the whole row).
update public.contact_messages
   set name = coalesce(nullif(regexp_replace(
                regexp_replace(name,
                  '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]', '', 'g'),
                '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
                '', 'g'), ''), '?')
 where name ~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]'
    or name ~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$';

update public.contact_messages
   set message = coalesce(nullif(regexp_replace(
                   regexp_replace(message, '[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]', '', 'g'),
                   '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
                   '', 'g'), ''), '?')
 where message ~ '[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]'
    or message ~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$';

alter table public.contact_messages
  drop constraint contact_messages_name_check,
  drop constraint contact_messages_email_check,
  drop constraint contact_messages_message_check;

alter table public.contact_messages
  add constraint contact_messages_name_check check (
    char_length(name) between 1 and 100
    and name !~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$'
    and name !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]'
  ),
  -- Every stored address came through the function, which has always checked this grammar.
  add constraint contact_messages_email_check check (
    char_length(email) <= 254
    and email ~ '^(?:[A-Za-z0-9_''+-]+\.)*[A-Za-z0-9_''+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$'
  ),
  add constraint contact_messages_message_check check (
    char_length(message) between 1 and 5000
    and message !~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$'
    and message !~ '[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]'
  );
