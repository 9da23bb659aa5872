-- The owner's inbox for contact messages (REQ-PATH-16; written by `npm run db:diff -- contact_inbox`
-- from supabase/schemas/030_contact.sql). The Messages tab showed every message ever received with
-- no way to tell the new ones from the handled ones. Now each message is read or unread and may be
-- archived; the state lives here so every admin sees the same inbox. Admins (RLS,
-- private.is_admin()) may change only these two columns (a column grant): the visitor's words,
-- address and the delivery record stay as the contact function stored them.

alter table "public"."contact_messages" add column "is_read" boolean not null default false;

alter table "public"."contact_messages" add column "archived" boolean not null default false;

comment on column "public"."contact_messages"."is_read" is
  'Inbox: an admin has read the message (admins may change it)';

comment on column "public"."contact_messages"."archived" is
  'Inbox: archived by an admin, hidden from the inbox (admins may change it)';

grant update ("is_read", "archived") on table "public"."contact_messages" to "authenticated";

-- The tab's unread count: unread messages in the inbox.
CREATE INDEX contact_messages_unread_idx ON public.contact_messages USING btree (created_at) WHERE ((NOT is_read) AND (NOT archived));

create policy "Admins mark contact messages"
  on "public"."contact_messages"
  as permissive
  for update
  to authenticated
using (( SELECT private.is_admin() AS is_admin))
with check (( SELECT private.is_admin() AS is_admin));
