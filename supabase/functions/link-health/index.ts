// Edge function `link-health`: checks products' seller links and image URLs and records the
// outcome (public.link_checks). Deploy: `supabase functions deploy link-health` (verify_jwt =
// false in config.toml: the function itself admits admins and the schedule's secret key).
// Configuration (function secrets): see config.ts and docs/link-health.md.
import { loadConfig } from './config.ts';
import { createHandler } from './handler.ts';

Deno.serve(createHandler(loadConfig((name) => Deno.env.get(name))));
