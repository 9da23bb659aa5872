-- 1. An admin may withdraw an invite that has not been used. The SignUP tab does so when the
--    sign-up that follows its invite fails: an open invite left behind would make a stranger's
--    later sign-up with that address an admin as soon as the owner clicks its confirmation link.
grant delete on table public.admin_invites to authenticated;

create policy "Admins withdraw open invites"
  on public.admin_invites for delete to authenticated
  using ((select private.is_admin()) and accepted_at is null);

-- 2. price: the trimmed text was limited to 40 characters, the stored text was not ('5' followed
--    by any number of spaces passed). Limit what is stored.
alter table public.products drop constraint products_price_check;
alter table public.products
  add constraint products_price_check
  check (char_length(btrim(price)) >= 1 and char_length(price) <= 40);
