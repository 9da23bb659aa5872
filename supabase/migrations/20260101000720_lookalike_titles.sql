-- Look-alike titles. "Ball" was unique ignoring case and outer spaces only, so "Ball" followed by
-- a no-break space, "Ｂａｌｌ" (full width), "Ball" with a zero-width space, a Cyrillic "а", a
-- combining accent or a line separator were all new products (and categories). Titles are now
-- 1. stored normalised (private.normalise_title): NFKC, invisible format characters and controls
--    removed, every run of Unicode white space one plain space, trimmed;
-- 2. unique on a folded key (private.title_key): the normalised title without accents, in lower
--    case, with Cyrillic and Greek letters that look like Latin ones read as those Latin letters.
-- A look-alike is refused as a duplicate (23505, "Title Already in Use" in the admin form). Why
-- fold rather than refuse mixed scripts, and why accents are ignored: docs/decisions/0010.
-- products.cat is normalised the same way, so it still finds its category's stored title.

-- Format characters (Cf) and invisible fillers that render as nothing: soft hyphen, combining
-- grapheme joiner, Arabic letter mark, Hangul fillers, Mongolian vowel separator, zero-width
-- space/joiners and direction marks, bidi embeddings and isolates, word joiner and invisible
-- operators, variation selectors, BOM, interlinear annotation, tag characters. C0/C1 controls
-- other than white space are dropped; white space ones become a space below.
create function private.normalise_title(p_title text)
returns text
language sql
immutable
strict
set search_path = ''
as $$
  select btrim(
    regexp_replace(
      regexp_replace(
        normalize(p_title, nfkc),
        '[\u00ad\u034f\u061c\u115f\u1160\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f'
        '\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U000e0000-\U000e007f'
        '\u0001-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]',
        '', 'g'),
      '[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u2800]+',
      ' ', 'g'),
    ' ');
$$;
comment on function private.normalise_title(text) is
  'A title as stored: NFKC, no invisible or control characters, single plain spaces, trimmed.';

-- Lower-case Cyrillic and Greek letters whose upper or lower case looks like a Latin letter,
-- each read as that letter (one Latin letter per script, so distinct Cyrillic or Greek titles
-- stay distinct). Accents go first: NFD, then combining marks dropped.
create function private.title_key(p_title text)
returns text
language sql
immutable
strict
set search_path = ''
as $$
  select translate(
    lower(
      regexp_replace(
        normalize(private.normalise_title(p_title), nfd),
        '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]',
        '', 'g')),
    'авеѕіјкмнорстухԁԛԝӏαβεζηικμνορτυχ',
    'abesijkmhopctyxdqwlabezhikmnoptyx');
$$;
comment on function private.title_key(text) is
  'The key titles are unique on: normalised, accents removed, lower case, look-alikes folded.';

revoke execute on function private.normalise_title(text), private.title_key(text)
  from public, anon, authenticated;

-- Row rules: the title (and a product's category name) is stored normalised.
create function private.catagories_normalise_title()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.title := private.normalise_title(new.title);
  return new;
end;
$$;
revoke execute on function private.catagories_normalise_title() from public, anon, authenticated;

create function private.products_normalise_title()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.title := private.normalise_title(new.title);
  new.cat := private.normalise_title(new.cat);
  return new;
end;
$$;
revoke execute on function private.products_normalise_title() from public, anon, authenticated;

-- Existing rows first (a renamed category carries its products along, on update cascade).
update public.catagories set title = private.normalise_title(title)
 where title is distinct from private.normalise_title(title);
update public.products set title = private.normalise_title(title)
 where title is distinct from private.normalise_title(title);

-- The triggers and the index run as the writer (an admin or the service role).
grant execute on function private.normalise_title(text), private.title_key(text)
  to authenticated, service_role;

create trigger catagories_normalise_title
  before insert or update of title on public.catagories
  for each row execute function private.catagories_normalise_title();
create trigger products_normalise_title
  before insert or update of title, cat on public.products
  for each row execute function private.products_normalise_title();

create unique index catagories_title_folded_key on public.catagories (private.title_key(title));
create unique index products_title_folded_key on public.products (private.title_key(title));
