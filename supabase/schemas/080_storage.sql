-- Product pictures (REQ-IMG-1) live in Supabase Storage, in the public bucket `product-images`.
-- The bucket and its rules are created here, so the same SQL sets up a hosted project (whose
-- storage schema already exists) and the local stack (stack/storage/schema.sql reproduces it).
--
-- Public: the public object URL (/storage/v1/object/public/product-images/<path>) serves every
-- picture without a policy, which is what the storefront needs. Listing, uploading, replacing and
-- deleting go through storage.objects' row-level security: admins only (decision 0100).
-- Limits (decision 0101): 5 MiB per file, and only the raster types the admin's browser produces
-- or a shop photo comes in. No SVG (it can carry script) and no HTML.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
  'product-images',
  'product-images',
  true,
  5242880,
  array['image/webp', 'image/jpeg', 'image/png']
)
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;
-- The bucket's row (its limits) is readable by everyone, so the product form can show them.
create policy "product-images bucket is readable"
  on storage.buckets for select
  to anon, authenticated
  using (id = 'product-images');

-- No SELECT policy for anon: a public bucket's files are served without one, and a broad one
-- would let anybody list every file (Supabase's linter warns about exactly that, lint 0025).
-- Admins list (orphan check) and need SELECT for upsert (insert … on conflict do update).
create policy "product-images: admins list"
  on storage.objects for select
  to authenticated
  using (bucket_id = 'product-images' and (select private.is_admin()));
create policy "product-images: admins upload"
  on storage.objects for insert
  to authenticated
  with check (bucket_id = 'product-images' and (select private.is_admin()));
create policy "product-images: admins replace"
  on storage.objects for update
  to authenticated
  using (bucket_id = 'product-images' and (select private.is_admin()))
  with check (bucket_id = 'product-images' and (select private.is_admin()));
create policy "product-images: admins delete"
  on storage.objects for delete
  to authenticated
  using (bucket_id = 'product-images' and (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- The slides' pictures: a public bucket like product-images (decisions 0100, 0101): 5 MiB, the
-- raster types the admin's browser produces, no SVG (it can carry script). Public object URLs
-- serve the files; listing, uploading, replacing and deleting are for admins only.
-- ---------------------------------------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
  'storefront-images',
  'storefront-images',
  true,
  5242880,
  array['image/webp', 'image/jpeg', 'image/png']
)
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

create policy "storefront-images bucket is readable"
  on storage.buckets for select
  to anon, authenticated
  using (id = 'storefront-images');

create policy "storefront-images: admins list"
  on storage.objects for select
  to authenticated
  using (bucket_id = 'storefront-images' and (select private.is_admin()));

create policy "storefront-images: admins upload"
  on storage.objects for insert
  to authenticated
  with check (bucket_id = 'storefront-images' and (select private.is_admin()));

create policy "storefront-images: admins replace"
  on storage.objects for update
  to authenticated
  using (bucket_id = 'storefront-images' and (select private.is_admin()))
  with check (bucket_id = 'storefront-images' and (select private.is_admin()));

create policy "storefront-images: admins delete"
  on storage.objects for delete
  to authenticated
  using (bucket_id = 'storefront-images' and (select private.is_admin()));
