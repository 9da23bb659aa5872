-- The database's schemas and extensions, before any table (decision 0220: supabase/schemas/ is
-- the database's current state, one file per domain, applied in config.toml's schema_paths
-- order; supabase/migrations/ is how hosted got there).
--
-- Function bodies are checked when a function runs, not when it is created: each domain file
-- keeps a table with its functions, and a body may name a table of a later file (as pg_dump
-- does). The files are applied in one session, so this holds for all of them.
set check_function_bodies = off;

create extension if not exists pgcrypto with schema extensions;
create extension if not exists pg_trgm with schema extensions;

-- Loads pg_trgm's library in this session even when the extension already existed, so that its
-- settings are known when the functions name one (SET pg_trgm.word_similarity_threshold);
-- otherwise a non-superuser (hosted Supabase's postgres) gets "permission denied to set parameter".
select extensions.similarity('', '');

-- Security-definer helpers live in a schema PostgREST does not expose.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;
-- New functions in private are not executable by everyone unless granted one by one.
alter default privileges in schema private revoke execute on functions from public;

-- The Buy Now click writer (090_clicks.sql) runs as its owner and lives in a schema of its own
-- that PostgREST does not expose and that holds nothing else, so granting the API roles USAGE
-- there opens exactly that one function.
create schema click_counting;
revoke all on schema click_counting from public;
grant usage on schema click_counting to anon, authenticated, service_role;

-- Storefront reads past the products read policy (060_storefront.sql, 100_link_health.sql):
-- definer functions anon may execute without them becoming RPCs.
create schema listing;
comment on schema listing is
  'Storefront reads for every reader (anon included), past the products read policy, which they '
  'apply themselves; not exposed.';
revoke all on schema listing from public;
grant usage on schema listing to anon, authenticated, service_role;
alter default privileges in schema listing revoke execute on functions from public;

-- The category a title names today (020_catalogue.sql): a definer function anon may reach, in a
-- schema that holds nothing else and that the API does not expose.
create schema catalogue_lookup;
revoke all on schema catalogue_lookup from public;
grant usage on schema catalogue_lookup to anon, authenticated, service_role;

-- The admin table's reads past the products read policy (050_admin_table.sql): definer
-- functions behind the admin check; only signed-in users may reach the schema.
create schema admin_table;
revoke all on schema admin_table from public;
grant usage on schema admin_table to authenticated;
