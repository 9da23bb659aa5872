// Edge function `contact`: stores a Contact Us message, then e-mails it to the store.
// Deploy: `supabase functions deploy contact` (verify_jwt = false in config.toml: the form is
// public; the function validates, rate-limits and guards its retry route itself).
// Configuration (function secrets): see config.ts and the README.
import { loadConfig } from './config.ts';
import { createHandler } from './handler.ts';
import { createMailer } from './mail.ts';
import { createStore } from './store.ts';

const config = loadConfig((name) => Deno.env.get(name));

Deno.serve(
  createHandler({
    config,
    store: createStore(config.supabaseUrl, config.serviceRoleKey),
    mailer: createMailer(config.transport, config.sendTimeoutMs),
  }),
);
