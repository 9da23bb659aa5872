set check_function_bodies = off;

-- Admin model: who may manage the catalogue is decided here, in the database, never by anything a
-- user can edit (user_metadata, local storage). An admin invites an e-mail address; the account
-- with that address becomes an admin once its e-mail is confirmed (trigger on auth.users).
--
-- Privileges are stated explicitly (revoke, then grant exactly what the policies need) so the
-- schema behaves the same whether or not the project auto-exposes new tables to the API roles.

create extension if not exists pgcrypto with schema extensions;

-- Security-definer helpers live in a schema PostgREST does not expose.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;
-- New functions in private are not executable by everyone unless granted one by one.
alter default privileges in schema private revoke execute on functions from public;

-- The admin Products table is served by the database (issue 14, part A; docs/decisions/0080).
-- Before, the admin area read the whole catalogue into the browser (100 requests and 44 MB of
-- JSON at 100,000 products) to search, sort and page it there. Now:
-- - admin_product_page(query, offset, limit) returns one page of products for a query
--   ({"search", "cat", "sort", "ascending"}), and admin_product_count(query) how many match
--   (exact up to 1,000, then the planner's estimate, so counting stays cheap at any size);
-- - search is case-, accent- and look-alike-insensitive (the same fold as unique titles,
--   private.title_key) over title, category and comment, and tolerates small typos (pg_trgm word
--   similarity), through a trigram index on a stored search key;
-- - catagory_product_counts() gives every category's product count in one aggregate query;
-- - bulk move/delete of selected products and "move the products, then delete the category" run
--   as single set-based statements through RLS and the tables' triggers (admins only).

create extension if not exists pg_trgm with schema extensions;

-- Loads pg_trgm's library in this session even when the extension already existed, so that its
-- settings are known when the functions below name one (SET pg_trgm.word_similarity_threshold);
-- otherwise a non-superuser (hosted Supabase's postgres) gets "permission denied to set parameter".
select extensions.similarity('', '');

-- ---------------------------------------------------------------------------------------------
-- The counting path (anon and everyone)
-- ---------------------------------------------------------------------------------------------

-- Answers 'counted', 'repeat' (this page view counted the product already), 'ignored' (a bot or
-- not a browser) or 'limited' (this source's clicks of the minute are used up). Bad input (an
-- unknown product, a page that is not a store path, no page view) is refused with 22023 before
-- anything is written.
-- The writer runs as its owner (the API roles may not write the tables) and lives in a schema
-- of its own that PostgREST does not expose and that holds nothing else, so granting the API
-- roles USAGE there opens exactly this one function. public.count_buy_now_click below is the
-- endpoint: SECURITY INVOKER, it only hands its arguments on.
create schema click_counting;
revoke all on schema click_counting from public;
grant usage on schema click_counting to anon, authenticated, service_role;

-- Who may start a check through the function: admins (the function asks with the caller's token).
-- public.is_admin() already answers that; nothing new is needed here.

-- ---------------------------------------------------------------------------------------------
-- Hiding products with broken seller links from the storefront (when the admin chose so).
-- The read policy calls a definer function once per statement (an init plan): the ids to hide,
-- an empty array when the choice is off or the reader is an admin. The storefront's index scans
-- stay as they were; each row costs one "= any" test against a (usually tiny) array.
-- The function lives in its own schema, not exposed through the API, so that anon (who has no
-- access to schema private) may execute it without it becoming an RPC.
-- ---------------------------------------------------------------------------------------------
create schema listing;
-- Issue 17: the storefront search of a rare word answered from the trigram index at any size.
--
-- public.storefront_search ran with the caller's rights, so the products read policy applied to
-- it. While a row-level policy applies, Postgres evaluates a condition whose operator is not
-- leakproof only after the policy, never inside an index scan, and the search's LIKE is not
-- leakproof: a search for a word few products hold ("butyl", a serial number, a typo of either)
-- read every product. Measured as anon at 1,000,000 products: 1,180-1,490 ms a query, against
-- 4 ms with the policy out of the way (the same plan the admin table met: migration 2200).
--
-- The query moves into a definer function in schema listing (anon may reach it, the API does not
-- expose it). Its plans are those of migration 1900; the one addition is the read policy's rule,
-- applied by the function itself: the same listing.hidden_product_ids() the policy calls, once
-- per search, as one more condition on every plan. public.storefront_search keeps
-- its name, arguments and answers, and stays an invoker-rights entry point.
-- How the plans are chosen: migration 1900 and docs/decisions/0140.

comment on schema listing is
  'Storefront reads for every reader (anon included), past the products read policy, which they '
  'apply themselves; not exposed.';
revoke all on schema listing from public;
grant usage on schema listing to anon, authenticated, service_role;
alter default privileges in schema listing revoke execute on functions from public;

-- The category a title names today: a current title (matched like the unique index, ignoring
-- case and look-alike letters) wins; otherwise the category that last carried that title, under
-- its present name; null when neither exists (or the category was deleted). Definer rights
-- (owned by postgres) to read the private history; it answers one current title, which every
-- visitor can read anyway. In a schema of its own: the visitor (anon) has no access to
-- `private`, and a definer function must not sit in the API's exposed schema (db:lint). Nothing
-- else is in this schema, and the API does not expose it.
create schema catalogue_lookup;
revoke all on schema catalogue_lookup from public;
grant usage on schema catalogue_lookup to anon, authenticated, service_role;

-- Issue 14: the admin table's search, answered without reading the whole table.
--
-- public.admin_product_page and admin_product_count ran with the caller's rights, so the products
-- read policy applied to them. While a row-level policy applies, Postgres evaluates a condition
-- whose operator is not leakproof only after the policy, never inside an index scan, and the
-- search's operators (pg_trgm's %>, ILIKE) are not leakproof: every admin search read every
-- product. Measured through the API at 100,000 products: 60-150 ms a search, against 11-27 ms
-- with the policy out of the way (and 0.3 ms for the query alone).
--
-- The policy hides nothing from admins (listing.hidden_product_ids() is empty for them), so the
-- reads move into definer functions, behind the same admin check, in a schema of their own: a
-- definer function must not sit in the API's exposed schema (db:lint), and only signed-in users
-- may reach this one. The public functions keep their names, arguments and answers, and stay
-- invoker-rights entry points.

-- Loads pg_trgm's library in this session, so that its settings are known when the functions
-- below name one (SET pg_trgm.word_similarity_threshold); otherwise a non-superuser (hosted
-- Supabase's postgres) gets "permission denied to set parameter".
select extensions.similarity('', '');

create schema admin_table;
revoke all on schema admin_table from public;
grant usage on schema admin_table to authenticated;
