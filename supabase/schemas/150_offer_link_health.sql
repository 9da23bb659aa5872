-- Link health of offers (REQ-OFF-6, docs/decisions/0234). The link-health function checks every
-- non-primary offer's link too (the primary offer's link is the product's, checked as 'link'),
-- and stores it in public.link_checks as kind 'offer' with offer_id (100_link_health.sql): one
-- table, so the triage rules (two failures in a row, bot walls, accepted redirects), the admin
-- filter and Insights apply to offers unchanged. Buy Now skips offers confirmed broken
-- (145_offer_summary.sql) and hiding takes a product only when every offer link is broken
-- (listing.hidden_product_ids). Here, after public.offers exists: the foreign key, and what an
-- offer's changed link forgets.

alter table public.link_checks
  add constraint link_checks_offer_id_fkey foreign key (offer_id)
  references public.offers (id) on delete cascade;

-- A changed offer link drops its old result (and so its broken state) and the redirect accepted
-- for it, unless the product or another offer still links there.
create function private.link_checks_forget_offer_url()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.link_checks c
   where c.offer_id = new.id and c.url is distinct from new.link;
  delete from public.link_redirect_acceptances a
   where a.product_id = new.product_id and a.url = old.link
     and not exists (select 1 from public.products p where p.id = new.product_id and p.link = old.link)
     and not exists (select 1 from public.offers o
                      where o.product_id = new.product_id and o.id <> new.id and o.link = old.link);
  return null;
end;
$$;
revoke execute on function private.link_checks_forget_offer_url() from public, anon, authenticated;

create trigger offers_link_checks_forget
  after update of link on public.offers
  for each row
  when (old.link is distinct from new.link and not new.is_primary)
  execute function private.link_checks_forget_offer_url();
