// Edge function `feed-sync`: reads sellers' product feeds into staging and applies them (REQ-FEED-2,
// decisions 0241, 0242). Deploy: `supabase functions deploy feed-sync` (verify_jwt = false in
// config.toml: the function admits admins and the service/secret keys itself, like link-health).
// Configuration (function secrets FEED_*): see config.ts.
import { loadConfig } from './config.ts';
import { createHandler } from './handler.ts';

Deno.serve(createHandler(loadConfig((name) => Deno.env.get(name))));
