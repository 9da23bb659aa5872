-- The owner's own storefront content (docs/decisions/0212): the home banner's three slides
-- (picture, alt text, headline, line of text, where a click goes) and the About page's text,
-- edited on the admin's Storefront tab.
--
-- - One row (id true, as public.store_settings), slides as numbered columns: the spec's banner
--   has exactly three slides, so there is no fourth to add and none to remove; one row saves
--   atomically with one update (the admin's updated_at check) and is one GET for the storefront.
-- - Everyone reads it (the storefront with the anon key; every value is shown on the site). One
--   row, no foreign keys: an anonymous read costs a primary-key lookup (docs/decisions/0202).
-- - Admins (private.is_admin()) change it; the service role too. The values are checked here with
--   messages an admin can act on, the column in the hint (errcode 23514), as store_settings does.
--   Pictures: a path of the site (the built-in /banners/… pictures) or a picture uploaded to the
--   public bucket storefront-images. Links: a path inside the store ("/about", "/?cat=Football")
--   or a web address (http:// or https://, a host, no spaces; REQ-PATH-7), never a scheme-relative
--   "//…" or a script ("javascript:…").
-- - The About text is plain text: blank lines part paragraphs, "- " starts a list item, "## " a
--   subheading. The storefront renders it as text, never as HTML.
-- - Changes are logged like the store settings (kind settings_changed, subject "Storefront
--   content", the changed fields only): the same kind keeps the log's kind list as it is.
-- - Pictures: the public bucket storefront-images with product-images' limits and rules
--   (supabase/schemas/080_storage.sql).

create table public.storefront_content (
  id boolean primary key default true constraint storefront_content_one_row check (id),
  slide_1_image text not null default '/banners/banner-1.svg',
  slide_1_alt text not null default 'Football on a floodlit pitch',
  slide_1_heading text not null default 'Kit out your team',
  slide_1_text text not null default 'Footballs, boots and training gear from trusted UK sellers.',
  slide_1_link text,
  slide_2_image text not null default '/banners/banner-2.svg',
  slide_2_alt text not null default 'Tennis racket and ball on a grass court',
  slide_2_heading text not null default 'Game, set and match',
  slide_2_text text not null default 'Rackets, balls and court shoes for every level of play.',
  slide_2_link text,
  slide_3_image text not null default '/banners/banner-3.svg',
  slide_3_alt text not null default 'Running shoes on a track',
  slide_3_heading text not null default 'Run further',
  slide_3_text text not null default 'Running shoes, fitness trackers and gym essentials.',
  slide_3_link text,
  about_text text not null default $about$MAR Online Store UK is a small, independent sports-goods storefront for shoppers across the United Kingdom. We bring together kit for the sports people actually play on weekday evenings and Sunday mornings: football, cricket, tennis, running, cycling, swimming, gym training and more.

We do not run a warehouse. Instead we search out good products from trusted UK sellers, check the details and list each one with an honest comment about what it is good for. When you find something you like, the Buy Now button takes you straight to the seller's own page, where you buy it with the seller's prices, delivery and returns.

## What we care about

- Clear prices in pounds sterling and plain descriptions, with no pushy extras.
- Kit for every level, from a first pair of running shoes to match-day gear.
- Sellers with fair delivery and returns, so buying outside our site stays simple.
- Your privacy: we collect as little as we can (see our Privacy Policy).

Have a question, a product we should list, or a seller you would recommend? We would love to hear from you on our Contact Us page.$about$,
  updated_at timestamptz not null default now()
);
comment on table public.storefront_content is
  'The home banner''s three slides and the About text (one row): everyone reads them, admins change them.';
insert into public.storefront_content (id) values (true);

alter table public.storefront_content enable row level security;
revoke all on table public.storefront_content from public, anon, authenticated, service_role;
grant select on table public.storefront_content to anon, authenticated, service_role;
grant update (
  slide_1_image, slide_1_alt, slide_1_heading, slide_1_text, slide_1_link,
  slide_2_image, slide_2_alt, slide_2_heading, slide_2_text, slide_2_link,
  slide_3_image, slide_3_alt, slide_3_heading, slide_3_text, slide_3_link,
  about_text
) on table public.storefront_content to authenticated, service_role;

create policy "Everyone reads the storefront content"
  on public.storefront_content for select to anon, authenticated
  using (true);
create policy "Admins change the storefront content"
  on public.storefront_content for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

-- Tidies and checks every value. errcode 23514 (check violation); the hint names the column.
create function private.storefront_content_check()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  -- A path of this site: one slash, then no second slash or backslash (that would be another
  -- host: "//evil.example", "/\evil.example"), no spaces, no control characters.
  v_path text := '^/([^/\\[:space:][:cntrl:]][^\\[:space:][:cntrl:]]*)?$';
  -- A picture uploaded to the storefront-images bucket: <uuid>/<width>.<type> under the public
  -- object path of a Supabase project (the host is the project's, which the database cannot know).
  v_upload text := '^https?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?(/[A-Za-z0-9._~-]+)*'
    '/storage/v1/object/public/storefront-images/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9]{1,5}\.(webp|jpg|png)$';
  -- A web address a slide may lead to (REQ-PATH-7): http(s), a host name, an optional port, then
  -- a path, query or fragment without spaces or control characters.
  v_web text := '^https?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?([/?#][^[:space:][:cntrl:]]*)?$';
  v_slide record;
begin
  new.slide_1_image := btrim(coalesce(new.slide_1_image, ''));
  new.slide_2_image := btrim(coalesce(new.slide_2_image, ''));
  new.slide_3_image := btrim(coalesce(new.slide_3_image, ''));
  new.slide_1_alt := btrim(coalesce(new.slide_1_alt, ''));
  new.slide_2_alt := btrim(coalesce(new.slide_2_alt, ''));
  new.slide_3_alt := btrim(coalesce(new.slide_3_alt, ''));
  new.slide_1_heading := btrim(coalesce(new.slide_1_heading, ''));
  new.slide_2_heading := btrim(coalesce(new.slide_2_heading, ''));
  new.slide_3_heading := btrim(coalesce(new.slide_3_heading, ''));
  new.slide_1_text := btrim(coalesce(new.slide_1_text, ''));
  new.slide_2_text := btrim(coalesce(new.slide_2_text, ''));
  new.slide_3_text := btrim(coalesce(new.slide_3_text, ''));
  -- Optional: blank means "the slide is not a link".
  new.slide_1_link := nullif(btrim(new.slide_1_link), '');
  new.slide_2_link := nullif(btrim(new.slide_2_link), '');
  new.slide_3_link := nullif(btrim(new.slide_3_link), '');
  -- Windows line ends become plain ones; blank space around the text goes.
  new.about_text := btrim(replace(coalesce(new.about_text, ''), E'\r\n', E'\n'), E' \n\t');

  for v_slide in
    select * from (values
      (1, new.slide_1_image, new.slide_1_alt, new.slide_1_heading, new.slide_1_text, new.slide_1_link),
      (2, new.slide_2_image, new.slide_2_alt, new.slide_2_heading, new.slide_2_text, new.slide_2_link),
      (3, new.slide_3_image, new.slide_3_alt, new.slide_3_heading, new.slide_3_text, new.slide_3_link)
    ) s (n, image, alt, heading, body, link)
  loop
    if char_length(v_slide.image) > 300
       or not (v_slide.image ~ v_path or v_slide.image ~ v_upload) then
      raise exception 'Slide %''s picture must be uploaded here (or one of the store''s own pictures)', v_slide.n
        using errcode = '23514', hint = format('slide_%s_image', v_slide.n);
    end if;
    if char_length(v_slide.alt) not between 1 and 150 or v_slide.alt ~ '[[:cntrl:]]' then
      raise exception 'Slide %''s picture description must be 1 to 150 characters on one line', v_slide.n
        using errcode = '23514', hint = format('slide_%s_alt', v_slide.n);
    end if;
    if char_length(v_slide.heading) not between 1 and 60 or v_slide.heading ~ '[[:cntrl:]]' then
      raise exception 'Slide %''s headline must be 1 to 60 characters on one line', v_slide.n
        using errcode = '23514', hint = format('slide_%s_heading', v_slide.n);
    end if;
    if char_length(v_slide.body) not between 1 and 140 or v_slide.body ~ '[[:cntrl:]]' then
      raise exception 'Slide %''s text must be 1 to 140 characters on one line', v_slide.n
        using errcode = '23514', hint = format('slide_%s_text', v_slide.n);
    end if;
    if v_slide.link is not null
       and (char_length(v_slide.link) > 300 or not (v_slide.link ~ v_path or v_slide.link ~ v_web)) then
      raise exception 'Slide %''s link must be a page of this store starting with / (for example /about or /?cat=Football) or a web address starting with https:// or http://, with no spaces', v_slide.n
        using errcode = '23514', hint = format('slide_%s_link', v_slide.n);
    end if;
  end loop;

  if char_length(new.about_text) not between 1 and 6000
     or translate(new.about_text, E'\n\t', '') ~ '[[:cntrl:]]' then
    raise exception 'The About text must be 1 to 6000 characters'
      using errcode = '23514', hint = 'about_text';
  end if;
  new.updated_at := now();
  return new;
end;
$$;
revoke execute on function private.storefront_content_check() from public, anon, authenticated;

create trigger storefront_content_check
  before insert or update on public.storefront_content
  for each row execute function private.storefront_content_check();

-- Nobody deletes the row, whatever grants a role gets later (the storefront always finds one).
create function private.storefront_content_keep_row()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'The storefront content row cannot be deleted' using errcode = '42501';
end;
$$;
revoke execute on function private.storefront_content_keep_row() from public, anon, authenticated;
create trigger storefront_content_keep_row
  before delete on public.storefront_content
  for each row execute function private.storefront_content_keep_row();

-- Activity log: like private.log_settings_change (SECURITY DEFINER: no INSERT grant on the log;
-- the actor's e-mail from auth.users), with its own subject.
create function private.log_storefront_content_change()
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
  select v_actor, v_email, 'settings_changed', 'Storefront content', d.before, d.after
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
revoke execute on function private.log_storefront_content_change() from public, anon, authenticated;

create trigger storefront_content_log_update after update on public.storefront_content
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.log_storefront_content_change();
